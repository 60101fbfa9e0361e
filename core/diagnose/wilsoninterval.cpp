#include "diagnose/wilsoninterval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl {

RateInterval wilsonInterval(qint64 successes, qint64 trials, double z)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (trials <= 0 || successes < 0 || successes > trials)
        return {nan, nan};
    const double n = double(trials);
    const double p = double(successes) / n;
    const double z2n = z * z / n;
    const double centre = (p + z2n / 2.0) / (1.0 + z2n);
    const double half = z / (1.0 + z2n) * std::sqrt(p * (1.0 - p) / n + z2n / (4.0 * n));
    // At 0/n the lower end is exactly 0, at n/n the upper end exactly 1; rounding would
    // leave them a hair off (n/n gave 0.9999999999999999, an interval missing its rate).
    return {successes == 0 ? 0.0 : std::max(0.0, centre - half),
            successes == trials ? 1.0 : std::min(1.0, centre + half)};
}

} // namespace kvl
