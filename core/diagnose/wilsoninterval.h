#pragma once

#include <QtGlobal>

namespace kvl {

// z of a two-sided 95% interval (the 0.975 quantile of the standard normal).
inline constexpr double kZ95 = 1.959963984540054;

// A confidence interval of a rate; both ends NaN when the rate is unknown (no trials).
struct RateInterval
{
    double lo;
    double hi;
};

// Wilson score interval of `successes` out of `trials` (95% by default). Unlike the
// normal (Wald) interval it stays inside [0, 1] and does not collapse to a point at
// 0/n or n/n, which matters here: a run has a handful of samples per configuration
// and rates of 0 and 1 are common. NaN ends for trials <= 0 or successes outside
// [0, trials].
RateInterval wilsonInterval(qint64 successes, qint64 trials, double z = kZ95);

} // namespace kvl
