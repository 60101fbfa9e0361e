#pragma once

#include "views/ratiocurvesdata.h"

#include <vector>

namespace kvl {

// The values behind one point of a curve (a compressor at a ratio, or at a step).
struct MeanCell
{
    std::vector<double> values;
    bool binary = true; // every value 0 or 1: a rate, with a Wilson interval
    void add(double v)
    {
        values.push_back(v);
        binary = binary && (v == 0.0 || v == 1.0);
    }
};

// Appends the cell's mean, n and 95% interval at `x` to a curve: Wilson for a rate
// (values 0/1), else mean ± 1.96 standard errors, clipped to [0, 1] (shares and rates
// only). An empty cell appends NaN with n = 0.
void appendMeanPoint(RatioCurve& curve, double x, const MeanCell& cell);

} // namespace kvl
