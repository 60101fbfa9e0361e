// A run imported from elsewhere (kvlens-cli import-run) in the app's view data: the
// fixture release of tests/data/runimport/kvdiagnosis, whose rows hold outcomes and
// diagnostics but no masks, attention or contexts. The views that have data show it;
// those that would need what the source never released say so in place (Compare samples
// included), and the
// figures' provenance names the source.
#include "comparepanel.h"
#include "contexthtml.h"
#include "missingrowstext.h"
#include "sampledetail.h"
#include "sampleinspector.h"
#include "storerunloader.h"

#include "runimport/runimportformats.h"
#include "views/heatmapview.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TestImportedRunViews : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

  private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("release.kvl"));
        writeImportedRun(
            importKvDiagnosisRelease({QStringLiteral(KVLENS_TEST_DATA "/runimport/kvdiagnosis")}),
            m_path, QStringLiteral("test"));
    }

    void viewsWithDataShowIt()
    {
        const RunViewData d = loadRunViewData({m_path});
        QCOMPARE(d.model, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(d.importedFrom, QStringLiteral("KVDiagnosis release"));
        QCOMPARE(d.provenanceModel(),
                 QStringLiteral("Qwen/Qwen3-8B, imported from KVDiagnosis release"));
        QCOMPARE(d.sampleCount, 3);
        // What the copy lacks, for the status line's tool tip.
        QCOMPARE(d.importMissing.size(), 1);
        QVERIFY2(d.importMissing[0].contains(QLatin1String("ruler8k")),
                 qPrintable(d.importMissing[0]));
        QCOMPARE(d.suites, (QStringList{"hotpotqa", "ruler8k"}));
        QVERIFY(!d.accuracy.isEmpty());
        QCOMPARE(d.suiteAccuracy.size(), 2);
        // The diagnosed C->W row's signature reaches the taxonomy.
        QVERIFY(!d.taxonomy.isEmpty());
        QVERIFY(d.taxonomy.signatures.contains(QStringLiteral("low_mapped_coverage")));
        QVERIFY(!d.failureSets.isEmpty());
    }

    void viewsWithoutDataSaySo()
    {
        const RunViewData d = loadRunViewData({m_path, QStringLiteral("snapkv"), 0.75, {}});
        QCOMPARE(d.focus.compressor, QStringLiteral("snapkv"));
        QVERIFY(d.heatmap.values.isEmpty());
        QVERIFY(d.eviction.isEmpty());
        const QString said = QStringLiteral(
            "Imported from KVDiagnosis release: no masks, attention or contexts were released.");
        QCOMPARE(d.heatmapMissing, said);
        QCOMPARE(d.referenceMissing, said);
        QCOMPARE(d.evictionMissing, said);
    }

    // The Sample page: the answers are there, the context and attention are said absent.
    void sampleDetailSaysWhatIsAbsent()
    {
        const SampleDetail d = loadSampleDetail(m_path, QStringLiteral("hotpotqa::hotpotqa_000000"),
                                                QStringLiteral("snapkv"), 0.75);
        QVERIFY(d.found);
        QCOMPARE(d.result.answer, QStringLiteral("Lyon"));
        QCOMPARE(d.referenceAnswer, QStringLiteral("Paris"));
        const QString said = QStringLiteral(
            "Imported from KVDiagnosis release: no masks, attention or contexts were released.");
        QCOMPARE(d.notReleased, said);
        QCOMPARE(d.referenceMissing, said);
        QCOMPARE(d.heatmapMissing, said);
        const QString html = contextHtml(d);
        QVERIFY2(html.contains(QLatin1String("Imported from KVDiagnosis release")),
                 qPrintable(html.left(200)));
    }

    // Compare samples: the answers in the captions, the maps' empty state says why.
    void compareSamplesSaysWhatIsAbsent()
    {
        const QString said = QStringLiteral(
            "Imported from KVDiagnosis release: no masks, attention or contexts were released.");
        ComparePanel panel;
        panel.setIdleHint(said);
        QCOMPARE(panel.heatmap(1)->emptyHint(), said);
        panel.setChoices({{m_path, {}, {QStringLiteral("FullCache"), 0.0}},
                          {m_path, {}, {QStringLiteral("snapkv"), 0.75}},
                          {m_path, {}, {QStringLiteral("snapkv"), 0.75}}});
        QSignalSpy shown(&panel, &ComparePanel::detailsAvailable);
        panel.setSample(QStringLiteral("hotpotqa::hotpotqa_000000"), m_path);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 5000);
        QVERIFY2(panel.caption(1).contains(QLatin1String("answer Lyon")),
                 qPrintable(panel.caption(1)));
        for (int slot = 0; slot < 3; ++slot) {
            QVERIFY(!panel.heatmap(slot)->hasData());
            QCOMPARE(panel.heatmap(slot)->emptyHint(), said);
        }
    }

    // The Sample page before a row is chosen: how to choose one, or on an imported run
    // that its source released no attention (not "no attention stored for this sample").
    void samplePageIdleSaysWhy()
    {
        SampleInspector inspector;
        QVERIFY2(inspector.heatmap()->emptyHint().contains(QLatin1String("Select a row")),
                 qPrintable(inspector.heatmap()->emptyHint()));
        const QString said = QStringLiteral(
            "Imported from KVDiagnosis release: no masks, attention or contexts were released.");
        inspector.setIdleHint(said);
        QCOMPARE(inspector.heatmap()->emptyHint(), said);
        QCOMPARE(inspector.referenceHeatmap()->emptyHint(), said);
    }

    void unsupportedCellsAreNoFailures()
    {
        const RunViewData d = loadRunViewData({m_path});
        const MissingRowsText text = MissingRowsText::of(d.missing);
        QVERIFY2(
            text.summary.contains(QLatin1String("3 cell(s) not run: think @ 0.75 is unsupported")),
            qPrintable(text.summary));
        QVERIFY2(!text.summary.contains(QLatin1String("failed")), qPrintable(text.summary));
        QVERIFY2(text.detail.contains(QLatin1String("N/A: ThinKPress")), qPrintable(text.detail));
    }
};

QTEST_MAIN(TestImportedRunViews)
#include "tst_importedrunviews.moc"
