#include "diagnose/failureoverlap.h"

namespace kvl {

FailureOverlap failureOverlap(const std::set<qint64>& a, const std::set<qint64>& b)
{
    FailureOverlap o;
    for (qint64 id : a)
        (b.count(id) ? o.both : o.aOnly) += 1;
    o.bOnly = qint64(b.size()) - o.both;
    const qint64 unionSize = o.aOnly + o.bOnly + o.both;
    if (unionSize > 0)
        o.jaccard = double(o.both) / double(unionSize);
    return o;
}

std::map<std::vector<int>, qint64> failureIntersections(const std::vector<std::set<qint64>>& sets)
{
    // The sets each sample falls in, then one count per distinct membership.
    std::map<qint64, std::vector<int>> membership;
    for (int i = 0; i < int(sets.size()); ++i)
        for (qint64 id : sets[size_t(i)])
            membership[id].push_back(i); // i ascends: members stay sorted
    std::map<std::vector<int>, qint64> counts;
    for (const auto& [id, members] : membership)
        ++counts[members];
    return counts;
}

} // namespace kvl
