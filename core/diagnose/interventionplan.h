#pragma once

#include "diagnose/retentionmetrics.h"

#include <QtGlobal>

namespace kvl {

// The boost/sham intervention of KVDiagnosis (SCIENCE.md §1): re-answer with log β
// added to the attention logits of the evidence entries (boost), and, as a control,
// with the same boost on as many random non-evidence entries (sham). The engine
// applies the boost; this decides where.
inline constexpr double kDefaultBoostBeta = 4.0;

// |evidence| distinct positions of [0, contextLen) outside the evidence, drawn
// uniformly with a generator seeded by `seed` (the same seed gives the same
// positions on every platform). Fewer when the context has fewer non-evidence
// positions. Sorted ascending.
Positions shamPositions(int contextLen, const Positions& evidence, quint64 seed);

} // namespace kvl
