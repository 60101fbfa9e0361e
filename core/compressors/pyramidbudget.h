#pragma once

#include <cstdint>

namespace kvl {

// Entries per head that PyramidKV gives layer `layer` of `layers` (kvpress
// PyramidKVPress.get_layer_budget, Python round() = ties to even). `length` is kvpress's
// q_len: the context length T.
int64_t pyramidLayerBudget(int64_t length, double ratio, int window, double beta, int layer,
                           int layers);

// Whether kvpress's rule gives up the pyramid for this configuration and every layer
// keeps the uniform round(T(1 - r)). With the largest budget clamped to T - window this
// happens when rT < window, or when r > 0.5 and T(1 - r) < beta·window (and with one layer).
bool pyramidFallsBack(int64_t length, double ratio, int window, double beta, int layers);

} // namespace kvl
