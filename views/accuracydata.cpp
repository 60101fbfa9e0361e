#include "accuracydata.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kvl {

double cliffRatio(const AccuracyCurve& curve)
{
    struct Point
    {
        double ratio, accuracy, lo, hi;
    };
    const int n = int(std::min(curve.ratios.size(), curve.accuracy.size()));
    const double nan = std::nan("");
    std::vector<Point> points;
    for (int i = 0; i < n; ++i)
        if (!std::isnan(curve.ratios[i]) && !std::isnan(curve.accuracy[i]))
            points.push_back({curve.ratios[i], curve.accuracy[i], curve.lo.value(i, nan),
                              curve.hi.value(i, nan)});
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return a.ratio < b.ratio; });
    double steepest = 0.0;
    double cliff = nan;
    for (size_t i = 1; i < points.size(); ++i) {
        const Point& before = points[i - 1];
        const Point& after = points[i];
        const double dr = after.ratio - before.ratio;
        if (dr <= 0.0)
            continue;
        // A drop the intervals do not separate may be noise (n = 12 gives intervals
        // ±0.25 wide): no cliff is marked there.
        const bool intervals = !std::isnan(before.lo) && !std::isnan(after.hi);
        if (intervals && after.hi >= before.lo)
            continue;
        const double slope = (after.accuracy - before.accuracy) / dr;
        if (slope < steepest) {
            steepest = slope;
            cliff = after.ratio;
        }
    }
    return cliff;
}

} // namespace kvl
