#include "accuracydata.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kvl {

double cliffRatio(const AccuracyCurve& curve)
{
    const int n = int(std::min(curve.ratios.size(), curve.accuracy.size()));
    std::vector<std::pair<double, double>> points;
    for (int i = 0; i < n; ++i)
        if (!std::isnan(curve.ratios[i]) && !std::isnan(curve.accuracy[i]))
            points.emplace_back(curve.ratios[i], curve.accuracy[i]);
    std::stable_sort(points.begin(), points.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    double steepest = 0.0;
    double cliff = std::nan("");
    for (size_t i = 1; i < points.size(); ++i) {
        const double dr = points[i].first - points[i - 1].first;
        if (dr <= 0.0)
            continue;
        const double slope = (points[i].second - points[i - 1].second) / dr;
        if (slope < steepest) {
            steepest = slope;
            cliff = points[i].first;
        }
    }
    return cliff;
}

} // namespace kvl
