#pragma once

#include "diagnose/attentionsummary.h"
#include "diagnose/retentionmetrics.h"

#include <optional>
#include <vector>

namespace kvl {

// Attention mass of the question/answer queries on the evidence: Σ_{t∈E} a[ℓ,h,t],
// averaged over all (layer, kv-head). nullopt when E is empty or there are no slots.
// Positions outside the context throw kvl::Error.
std::optional<double> evidenceAttentionMass(const AttentionSummary& attention,
                                            const Positions& evidence);

// EAR = mass_compressed / mass_full (SCIENCE.md §1). nullopt when either mass is
// undefined or the FullCache mass is 0 (no valid replay).
std::optional<double> evidenceAttentionRatio(std::optional<double> compressedMass,
                                             std::optional<double> fullMass);
std::optional<double> evidenceAttentionRatio(const AttentionSummary& compressed,
                                             const AttentionSummary& full,
                                             const Positions& evidence);

// Consensus(ℓ) = number of distinct per-head argmax positions / number of heads
// (SCIENCE.md §3); the argmax takes the first position among ties. One value per
// layer; empty when the summary has no heads or no context.
std::vector<double> headConsensusPerLayer(const AttentionSummary& attention);

} // namespace kvl
