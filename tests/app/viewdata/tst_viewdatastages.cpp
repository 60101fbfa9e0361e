// The stages of a load (summary, aggregates, details, each into its own fields) put
// together give the values the one-shot loadRunViewData gives, for the default focus,
// a chosen sample and a configuration without stored attention or masks.
#include "guirunfixture.h"
#include "storerunloader.h"

#include "store/runreader.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TstViewDataStages : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString m_path;

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("stages.kvl"));
        guitest::writeRun(m_path, {0, 1, 2, 3});
    }

    void stagesEqualOneShot_data()
    {
        QTest::addColumn<QString>("compressor");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<QString>("sample");
        QTest::newRow("default focus") << QString() << -1.0 << QString();
        QTest::newRow("SnapKV 0.75, sample s3")
            << QStringLiteral("SnapKV") << 0.75 << QStringLiteral("s3");
        QTest::newRow("TOVA 0.5, mean") << QStringLiteral("TOVA") << 0.5 << QString();
    }
    void stagesEqualOneShot()
    {
        QFETCH(QString, compressor);
        QFETCH(double, ratio);
        QFETCH(QString, sample);
        const RunRequest request{m_path, compressor, ratio, sample};
        const RunViewData once = loadRunViewData(request);

        RunReader reader(m_path);
        RunViewData summary;
        summary.path = m_path;
        loadRunSummary(reader, summary);
        RunViewData aggregates = summary;
        loadRunAggregates(reader, aggregates);
        RunViewData details = summary;
        loadRunDetails(reader, request, details);
        // Delivered in the order the worker threads may finish: details before aggregates.
        RunViewData staged;
        takeSummary(staged, summary);
        takeDetails(staged, details);
        takeAggregates(staged, aggregates);

        QCOMPARE(staged.sampleCount, once.sampleCount);
        QCOMPARE(staged.resultCount, once.resultCount);
        QCOMPARE(staged.configs, once.configs);
        QCOMPARE(staged.sampleKeys, once.sampleKeys);
        QCOMPARE(staged.suites, once.suites);
        QCOMPARE(staged.accuracy.curves.size(), once.accuracy.curves.size());
        for (qsizetype i = 0; i < once.accuracy.curves.size(); ++i) {
            QCOMPARE(staged.accuracy.curves[i].compressor, once.accuracy.curves[i].compressor);
            QCOMPARE(staged.accuracy.curves[i].n, once.accuracy.curves[i].n);
            QCOMPARE(staged.accuracy.curves[i].correct, once.accuracy.curves[i].correct);
        }
        QCOMPARE(staged.taxonomy.signatures, once.taxonomy.signatures);
        QCOMPARE(staged.taxonomy.bars.size(), once.taxonomy.bars.size());
        QCOMPARE(staged.overlapRatios, once.overlapRatios);
        QCOMPARE(staged.overlapIndex, once.overlapIndex);
        QCOMPARE(staged.overlap.names, once.overlap.names);
        QCOMPARE(staged.overlap.both, once.overlap.both);
        QCOMPARE(staged.spanKeep.curves.size(), once.spanKeep.curves.size());
        QCOMPARE(staged.focus, once.focus);
        QCOMPARE(staged.defaultFocus, once.defaultFocus);
        QCOMPARE(staged.sampleKey, once.sampleKey);
        QCOMPARE(staged.evictionAveraged, once.evictionAveraged);
        QCOMPARE(staged.heatmap.values, once.heatmap.values);
        QCOMPARE(staged.referenceHeatmap.values, once.referenceHeatmap.values);
        QCOMPARE(staged.heatmapMissing, once.heatmapMissing);
        QCOMPARE(staged.referenceMissing, once.referenceMissing);
        QCOMPARE(staged.heatmapStandIn, once.heatmapStandIn);
        QCOMPARE(staged.eviction.keep, once.eviction.keep);
        QCOMPARE(staged.evictionMissing, once.evictionMissing);
        QCOMPARE(staged.evictionSamples, once.evictionSamples);
        QCOMPARE(staged.ger.series.size(), once.ger.series.size());
    }

    // Details read for one focus, then another, keep nothing of the first.
    void detailsReplaceTheFormer()
    {
        RunReader reader(m_path);
        RunViewData data;
        data.path = m_path;
        loadRunSummary(reader, data);
        loadRunDetails(reader, {m_path, QStringLiteral("SnapKV"), 0.75, QStringLiteral("s3")},
                       data);
        QVERIFY(!data.heatmap.isEmpty());
        loadRunDetails(reader, {m_path, QStringLiteral("TOVA"), 0.5, {}}, data);
        const RunViewData fresh = loadRunViewData({m_path, QStringLiteral("TOVA"), 0.5, {}});
        QCOMPARE(data.heatmap.values, fresh.heatmap.values);
        QCOMPARE(data.heatmapMissing, fresh.heatmapMissing);
        QCOMPARE(data.sampleKey, fresh.sampleKey);
    }
};

QTEST_GUILESS_MAIN(TstViewDataStages)
#include "tst_viewdatastages.moc"
