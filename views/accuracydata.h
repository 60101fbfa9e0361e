#pragma once

#include <QString>
#include <QVector>

#include <limits>

namespace kvl {

// Accuracy of one compressor at each compression ratio it was run at
// (ratio = fraction of context KV entries removed; kvpress convention).
// Each point says how many rows it stands on and its 95% Wilson interval, so that
// 5 of 6 and 500 of 600 do not read alike (empty vectors: unknown).
struct AccuracyCurve
{
    QString compressor;
    QVector<double> ratios;
    QVector<double> accuracy; // 0..1, same length as ratios
    QVector<int> n;           // rows scored at each ratio
    QVector<qint64> correct;  // of them, correct
    QVector<double> lo, hi;   // 95% Wilson interval of accuracy
};

struct AccuracyData
{
    QVector<AccuracyCurve> curves;
    // Accuracy of the uncompressed run of the same samples; NaN when unknown.
    double fullCacheAccuracy = std::numeric_limits<double>::quiet_NaN();
    int fullCacheN = 0;
    qint64 fullCacheCorrect = 0;
    double fullCacheLo = std::numeric_limits<double>::quiet_NaN();
    double fullCacheHi = std::numeric_limits<double>::quiet_NaN();

    bool isEmpty() const { return curves.isEmpty(); }
};

// The cliff of a curve: the ratio at which accuracy has just fallen along the
// steepest drop, i.e. the right end of the segment with the most negative slope
// Δaccuracy/Δratio between consecutive ratios (points sorted by ratio first).
// "SnapKV drops at 0.75" names the ratio where accuracy is already low, so the
// marker goes there, not on the segment's midpoint. Where the curve has 95% intervals,
// only a drop whose intervals separate (the upper bound after below the lower bound
// before) counts. NaN when accuracy never drops, or never clearly.
double cliffRatio(const AccuracyCurve& curve);

} // namespace kvl
