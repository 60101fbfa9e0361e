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
    QVector<double> values;    // same length as ratios; NaN = no value
    int colorIndex = -1;       // palette series colour; -1 = the curve's index
    bool dashed = false;       // the second member of a pair (sham beside boost, ...)
    QVector<int> n;            // rows behind each point; empty = unknown
    QVector<qint64> successes; // of a rate: the rows counted (leaks, repairs); empty = not a count
    QVector<double> lo, hi;    // 95% interval of each point; empty = none
    // Line style and marker by index (solid, dashed, dotted, dash-dot, ...) where the
    // curves form a grid (compressor × instruction); -1 = `dashed` decides.
    int styleIndex = -1;
};

// Values against compression ratio (span keep rate, leakage rate, repair rate),
// with an optional reference line (usually FullCache).
struct RatioCurves
{
    QString valueLabel; // y axis title
    // x axis title; empty: the compression ratio's usual one. Offloading keeps every
    // entry, so its ratio sets a retrieval budget instead, and its axis says so.
    QString ratioLabel;
    // What a point's x is called in its tooltip ("step" where x counts compressions:
    // whole-number ticks, and the CSV's x column is "step"); empty: the ratio.
    QString pointKeyName;
    QVector<RatioCurve> curves;
    double reference = std::numeric_limits<double>::quiet_NaN();
    QString referenceLabel;
    int referenceN = 0; // rows behind the reference; 0 = unknown
    double referenceLo = std::numeric_limits<double>::quiet_NaN();
    double referenceHi = std::numeric_limits<double>::quiet_NaN();
    // What the intervals are ("Wilson score", ...), said under the plot.
    QString intervalNote;
    // A grouped legend for a grid of curves: colour i is colorNames[i], style j is
    // styleNames[j] (one entry each, not one per curve). Empty: one entry per curve.
    QStringList colorNames;
    QStringList styleNames;

    bool isEmpty() const { return curves.isEmpty(); }
};

} // namespace kvl
