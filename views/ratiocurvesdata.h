#pragma once

#include <QString>
#include <QVector>

#include <limits>

namespace kvl {

// One line of a value against the compression ratio ("SnapKV · instruction #0").
struct RatioCurve
{
    QString name;
    QVector<double> ratios;
    QVector<double> values; // same length as ratios; NaN = no value
    int colorIndex = -1;    // palette series colour; -1 = the curve's index
    bool dashed = false;    // the second member of a pair (sham beside boost, ...)
};

// Values against compression ratio (span keep rate, leakage rate, repair rate),
// with an optional reference line (usually FullCache).
struct RatioCurves
{
    QString valueLabel; // y axis title
    QVector<RatioCurve> curves;
    double reference = std::numeric_limits<double>::quiet_NaN();
    QString referenceLabel;

    bool isEmpty() const { return curves.isEmpty(); }
};

} // namespace kvl
