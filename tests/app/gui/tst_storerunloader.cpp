// The store → view data adapter on a hand-made run (guirunfixture.h): every
// expected number is worked out by hand there, not taken from the loader.
#include "guirunfixture.h"
#include "keepaccumulator.h"
#include "maskviews.h"
#include "resultrowsmodel.h"
#include "rowqueries.h"
#include "sampledetail.h"
#include "storerunloader.h"

#include "common/error.h"
#include "store/sqlitedatabase.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {

void compareVectors(const QVector<double>& actual, const QVector<double>& expected,
                    double tolerance = 1e-6)
{
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        if (std::isnan(expected[i]))
            QVERIFY2(std::isnan(actual[i]), qPrintable(QString::number(i)));
        else
            QVERIFY2(
                std::abs(actual[i] - expected[i]) <=
                    tolerance * std::max(1.0, std::abs(expected[i])),
                qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(actual[i]).arg(expected[i])));
    }
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Attention summaries are stored as 16-bit floats (about 3 significant digits).
constexpr double kHalf = 1e-3;

} // namespace

class TstStoreRunLoader : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString m_path;

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("hand.kvl"));
        guitest::writeRun(m_path, {0, 1, 2, 3});
    }

    // A row whose stored values changed after the run wrote them (bytes that still pass
    // SQLite's page checks) refuses the file, naming it, the sample and the
    // configuration, as `kvlens-cli report` does, before any figure is drawn from it;
    // a file changed on disk after a good load is verified again.
    void refusesChangedRow()
    {
        const QString path = m_dir.filePath(QStringLiteral("changed.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        QCOMPARE(loadRunViewData({path}).uncheckedRows, 0);
        SqliteDatabase(path, SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET correct = 1 - correct WHERE sample_id = "
                                 "(SELECT MAX(sample_id) FROM result) AND config_id = "
                                 "(SELECT MAX(config_id) FROM result)"));
        // A hand edit lands seconds after the app read the file, not within the file
        // system's clock tick of it: say so explicitly, so the test cannot race it.
        for (const QString& f : {path, path + QStringLiteral("-wal")}) {
            QFile file(f);
            if (file.open(QIODevice::ReadWrite))
                QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(5),
                                         QFileDevice::FileModificationTime));
        }
        try {
            loadRunViewData({path});
            QFAIL("a changed row was read without complaint");
        } catch (const Error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(path) &&
                         message.contains(QStringLiteral("damaged result row")),
                     qPrintable(message));
        }
    }

    // Rows without a checksum (a schema-2 file's, migrated) are read, and counted as
    // unverified for the status bar, not refused.
    void countsRowsWithoutChecksum()
    {
        const QString path = m_dir.filePath(QStringLiteral("unchecked.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        SqliteDatabase(path, SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET row_checksum = NULL"));
        const RunViewData d = loadRunViewData({path});
        QVERIFY(d.resultCount > 0);
        QCOMPARE(d.uncheckedRows, d.resultCount);
    }

    void runInfo()
    {
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.model, QStringLiteral("tiny"));
        QCOMPARE(d.runName, QStringLiteral("hand"));
        QCOMPARE(d.status, QStringLiteral("finished"));
        QCOMPARE(d.sampleCount, 4);
        QCOMPARE(d.resultCount, 16);
        QCOMPARE(d.sampleKeys, (QStringList{"s0", "s1", "s2", "s3"}));
        QCOMPARE(d.configs.size(), 4);
        QCOMPARE(d.configs.first().compressor, QStringLiteral("FullCache"));
    }

    void accuracyPerSuite()
    {
        // The store's hand run: s0, s1 are niah, s2, s3 qa. Correct (FullCache, SnapKV@0.5,
        // TOVA@0.5, SnapKV@0.75): s0 C C W W, s1 C W W W, s2 W C W W, s3 C W C C.
        const QString file = m_dir.filePath(QStringLiteral("suites.kvl"));
        test::writeHandRun(file, {0, 1, 2, 3});
        const RunViewData d = loadRunViewData({file});
        QCOMPARE(d.suites, (QStringList{"niah", "qa"}));
        QCOMPARE(d.suiteAccuracy.size(), 2);
        const AccuracyData& niah = d.suiteAccuracy[0];
        QCOMPARE(niah.fullCacheAccuracy, 1.0);
        QCOMPARE(niah.curves[0].compressor, QStringLiteral("SnapKV"));
        compareVectors(niah.curves[0].accuracy, {0.5, 0.0});
        compareVectors(niah.curves[1].accuracy, {0.0});
        const AccuracyData& qa = d.suiteAccuracy[1];
        QCOMPARE(qa.fullCacheAccuracy, 0.5);
        compareVectors(qa.curves[0].accuracy, {0.5, 0.5});
        compareVectors(qa.curves[1].accuracy, {0.5});
        // Pooled over both: FullCache 3/4, as before.
        QCOMPARE(d.accuracy.fullCacheAccuracy, 0.75);
    }

    void accuracy()
    {
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.accuracy.fullCacheAccuracy, 0.75);
        QCOMPARE(d.accuracy.curves.size(), 2);
        QCOMPARE(d.accuracy.curves[0].compressor, QStringLiteral("SnapKV"));
        compareVectors(d.accuracy.curves[0].ratios, {0.5, 0.75});
        compareVectors(d.accuracy.curves[0].accuracy, {0.5, 0.25});
        QCOMPARE(d.accuracy.curves[1].compressor, QStringLiteral("TOVA"));
        compareVectors(d.accuracy.curves[1].accuracy, {0.25});
    }

    void ratesCarryNAndWilsonIntervals()
    {
        // Wilson 95% intervals, hand-worked (z²/n = 0.9604 for n = 4, 1.9208 for n = 2):
        // 2/4 → 0.5 ± 0.3500; 1/4 → centre 0.3725, half 0.3269; 3/4 mirrors 1/4;
        // 1/2 → 0.5 ± 0.4055; 2/2 → centre 0.6712, half 0.3288 (upper end 1).
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.accuracy.fullCacheN, 4);
        QCOMPARE(d.accuracy.fullCacheCorrect, 3);
        QVERIFY(std::abs(d.accuracy.fullCacheLo - 0.3006) < 1e-4);
        QVERIFY(std::abs(d.accuracy.fullCacheHi - 0.9544) < 1e-4);
        const AccuracyCurve& snap = d.accuracy.curves[0];
        QCOMPARE(snap.n, (QVector<int>{4, 4}));
        QCOMPARE(snap.correct, (QVector<qint64>{2, 1}));
        compareVectors(snap.lo, {0.1500, 0.0456}, 1e-3);
        compareVectors(snap.hi, {0.8500, 0.6994}, 1e-3);
        // Per suite too: the niah half of the store's hand run (s0, s1) has n = 2.
        const QString file = m_dir.filePath(QStringLiteral("suites-n.kvl"));
        test::writeHandRun(file, {0, 1, 2, 3});
        const RunViewData suites = loadRunViewData({file});
        QCOMPARE(suites.suiteAccuracy[0].curves[0].n, (QVector<int>{2, 2}));
        QCOMPARE(suites.suiteAccuracy[0].fullCacheN, 2);

        // Leakage: FullCache 1 of 2 leaks, SnapKV@0.5 2 of 2.
        QCOMPARE(d.leakage.referenceN, 2);
        QVERIFY(std::abs(d.leakage.referenceLo - 0.0945) < 1e-4);
        QVERIFY(std::abs(d.leakage.referenceHi - 0.9055) < 1e-4);
        QCOMPARE(d.leakage.curves[0].n, QVector<int>{2});
        QCOMPARE(d.leakage.curves[0].successes, QVector<qint64>{2});
        compareVectors(d.leakage.curves[0].lo, {0.3424}, 1e-3);
        compareVectors(d.leakage.curves[0].hi, {1.0});

        // Repairs: boost 1 of 2, sham 0 of 2 (upper end (z²/n)/(1 + z²/n) = 0.6576).
        QCOMPARE(d.interventions.curves[0].n, QVector<int>{2});
        compareVectors(d.interventions.curves[0].lo, {0.0945}, 1e-3);
        compareVectors(d.interventions.curves[1].lo, {0.0});
        compareVectors(d.interventions.curves[1].hi, {0.6576}, 1e-3);

        // Span keep is a mean, not a count: mean ± 1.96 · sd / √n. SnapKV@0.5 keeps 0.2
        // and 0.6 (sd √0.08): 0.4 ± 0.3920; @0.75 one row, no interval.
        const RatioCurve& keep = d.spanKeep.curves[0];
        QCOMPARE(keep.n, (QVector<int>{2, 1}));
        compareVectors(keep.lo, {0.0080, kNaN}, 1e-3);
        compareVectors(keep.hi, {0.7920, kNaN}, 1e-3);
        QCOMPARE(keep.styleIndex, 0);
    }

    void failureSets()
    {
        // At 0.5 SnapKV fails {s1, s3}, TOVA {s0, s1}: SnapKV only {s3}, TOVA only {s0},
        // both {s1}; ties in count keep one-member columns first.
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.failureSets.size(), 1);
        const FailureSets& f = d.failureSets[0];
        QCOMPARE(f.ratio, 0.5);
        QCOMPARE(f.names, (QStringList{"SnapKV", "TOVA"}));
        QCOMPARE(f.setSizes, (QVector<int>{2, 2}));
        QCOMPARE(f.intersections.size(), 3);
        QCOMPARE(f.intersections[0].members, QVector<int>{0});
        QCOMPARE(f.intersections[1].members, QVector<int>{1});
        QCOMPARE(f.intersections[2].members, (QVector<int>{0, 1}));
        for (const FailureIntersection& i : f.intersections)
            QCOMPARE(i.count, 1);
        QCOMPARE(d.overlap.ratio, 0.5);
    }

    void taxonomy()
    {
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.taxonomy.signatures,
                 (QStringList{"low_mapped_coverage", "partial_mapped_coverage",
                              "high_mapped_coverage_likelihood_drift"}));
        QCOMPARE(d.taxonomy.bars.size(), 3);
        QCOMPARE(d.taxonomy.bars[0].compressor, QStringLiteral("SnapKV"));
        QCOMPARE(d.taxonomy.bars[0].ratio, 0.5);
        QCOMPARE(d.taxonomy.bars[0].counts, (QVector<int>{1, 1, 0}));
        QCOMPARE(d.taxonomy.bars[1].ratio, 0.75);
        QCOMPARE(d.taxonomy.bars[1].counts, (QVector<int>{2, 0, 0}));
        QCOMPARE(d.taxonomy.bars[2].compressor, QStringLiteral("TOVA"));
        QCOMPARE(d.taxonomy.bars[2].counts, (QVector<int>{1, 0, 1}));
    }

    void overlap()
    {
        const RunViewData d = loadRunViewData({m_path});
        // 0.75 has one compressor only: nothing to overlap.
        QCOMPARE(d.overlapRatios, QVector<double>{0.5});
        const OverlapMatrix& m = d.overlap;
        QCOMPARE(m.names, (QStringList{"SnapKV", "TOVA"}));
        const int st = m.index(0, 1), ts = m.index(1, 0);
        QCOMPARE(m.both[st], 1);
        QCOMPARE(m.aOnly[st], 1);
        QCOMPARE(m.bOnly[st], 1);
        QVERIFY(std::abs(m.jaccard[st] - 1.0 / 3.0) < 1e-9);
        QCOMPARE(m.jaccard[ts], m.jaccard[st]);
        QCOMPARE(m.both[m.index(0, 0)], 2); // SnapKV's own C→W rows
        QCOMPARE(m.jaccard[m.index(1, 1)], 1.0);
    }

    void defaultFocusAndDetails()
    {
        const RunViewData d = loadRunViewData({m_path});
        // Every compressed configuration has 2 C→W rows: the first in order wins.
        QCOMPARE(d.focus.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(d.focus.ratio, 0.5);
        // Heatmap: the first C→W row with attention, s1.
        QCOMPARE(d.sampleKey, QStringLiteral("s1"));
        QCOMPARE(d.heatmap.rows, 2);
        QCOMPARE(d.heatmap.cols, 5);
        compareVectors(d.heatmap.values,
                       {0.01, 0.02, 0.03, 0.04, 0.05, 0.11, 0.12, 0.13, 0.14, 0.15}, kHalf);
        QCOMPARE(d.heatmap.evicted, (QVector<bool>{true, false, false, false, false, false, false,
                                                   false, false, false}));
        QCOMPARE(d.heatmap.evidence.size(), 1);
        QCOMPARE(d.heatmap.evidence[0].begin, 1);
        QCOMPARE(d.heatmap.evidence[0].end, 3);
        compareVectors(d.referenceHeatmap.values, QVector<double>(10, 0.2), kHalf);
        QVERIFY(d.referenceHeatmap.evicted.isEmpty());
        // Eviction map: mean of s0 (4 positions) and s1 (5); position 4 is s1's alone.
        QVERIFY(d.evictionAveraged);
        QCOMPARE(d.eviction.layers, 2);
        QCOMPARE(d.eviction.positions, 5);
        compareVectors(d.eviction.keep, {0.5, 1, 1, 0.75, 1, 1, 1, 0.5, 0.75, 1});
        QCOMPARE(d.eviction.spans.size(), 1); // spans of s0, the first sample with a mask
        QCOMPARE(d.eviction.spans[0].role, QStringLiteral("system"));
        QCOMPARE(d.eviction.spans[0].label, QStringLiteral("rules"));
        // GER of the focus compressor, one series per ratio.
        QCOMPARE(d.ger.series.size(), 2);
        QCOMPARE(d.ger.series[0].label, QStringLiteral("SnapKV @ 0.5"));
        compareVectors(d.ger.series[0].ger, {0.4, 0.4});
        compareVectors(d.ger.series[0].consensus, {0.75, kNaN});
        compareVectors(d.ger.series[1].ger, {1.0});
    }

    void instructionAndInterventionCurves()
    {
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.spanKeep.curves.size(), 1);
        QCOMPARE(d.spanKeep.curves[0].name, QStringLiteral("SnapKV · instruction #0"));
        compareVectors(d.spanKeep.curves[0].ratios, {0.5, 0.75});
        compareVectors(d.spanKeep.curves[0].values, {0.4, 0.1});
        QVERIFY(!d.spanKeep.curves[0].dashed);

        QCOMPARE(d.leakage.reference, 0.5);
        QCOMPARE(d.leakage.curves.size(), 1);
        QCOMPARE(d.leakage.curves[0].name, QStringLiteral("SnapKV"));
        compareVectors(d.leakage.curves[0].ratios, {0.5});
        compareVectors(d.leakage.curves[0].values, {1.0});

        QCOMPARE(d.interventions.curves.size(), 2);
        QCOMPARE(d.interventions.curves[0].name, QStringLiteral("TOVA · boost"));
        compareVectors(d.interventions.curves[0].values, {0.5});
        QCOMPARE(d.interventions.curves[1].name, QStringLiteral("TOVA · sham"));
        compareVectors(d.interventions.curves[1].values, {0.0});
        QVERIFY(d.interventions.curves[1].dashed);
        QCOMPARE(d.interventions.curves[0].colorIndex, d.interventions.curves[1].colorIndex);
    }

    void chosenSampleAndConfiguration()
    {
        const RunViewData d = loadRunViewData({m_path, QStringLiteral("SnapKV"), 0.5, "s0"});
        QVERIFY(!d.evictionAveraged);
        QCOMPARE(d.eviction.positions, 4);
        compareVectors(d.eviction.keep, {1, 1, 1, 0.5, 1, 1, 0, 1});
        QVERIFY(d.heatmap.isEmpty()); // s0 has no attention stored
        const RunViewData t = loadRunViewData({m_path, QStringLiteral("TOVA"), 0.5, {}});
        QCOMPARE(t.focus.compressor, QStringLiteral("TOVA"));
        QVERIFY(t.eviction.isEmpty());
        QVERIFY(t.ger.isEmpty());
    }

    void cToCRowDrawsWhatIsStored()
    {
        // s3 under SnapKV@0.75 is C→C: the run stores FullCache's attention and the mask,
        // not the compressor's own attention. Nothing is blank: FullCache is drawn, and
        // the compressed panel shows FullCache's attention with the evictions greyed.
        const RunViewData d = loadRunViewData({m_path, QStringLiteral("SnapKV"), 0.75, "s3"});
        QCOMPARE(d.sampleKey, QStringLiteral("s3"));
        QCOMPARE(d.referenceHeatmap.cols, 4);
        compareVectors(d.referenceHeatmap.values, QVector<double>(8, 0.1), kHalf);
        QVERIFY(d.referenceMissing.isEmpty());
        QVERIFY(d.heatmapStandIn);
        compareVectors(d.heatmap.values, QVector<double>(8, 0.1), kHalf);
        // Layer 0 loses position 1 in both kv-heads; layer 1 keeps everything.
        QCOMPARE(d.heatmap.evicted,
                 (QVector<bool>{false, true, false, false, false, false, false, false}));
        QVERIFY2(d.heatmapMissing.contains(QStringLiteral("C->C")) &&
                     d.heatmapMissing.contains(QStringLiteral("--store-attention all")) &&
                     d.heatmapMissing.contains(QStringLiteral("rows answered wrong")),
                 qPrintable(d.heatmapMissing));
        QVERIFY(d.heatmapProvenance.note.contains(QStringLiteral("evicted by SnapKV @ 0.75")));
        // The eviction map of that one sample, with its span.
        QVERIFY(!d.evictionAveraged);
        QCOMPARE(d.eviction.spans.size(), 1);
        QVERIFY(d.evictionMissing.isEmpty());

        const SampleDetail s = loadSampleDetail(m_path, "s3", "SnapKV", 0.75);
        QVERIFY(s.heatmapStandIn);
        QCOMPARE(s.heatmap.evicted, d.heatmap.evicted);
        QCOMPARE(s.referenceHeatmap.cols, 4);
        QVERIFY(s.heatmapMissing.contains(QStringLiteral("C->C")));
    }

    void averagedEvictionMapTakesSpansOfASampleWithSpans()
    {
        // SnapKV@0.75 masks: s2 first, without spans; s3 with its "fmt" span.
        const RunViewData d = loadRunViewData({m_path, QStringLiteral("SnapKV"), 0.75, {}});
        QVERIFY(d.evictionAveraged);
        QCOMPARE(d.evictionSamples, 2);
        QCOMPARE(d.eviction.spans.size(), 1);
        QCOMPARE(d.eviction.spans[0].label, QStringLiteral("fmt"));
        // Layer 0: t0 kept by 1/2 (s2) and 2/2 (s3) → 0.75; t1 by 2/2 and 0/2 → 0.5.
        compareVectors(d.eviction.keep, {0.75, 0.5, 1, 1, 1, 1, 1, 1});
        QVERIFY(d.evictionProvenance.note.contains(QStringLiteral("spans of sample s3")));
        QVERIFY(d.eviction.tokens.isEmpty()); // a mean over samples has no one text
    }

    void missingDetailsAreNamed()
    {
        // TOVA@0.5 stores neither attention nor masks.
        const RunViewData t = loadRunViewData({m_path, QStringLiteral("TOVA"), 0.5, {}});
        QVERIFY(t.heatmap.isEmpty());
        QVERIFY2(t.heatmapMissing.contains(QStringLiteral("No row of TOVA @ 0.5 stores")),
                 qPrintable(t.heatmapMissing));
        QVERIFY2(t.evictionMissing.contains(QStringLiteral("No kept mask is stored for any row")),
                 qPrintable(t.evictionMissing));
        // Token text reaches the heatmaps of a sample that stored its context.
        const RunViewData d = loadRunViewData({m_path, QStringLiteral("SnapKV"), 0.5, "s1"});
        QCOMPARE(d.heatmap.tokens, (QStringList{"ab", "cd", "ef", "gh", "ij"}));
        QCOMPARE(d.referenceHeatmap.tokens, d.heatmap.tokens);
        QCOMPARE(d.eviction.tokens, d.heatmap.tokens);
    }

    void sampleDetail()
    {
        const SampleDetail d = loadSampleDetail(m_path, "s1", "SnapKV", 0.5);
        QVERIFY(d.found);
        QCOMPARE(d.result.answer, QStringLiteral("wrong"));
        QCOMPARE(d.sample.gold, QStringLiteral("gold1"));
        QCOMPARE(d.referenceAnswer, QStringLiteral("gold1"));
        QCOMPARE(d.referenceCorrect, std::optional<bool>(true));
        QCOMPARE(d.result.signature, std::optional<Signature>(Signature::LowMappedCoverage));
        QCOMPARE(d.result.metrics.ecovSlot, std::optional<double>(0.2));
        // Kept by 2, 4, 4, 3, 4 of the 4 (layer, head) slots.
        compareVectors(d.tokenKeep, {0.5, 1, 1, 0.75, 1});
        QCOMPARE(d.context, QStringLiteral("ab cd ef gh ij"));
        QCOMPARE(d.tokenOffsets.size(), 5);
        QCOMPARE(d.heatmap.rows, 2);
        QCOMPARE(d.referenceHeatmap.rows, 2);
        QVERIFY(!loadSampleDetail(m_path, "nope", "SnapKV", 0.5).found);
    }

    void drillDownRows()
    {
        const QVector<ResultRow> tax = taxonomyRows(m_path, "TOVA", 0.5, "low_mapped_coverage");
        QCOMPARE(tax.size(), 1);
        QCOMPARE(tax[0].result.sampleKey, QStringLiteral("s0"));
        QCOMPARE(taxonomyRows(m_path, "SnapKV", 0.75, "low_mapped_coverage").size(), 2);

        const QVector<ResultRow> ov = overlapRows(m_path, 0.5, "SnapKV", "TOVA");
        QCOMPARE(ov.size(), 4);
        QCOMPARE(ov[0].result.sampleKey, QStringLiteral("s3"));
        QCOMPARE(ov[0].result.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(ov[0].group, QStringLiteral("SnapKV only"));
        QCOMPARE(ov[1].result.sampleKey, QStringLiteral("s0"));
        QCOMPARE(ov[1].group, QStringLiteral("TOVA only"));
        QCOMPARE(ov[2].group, QStringLiteral("both"));
        QCOMPARE(ov[2].result.sampleKey, QStringLiteral("s1"));
        QCOMPARE(ov[3].result.sampleKey, QStringLiteral("s1"));

        // UpSet columns: failed by exactly these compressors.
        const QVector<ResultRow> both = intersectionRows(m_path, 0.5, {"SnapKV", "TOVA"}, {});
        QCOMPARE(both.size(), 2);
        for (const ResultRow& row : both) {
            QCOMPARE(row.result.sampleKey, QStringLiteral("s1"));
            QCOMPARE(row.group, QStringLiteral("SnapKV & TOVA"));
        }
        const QVector<ResultRow> snapOnly = intersectionRows(m_path, 0.5, {"SnapKV"}, {"TOVA"});
        QCOMPARE(snapOnly.size(), 1);
        QCOMPARE(snapOnly[0].result.sampleKey, QStringLiteral("s3"));
        QCOMPARE(snapOnly[0].result.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(snapOnly[0].gold, QStringLiteral("gold3")); // looked up like every drill-down
        QVERIFY(intersectionRows(m_path, 0.5, {}, {"TOVA"}).isEmpty());
    }

    void chainBreaks()
    {
        // The hand run has no multihop rows: the chain-break view stays empty.
        QVERIFY(loadRunViewData({m_path}).chainBreaks.isEmpty());

        const QString file = m_dir.filePath(QStringLiteral("chains.kvl"));
        guitest::writeChainRun(file);
        const TaxonomyCounts t = loadRunViewData({file}).chainBreaks;
        QCOMPARE(t.signatures,
                 (QStringList{"chain_start", "chain_link_1", "chain_link_2", "chain_value"}));
        QCOMPARE(t.bars.size(), 3); // SnapKV 0.5, SnapKV 0.75, TOVA 0.5
        QCOMPARE(t.bars[0].compressor, QStringLiteral("SnapKV"));
        QCOMPARE(t.bars[0].counts, (QVector<int>{1, 0, 1, 0}));
        QCOMPARE(t.bars[1].ratio, 0.75);
        QCOMPARE(t.bars[1].counts, (QVector<int>{0, 1, 0, 0}));
        QCOMPARE(t.bars[2].compressor, QStringLiteral("TOVA"));
        QCOMPARE(t.bars[2].counts, (QVector<int>{0, 1, 0, 1}));

        const QVector<ResultRow> value = chainBreakRows(file, "TOVA", 0.5, "chain_value");
        QCOMPARE(value.size(), 1);
        QCOMPARE(value[0].result.sampleKey, QStringLiteral("s1"));
        QCOMPARE(value[0].gold, QStringLiteral("Hotel = Sierra = Charlie = 2025"));
        const QVector<ResultRow> link = chainBreakRows(file, "SnapKV", 0.75, "chain_link_1");
        QCOMPARE(link.size(), 1);
        QCOMPARE(link[0].result.sampleKey, QStringLiteral("s1"));
        QVERIFY(chainBreakRows(file, "SnapKV", 0.75, "chain_start").isEmpty());
    }

    void rowsModel()
    {
        ResultRowsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(overlapRows(m_path, 0.5, "SnapKV", "TOVA"));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(ResultRowsModel::ColumnCount));
        QCOMPARE(model.index(0, ResultRowsModel::SampleColumn).data().toString(),
                 QStringLiteral("s3"));
        QCOMPARE(model.index(0, ResultRowsModel::ConfigColumn).data().toString(),
                 QStringLiteral("SnapKV @ 0.5"));
        QCOMPARE(model.index(0, ResultRowsModel::TransitionColumn).data().toString(),
                 QStringLiteral("C->W"));
        QCOMPARE(model.index(0, ResultRowsModel::EcovColumn).data(ResultRowsModel::SortRole),
                 QVariant(0.7));
        QCOMPARE(model.index(1, ResultRowsModel::GroupColumn).data().toString(),
                 QStringLiteral("TOVA only"));
        // The gold beside the answer: s3's, then s0's.
        QCOMPARE(model.index(0, ResultRowsModel::GoldColumn).data().toString(),
                 QStringLiteral("gold3"));
        QCOMPARE(model.index(1, ResultRowsModel::GoldColumn).data().toString(),
                 QStringLiteral("gold0"));
        // FullCache's answer beside the compressed one: s3 and s0 are right under FullCache.
        QCOMPARE(model.index(0, ResultRowsModel::AnswerColumn).data().toString(),
                 QStringLiteral("wrong"));
        QCOMPARE(model.index(0, ResultRowsModel::FullCacheAnswerColumn).data().toString(),
                 QStringLiteral("gold3"));
        QCOMPARE(model.index(1, ResultRowsModel::FullCacheAnswerColumn).data().toString(),
                 QStringLiteral("gold0"));
        model.setRows(taxonomyRows(m_path, "SnapKV", 0.75, "low_mapped_coverage"));
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void damagedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("text") << QByteArray("this is not a run file\n");
        QTest::newRow("sqlite header, garbage pages")
            << QByteArray("SQLite format 3\0", 16) + QByteArray(4096, '\x5a');
        QTest::newRow("empty") << QByteArray();
    }
    void damagedFiles()
    {
        QFETCH(QByteArray, bytes);
        const QString path = m_dir.filePath(QStringLiteral("damaged.kvl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        try {
            loadRunViewData({path});
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("damaged.kvl")), qPrintable(e.message()));
        }
    }

    void keepAccumulatorIgnoresOtherModels()
    {
        KeepAccumulator acc;
        acc.add(KeptMask(2, 1, 3, true));
        acc.add(KeptMask(3, 1, 3, false)); // another layer count: not averaged in
        QCOMPARE(acc.samples(), 1);
        compareVectors(acc.result().keep, QVector<double>(6, 1.0));
    }
};

QTEST_GUILESS_MAIN(TstStoreRunLoader)
#include "tst_storerunloader.moc"
