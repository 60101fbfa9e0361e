#include "meanpoint.h"

#include "viewdatashared.h"

#include "diagnose/wilsoninterval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl {

void appendMeanPoint(RatioCurve& curve, double x, const MeanCell& cell)
{
    const qint64 n = qint64(cell.values.size());
    double sum = 0.0;
    for (double v : cell.values)
        sum += v;
    const double mean = n > 0 ? sum / double(n) : kNaN;
    curve.ratios << x;
    curve.values << mean;
    curve.n << int(n);
    if (cell.binary && n > 0) {
        const RateInterval ci = wilsonInterval(qint64(std::llround(sum)), n);
        curve.lo << ci.lo;
        curve.hi << ci.hi;
        return;
    }
    double ss = 0.0;
    for (double v : cell.values)
        ss += (v - mean) * (v - mean);
    const double half = n > 1 ? kZ95 * std::sqrt(ss / double(n - 1)) / std::sqrt(double(n)) : kNaN;
    curve.lo << (std::isnan(half) ? kNaN : std::max(0.0, mean - half));
    curve.hi << (std::isnan(half) ? kNaN : std::min(1.0, mean + half));
}

} // namespace kvl
