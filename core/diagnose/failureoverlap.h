#pragma once

#include <QtGlobal>
#include <optional>
#include <set>

namespace kvl {

// Overlap of two compressors' failure sets (the samples each turns C→W at the same
// ratio): Jaccard = |A ∩ B| / |A ∪ B|, with the A-only / B-only / both counts the
// views draw. Jaccard is nullopt when both sets are empty.
struct FailureOverlap
{
    qint64 aOnly = 0;
    qint64 bOnly = 0;
    qint64 both = 0;
    std::optional<double> jaccard;
};

FailureOverlap failureOverlap(const std::set<qint64>& a, const std::set<qint64>& b);

} // namespace kvl
