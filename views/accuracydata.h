#pragma once

#include <QString>
#include <QVector>

#include <limits>

namespace kvl {

// Accuracy of one compressor at each compression ratio it was run at
// (ratio = fraction of context KV entries removed; kvpress convention).
struct AccuracyCurve
{
    QString compressor;
    QVector<double> ratios;
    QVector<double> accuracy; // 0..1, same length as ratios
};

struct AccuracyData
{
    QVector<AccuracyCurve> curves;
    // Accuracy of the uncompressed run of the same samples; NaN when unknown.
    double fullCacheAccuracy = std::numeric_limits<double>::quiet_NaN();

    bool isEmpty() const { return curves.isEmpty(); }
};

// The cliff of a curve: the ratio at which accuracy has just fallen along the
// steepest drop, i.e. the right end of the segment with the most negative slope
// Δaccuracy/Δratio between consecutive ratios (points sorted by ratio first).
// "SnapKV drops at 0.75" names the ratio where accuracy is already low, so the
// marker goes there, not on the segment's midpoint. NaN when accuracy never drops.
double cliffRatio(const AccuracyCurve& curve);

} // namespace kvl
