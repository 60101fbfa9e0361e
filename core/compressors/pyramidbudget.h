#pragma once

#include <cstdint>

namespace kvl {

// Entries per head that PyramidKV gives layer `layer` of `layers` (kvpress
// PyramidKVPress.get_layer_budget, Python round() = ties to even).
int64_t pyramidLayerBudget(int64_t length, double ratio, int window, double beta, int layer,
                           int layers);

} // namespace kvl
