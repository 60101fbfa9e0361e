#pragma once

#include "diagnose/keptmask.h"

#include <optional>
#include <vector>

namespace kvl {

// Token positions of the context (0-based). A span is a list of positions, so an
// evidence set made of several ranges is one list or several spans.
using Positions = std::vector<int>;

// The retention metrics of KVDiagnosis and of the instruction study (SCIENCE.md
// §1, §2). Every function throws kvl::Error when a position lies outside the mask's
// context; duplicate positions count once. Undefined values come back as nullopt,
// never as a made-up number.

// ERR = (1/|S|) Σ_s |R_s ∩ E| / |E| over all slots s. nullopt when E is empty or the
// mask has no slots.
std::optional<double> evidenceRetentionRate(const KeptMask& mask, const Positions& evidence);

// ECov = mean over (slot, span) of 1[|R_s ∩ span| / |span| ≥ 0.5]. Empty spans are
// skipped; nullopt when no span is left.
std::optional<double> evidenceCoverage(const KeptMask& mask, const std::vector<Positions>& spans);
inline constexpr double kCoverageSpanThreshold = 0.5;

// DRR = D_rr / (D_rr + ERR), D_rr the retention rate of the distractors computed
// like ERR. nullopt when either rate is undefined or both are 0.
std::optional<double> distractorRetentionRatio(const KeptMask& mask, const Positions& evidence,
                                               const Positions& distractors);
std::optional<double> distractorRetentionRatio(std::optional<double> distractorRate,
                                               std::optional<double> evidenceRate);

// Token keep rate = fraction of kv-heads keeping the token, averaged over layers.
double tokenKeepRate(const KeptMask& mask, int t);
// Span keep rate = mean token keep rate over the span; nullopt for an empty span.
std::optional<double> spanKeepRate(const KeptMask& mask, const Positions& span);

// Union of spans as sorted unique positions (the evidence set E of several spans).
Positions unionOfSpans(const std::vector<Positions>& spans);

} // namespace kvl
