#pragma once

#include "diagnose/keptmask.h"
#include "diagnose/retentionmetrics.h"

#include <optional>
#include <vector>

namespace kvl {

// Global eviction rate of the physics study (SCIENCE.md §3): a token is globally
// evicted in layer ℓ when no kv-head of ℓ keeps it (it has no route left there).
// GER(ℓ) = mean of GlobalEvicted(t) over the answer-critical tokens T_ans.
// Empty vector when T_ans is empty.
std::vector<double> globalEvictionRatePerLayer(const KeptMask& mask, const Positions& answerTokens);

// GER over the model: the mean of the per-layer rates (= mean of GlobalEvicted over
// all (layer, token) pairs). nullopt when T_ans is empty or there are no layers.
std::optional<double> globalEvictionRate(const KeptMask& mask, const Positions& answerTokens);

} // namespace kvl
