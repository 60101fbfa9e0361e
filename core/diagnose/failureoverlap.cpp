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

} // namespace kvl
