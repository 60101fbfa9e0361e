#pragma once

#include <QtGlobal>
#include <map>
#include <optional>
#include <set>
#include <vector>

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

// Exclusive intersections of several failure sets (the columns of an UpSet plot):
// for each combination of sets, how many samples fail under exactly those sets and
// under no other. Keys list member indices (ascending) into `sets`; combinations no
// sample falls in are left out, so the counts add up to the size of the union.
std::map<std::vector<int>, qint64> failureIntersections(const std::vector<std::set<qint64>>& sets);

} // namespace kvl
