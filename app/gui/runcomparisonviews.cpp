#include "runcomparisonviews.h"

#include "diagnose/wilsoninterval.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cmath>

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
        int color = int(v.curves.colorNames.indexOf(d.compressor));
        if (color < 0) {
            color = int(v.curves.colorNames.size());
            v.curves.colorNames << d.compressor;
            for (int run = 0; run < 2; ++run) {
                RatioCurve curve;
                curve.name =
                    QStringLiteral("%1 · %2").arg(d.compressor, run == 0 ? v.nameA : v.nameB);
                curve.colorIndex = color;
                curve.styleIndex = run;
                (run == 0 ? curveA : curveB) << curve;
            }
        }
        addPoint(curveA[color], d.ratio, d.correctA, d.n);
        addPoint(curveB[color], d.ratio, d.correctB, d.n);
    }
    for (int i = 0; i < curveA.size(); ++i)
        v.curves.curves << curveA[i] << curveB[i];
    return v;
}

RunComparisonViews loadRunComparison(const QString& pathA, const QString& pathB)
{
    return runComparisonViews(compareRuns(pathA, pathB));
}

} // namespace kvl
