#include "runcomparisonviews.h"

#include "diagnose/wilsoninterval.h"
#include "store/runreader.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <map>

namespace kvl {

namespace {

QString runName(const QString& letter, const QString& path, const RunInfo& info)
{
    const QString base = QFileInfo(path).completeBaseName();
    return info.modelName.isEmpty()
               ? QStringLiteral("%1: %2").arg(letter, base)
               : QStringLiteral("%1: %2 (%3)").arg(letter, base, info.modelName);
}

void addPoint(RatioCurve& curve, double ratio, qint64 correct, qint64 n)
{
    const RateInterval ci = wilsonInterval(correct, n);
    curve.ratios << ratio;
    curve.values << double(correct) / double(n);
    curve.n << int(n);
    curve.successes << correct;
    curve.lo << ci.lo;
    curve.hi << ci.hi;
}

// The colour of `compressor`'s curves, adding its pair (one per run, a line style each)
// the first time it is met.
int curvePairOf(RunComparisonViews& v, QVector<RatioCurve>& curveA, QVector<RatioCurve>& curveB,
                const QString& compressor)
{
    int color = int(v.curves.colorNames.indexOf(compressor));
    if (color >= 0)
        return color;
    color = int(v.curves.colorNames.size());
    v.curves.colorNames << compressor;
    for (int run = 0; run < 2; ++run) {
        RatioCurve curve;
        curve.name = QStringLiteral("%1 · %2").arg(compressor, run == 0 ? v.nameA : v.nameB);
        curve.colorIndex = color;
        curve.styleIndex = run;
        (run == 0 ? curveA : curveB) << curve;
    }
    return color;
}

} // namespace

RunComparisonViews runComparisonViews(const RunComparison& c)
{
    RunComparisonViews v;
    v.nameA = runName(QStringLiteral("A"), c.pathA, c.infoA);
    v.nameB = runName(QStringLiteral("B"), c.pathB, c.infoB);
    v.summary = c.matching.summary(QStringLiteral("A"), QStringLiteral("B"));
    for (const SampleMismatch& m : c.matching.mismatched)
        v.mismatches << QStringLiteral("%1: %2").arg(m.key, m.why);
    v.onlyA = c.matching.onlyA;
    v.onlyB = c.matching.onlyB;

    v.table.nameA = v.nameA;
    v.table.nameB = v.nameB;
    v.curves.valueLabel =
        QCoreApplication::translate("kvl::RunComparisonViews", "Accuracy (matched samples)");
    v.curves.styleNames = {v.nameA, v.nameB};
    v.curves.intervalNote =
        QCoreApplication::translate(
            "kvl::RunComparisonViews",
            "over the %1 samples both runs hold (matched by content; mismatched and one-run "
            "samples left out) · Wilson score intervals")
            .arg(c.matching.matched.size());
    // One colour per compressor (FullCache a point at ratio 0), one line style per run.
    QVector<RatioCurve> curveA, curveB;
    for (const AccuracyDelta& d : c.deltas) {
        AccuracyDeltaRow row;
        row.compressor = d.compressor;
        row.ratio = d.ratio;
        row.n = int(d.n);
        row.accuracyA = d.accuracyA();
        row.accuracyB = d.accuracyB();
        row.delta = d.delta();
        row.onlyACorrect = int(d.onlyACorrect);
        row.onlyBCorrect = int(d.onlyBCorrect);
        row.missingFrom = !d.inA ? QStringLiteral("A") : !d.inB ? QStringLiteral("B") : QString();
        v.table.rows << row;
        if (d.n == 0)
            continue;
        const int color = curvePairOf(v, curveA, curveB, d.compressor);
        addPoint(curveA[color], d.ratio, d.correctA, d.n);
        addPoint(curveB[color], d.ratio, d.correctB, d.n);
    }
    for (int i = 0; i < curveA.size(); ++i)
        v.curves.curves << curveA[i] << curveB[i];
    return v;
}

namespace {

struct Pooled
{
    qint64 n = 0;
    qint64 correct = 0;
};

// Suites pooled: configuration (compressor, ratio) -> n and correct.
std::map<std::pair<QString, double>, Pooled> pooled(const std::vector<AccuracyCell>& cells)
{
    std::map<std::pair<QString, double>, Pooled> out;
    for (const AccuracyCell& c : cells) {
        Pooled& p = out[{c.compressor, c.ratio}];
        p.n += c.n;
        p.correct += c.correct;
    }
    return out;
}

} // namespace

RunComparisonViews unpairedComparisonViews(const RunComparison& c,
                                           const std::vector<AccuracyCell>& accuracyA,
                                           const std::vector<AccuracyCell>& accuracyB)
{
    RunComparisonViews v;
    v.paired = false;
    v.nameA = runName(QStringLiteral("A"), c.pathA, c.infoA);
    v.nameB = runName(QStringLiteral("B"), c.pathB, c.infoB);
    const auto a = pooled(accuracyA);
    const auto b = pooled(accuracyB);
    qint64 samplesA = 0, samplesB = 0;
    for (const auto& [key, p] : a)
        samplesA = std::max(samplesA, p.n);
    for (const auto& [key, p] : b)
        samplesB = std::max(samplesB, p.n);
    v.summary = QCoreApplication::translate(
                    "kvl::RunComparisonViews",
                    "unpaired: the runs share no sample (%1) · each over its own samples")
                    .arg(c.matching.summary(QStringLiteral("A"), QStringLiteral("B")));
    v.table.nameA = v.nameA;
    v.table.nameB = v.nameB;
    v.table.paired = false;
    v.curves.valueLabel =
        QCoreApplication::translate("kvl::RunComparisonViews", "Accuracy (unpaired)");
    v.curves.styleNames = {v.nameA, v.nameB};
    v.curves.intervalNote =
        QCoreApplication::translate(
            "kvl::RunComparisonViews",
            "unpaired: each run over its own samples (up to %1 in A, %2 in B; no sample in "
            "both) · Wilson score intervals")
            .arg(samplesA)
            .arg(samplesB);
    // Every configuration of either run, in (compressor, ratio) order, FullCache first.
    std::map<std::pair<QString, double>, int> keys;
    for (const auto& [key, p] : a)
        keys[key] = 0;
    for (const auto& [key, p] : b)
        keys[key] = 0;
    std::vector<std::pair<QString, double>> order;
    for (const auto& [key, unused] : keys)
        if (key.first == kFullCacheCompressor)
            order.push_back(key);
    for (const auto& [key, unused] : keys)
        if (key.first != kFullCacheCompressor)
            order.push_back(key);
    QVector<RatioCurve> curveA, curveB;
    for (const auto& key : order) {
        const auto inA = a.find(key);
        const auto inB = b.find(key);
        AccuracyDeltaRow row;
        row.compressor = key.first;
        row.ratio = key.second;
        if (inA != a.end() && inA->second.n > 0) {
            row.n = int(inA->second.n);
            row.accuracyA = double(inA->second.correct) / double(inA->second.n);
        } else {
            row.missingFrom = QStringLiteral("A");
        }
        if (inB != b.end() && inB->second.n > 0) {
            row.nB = int(inB->second.n);
            row.accuracyB = double(inB->second.correct) / double(inB->second.n);
        } else {
            row.missingFrom = QStringLiteral("B");
        }
        if (row.missingFrom.isEmpty())
            row.delta = row.accuracyB - row.accuracyA;
        v.table.rows << row;
        const int color = curvePairOf(v, curveA, curveB, key.first);
        if (row.n > 0)
            addPoint(curveA[color], key.second, inA->second.correct, inA->second.n);
        if (row.nB > 0)
            addPoint(curveB[color], key.second, inB->second.correct, inB->second.n);
    }
    for (int i = 0; i < curveA.size(); ++i) {
        if (!curveA[i].ratios.isEmpty())
            v.curves.curves << curveA[i];
        if (!curveB[i].ratios.isEmpty())
            v.curves.curves << curveB[i];
    }
    return v;
}

RunComparisonViews loadRunComparison(const QString& pathA, const QString& pathB)
{
    RunComparison comparison = compareRuns(pathA, pathB);
    if (!comparison.matching.matched.empty())
        return runComparisonViews(comparison);
    RunReader a(pathA);
    RunReader b(pathB);
    return unpairedComparisonViews(comparison, a.accuracy(), b.accuracy());
}

} // namespace kvl
