// The Compare tab over two hand-made runs (comparefixtures.h): the Samples page
// shows a sample of another run only when that run holds the same content (whatever
// its id) and refuses a mismatched one, and compares two samples under one
// configuration; the Runs page says how many samples matched,
// names the rest, overlays both runs' accuracy over the matched samples and lists
// the deltas (exported with the '#' provenance lines).
#include "comparefixtures.h"
#include "comparepanel.h"
#include "mainwindow.h"
#include "offscreentestmain.h"
#include "runcomparepanel.h"
#include "storerunloader.h"
#include "views/accuracydeltamodel.h"
#include "views/heatmapview.h"
#include "views/ratiocurvesview.h"
#include "windowpages.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>

using namespace kvl;

class TstRunComparePanels : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString m_a, m_b;

  private slots:
    void initTestCase()
    {
        m_a = m_dir.filePath(QStringLiteral("run-a.kvl"));
        m_b = m_dir.filePath(QStringLiteral("run-b.kvl"));
        test::writeComparedRuns(m_a, m_b);
    }

    void samplesPageRefusesMismatchedSample()
    {
        ComparePanel panel;
        const ConfigChoice full{QStringLiteral("FullCache"), 0.0};
        const ConfigChoice snap{QStringLiteral("SnapKV"), 0.5};
        panel.setChoices({{m_a, QStringLiteral("run-a"), full},
                          {m_a, QStringLiteral("run-a"), snap},
                          {m_b, QStringLiteral("run-b"), snap}});
        panel.pick(0, 0);
        panel.pick(1, 1);
        QSignalSpy shown(&panel, &ComparePanel::detailsAvailable);
        panel.pick(2, 2);
        panel.setSample(QStringLiteral("p1"), m_a);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && panel.slotSample(0) == "p1", 5000);
        // p1 of B is another sample ('Zoe Hart'): never shown beside A's p1.
        QCOMPARE(panel.slotSample(1), QStringLiteral("p1"));
        QCOMPARE(panel.slotSample(2), QString());
        QVERIFY2(panel.caption(2).contains(QLatin1String("not compared")),
                 qPrintable(panel.caption(2)));
        QVERIFY2(panel.caption(2).contains(QLatin1String("'Zoe Pike' vs 'Zoe Hart'")),
                 qPrintable(panel.caption(2)));
        QVERIFY(!panel.caption(2).contains(QLatin1String("answer Zoe Hart")));
        QVERIFY(!panel.heatmap(2)->hasData());
        QVERIFY2(panel.heatmap(2)->emptyHint().contains(QLatin1String("not compared")),
                 qPrintable(panel.heatmap(2)->emptyHint()));
        QVERIFY2(panel.matchSummary().contains(QLatin1String("2 matched by content")),
                 qPrintable(panel.matchSummary()));
        QVERIFY(panel.matchSummary().contains(QLatin1String("1 mismatched")));

        // A's p2 is B's x2: shown under B's id, with B's row (SnapKV wrong there).
        shown.clear();
        panel.setSample(QStringLiteral("p2"), m_a);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && panel.slotSample(2) == "x2", 5000);
        QVERIFY2(panel.caption(2).contains(QLatin1String("x2 (same content as p2)")),
                 qPrintable(panel.caption(2)));
        QVERIFY(panel.caption(2).contains(QLatin1String("(wrong)")));
        QVERIFY(panel.caption(1).contains(QLatin1String("answer Ann (correct)")));

        // Only in A: refused too.
        shown.clear();
        panel.setSample(QStringLiteral("p3"), m_a);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && panel.slotSample(0) == "p3", 5000);
        QCOMPARE(panel.slotSample(2), QString());
        QVERIFY2(panel.caption(2).contains(QLatin1String("holds no sample with the same content")),
                 qPrintable(panel.caption(2)));
    }

    void samplesPageComparesTwoSamples()
    {
        // A and B on one configuration, each on a sample of its own; the reference
        // follows the toolbar's sample. A panel's own sample is shown under its own id,
        // even on another run (no content matching: the user chose it).
        ComparePanel panel;
        const ConfigChoice full{QStringLiteral("FullCache"), 0.0};
        const ConfigChoice snap{QStringLiteral("SnapKV"), 0.5};
        const QHash<QString, QStringList> keys{
            {m_a, {QStringLiteral("p1"), QStringLiteral("p2"), QStringLiteral("p3")}},
            {m_b, {QStringLiteral("p1"), QStringLiteral("x2")}}};
        panel.setChoices({{m_a, QStringLiteral("run-a"), full},
                          {m_a, QStringLiteral("run-a"), snap},
                          {m_b, QStringLiteral("run-b"), snap}},
                         keys);
        panel.pick(0, 0);
        panel.pick(1, 1);
        panel.pick(2, 1);
        QCOMPARE(panel.pickedSample(1), QString());
        panel.pickSample(1, QStringLiteral("p1"));
        QSignalSpy shown(&panel, &ComparePanel::detailsAvailable);
        panel.pickSample(2, QStringLiteral("p2"));
        panel.setSample(QStringLiteral("p3"), m_a);
        QTRY_VERIFY_WITH_TIMEOUT(
            !shown.isEmpty() && panel.slotSample(0) == "p3" && panel.slotSample(2) == "p2", 5000);
        QCOMPARE(panel.slotSample(1), QStringLiteral("p1"));
        // p1 under SnapKV is wrong in run A, p2 right: both named with their sample.
        QVERIFY2(panel.caption(1).contains(QLatin1String("sample p1")) &&
                     panel.caption(1).contains(QLatin1String("(wrong)")),
                 qPrintable(panel.caption(1)));
        QVERIFY2(panel.caption(2).contains(QLatin1String("sample p2")) &&
                     panel.caption(2).contains(QLatin1String("answer Ann (correct)")),
                 qPrintable(panel.caption(2)));
        QVERIFY(!panel.caption(0).contains(QLatin1String("sample p")));

        // A key its run does not hold changes nothing; B moved to run B offers B's keys.
        panel.pickSample(1, QStringLiteral("x2"));
        QCOMPARE(panel.pickedSample(1), QStringLiteral("p1"));
        shown.clear();
        panel.pick(2, 2);
        QCOMPARE(panel.pickedSample(2), QString()); // p2 is not an id of run B
        panel.pickSample(2, QStringLiteral("p1"));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && panel.slotSample(2) == "p1" &&
                                     panel.caption(2).contains(QLatin1String("Zoe Hart")),
                                 5000);
        // Chosen by id, not refused as the toolbar's p1 of run A would be.
        QVERIFY2(!panel.caption(2).contains(QLatin1String("not compared")),
                 qPrintable(panel.caption(2)));

        // Back to the toolbar's sample: the other run's sample is matched by content again.
        shown.clear();
        panel.pickSample(2, QString());
        panel.setSample(QStringLiteral("p2"), m_a);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && panel.slotSample(2) == "x2", 5000);
    }

    void runsPageComparesMatchedSamples()
    {
        RunComparePanel panel;
        QAbstractItemModelTester tester(panel.deltaModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy compared(&panel, &RunComparePanel::comparisonAvailable);
        panel.setRuns({m_a, m_b}, m_a);
        // While the runs are paired the plot says so, not how to open two runs.
        QCOMPARE(panel.curves()->emptyHint(),
                 QStringLiteral("Comparing %1 and %2…")
                     .arg(QFileInfo(m_a).fileName(), QFileInfo(m_b).fileName()));
        QVERIFY(compared.wait(5000));
        QCOMPARE(panel.pathA(), m_a);
        QCOMPARE(panel.pathB(), m_b);
        QVERIFY2(panel.summaryText().contains(QStringLiteral(
                     "2 matched by content (suite, context, question, answer) · 1 mismatched")),
                 qPrintable(panel.summaryText()));
        const QStringList lines = panel.mismatchLines();
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith(QLatin1String("mismatched p1: answer differs ('Zoe Pike' vs "
                                                   "'Zoe Hart')")),
                 qPrintable(lines[0]));
        QCOMPARE(lines[1], QStringLiteral("only in A: p3"));
        QCOMPARE(lines[2], QStringLiteral("only in B: p4"));

        // Hand-computed (comparefixtures.h): FullCache 1/2 vs 2/2, SnapKV 1/2 vs 1/2.
        AccuracyDeltaModel* model = panel.deltaModel();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->table().rows[0].compressor, QStringLiteral("FullCache"));
        QCOMPARE(model->table().rows[0].delta, 0.5);
        QCOMPARE(model->table().rows[0].n, 2);
        QCOMPARE(model->table().rows[1].delta, 0.0);
        QCOMPARE(model->table().rows[2].missingFrom, QStringLiteral("A"));

        // Two curves per compressor with matched rows (FullCache as ratio 0, SnapKV), a
        // line style per run named in the legend.
        RatioCurvesView* curves = panel.curves();
        QVERIFY(curves->hasData());
        QCOMPARE(curves->data().curves.size(), 4);
        QCOMPARE(curves->data().colorNames,
                 (QStringList{QStringLiteral("FullCache"), QStringLiteral("SnapKV")}));
        QCOMPARE(curves->data().styleNames, (QStringList{QStringLiteral("A: run-a (tiny)"),
                                                         QStringLiteral("B: run-b (tiny)")}));
        QCOMPARE(curves->data().curves[3].values, (QVector<double>{0.5}));
        QCOMPARE(curves->data().curves[3].n, (QVector<int>{2}));
        QVERIFY(curves->data().intervalNote.contains(QLatin1String("over the 2 samples")));

        const QString csvPath = m_dir.filePath(QStringLiteral("delta.csv"));
        panel.exportCsv(csvPath);
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.startsWith(QLatin1Char('#')), qPrintable(text));
        QVERIFY(
            text.contains(QLatin1String("# comparison of A: run-a (tiny) and B: run-b (tiny)")));
        QVERIFY(text.contains(QLatin1String("\ncompressor,ratio,accuracy_a,accuracy_b,delta,")));
        QVERIFY(text.contains(QLatin1String("\nFullCache,0,0.5,1,0.5,2,0,1\n")));

        // The same run on both sides: nothing to compare, and the plot says how.
        panel.pick(m_a, m_a);
        QVERIFY(!panel.curves()->hasData());
        QVERIFY2(panel.curves()->emptyHint().startsWith(QLatin1String("Open two runs")),
                 qPrintable(panel.curves()->emptyHint()));
        QCOMPARE(panel.summaryText(), QStringLiteral("Pick two different runs to compare."));
    }

    // Two runs without a shared sample (another length, say) compare unpaired: each
    // configuration's accuracy over its own run's samples, said so everywhere.
    void runsPageComparesUnpairedRuns()
    {
        // Run C: p1 another text under A's id (a mismatch), q2 and q3 new.
        //   FullCache C C W -> 2/3; SnapKV@0.5 C W W -> 1/3; TOVA@0.5 only here (W C C).
        // Run A (comparefixtures.h): FullCache 3/4, SnapKV 2/4.
        const QString c = m_dir.filePath(QStringLiteral("run-c.kvl"));
        test::writeHandRun(c, {test::kCompareFull, test::kCompareSnap, test::kCompareTova},
                           {{QStringLiteral("p1"),
                             QStringLiteral("Max is here"),
                             QStringLiteral("Max"),
                             {true, true, false}},
                            {QStringLiteral("q2"),
                             QStringLiteral("Lea is there"),
                             QStringLiteral("Lea"),
                             {true, false, true}},
                            {QStringLiteral("q3"),
                             QStringLiteral("Tim is near"),
                             QStringLiteral("Tim"),
                             {false, false, true}}});
        RunComparePanel panel;
        QAbstractItemModelTester tester(panel.deltaModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy compared(&panel, &RunComparePanel::comparisonAvailable);
        panel.setRuns({m_a, c}, m_a);
        QVERIFY(compared.wait(5000));
        QVERIFY2(panel.summaryText().contains(QLatin1String("unpaired: the runs share no sample")),
                 qPrintable(panel.summaryText()));
        const AccuracyDeltaTable& table = panel.deltaModel()->table();
        QVERIFY(!table.paired);
        QCOMPARE(table.rows.size(), 3);
        QCOMPARE(table.rows[0].compressor, QStringLiteral("FullCache"));
        QCOMPARE(table.rows[0].n, 4);
        QCOMPARE(table.rows[0].nB, 3);
        QCOMPARE(table.rows[0].accuracyA, 0.75);
        QCOMPARE(table.rows[0].accuracyB, 2.0 / 3.0);
        QCOMPARE(table.rows[0].delta, 2.0 / 3.0 - 0.75);
        QCOMPARE(table.rows[1].compressor, QStringLiteral("SnapKV"));
        QCOMPARE(table.rows[1].accuracyA, 0.5);
        QCOMPARE(table.rows[1].accuracyB, 1.0 / 3.0);
        QCOMPARE(table.rows[2].compressor, QStringLiteral("TOVA"));
        QCOMPARE(table.rows[2].missingFrom, QStringLiteral("A"));
        QVERIFY(std::isnan(table.rows[2].delta));
        AccuracyDeltaModel* model = panel.deltaModel();
        QCOMPARE(model->data(model->index(0, AccuracyDeltaModel::N)).toString(),
                 QStringLiteral("4 / 3"));
        QCOMPARE(model->data(model->index(0, AccuracyDeltaModel::OnlyA)).toString(),
                 QStringLiteral("—"));
        QVERIFY(model->headerData(AccuracyDeltaModel::Delta, Qt::Horizontal)
                    .toString()
                    .contains(QLatin1String("unpaired")));

        // Both runs drawn, each over its own samples: FullCache and SnapKV in both, TOVA in C.
        RatioCurvesView* curves = panel.curves();
        QVERIFY(curves->hasData());
        QCOMPARE(curves->data().curves.size(), 5);
        QCOMPARE(curves->data().curves[0].n, (QVector<int>{4}));
        QCOMPARE(curves->data().curves[1].n, (QVector<int>{3}));
        QVERIFY2(curves->data().intervalNote.startsWith(QLatin1String("unpaired")),
                 qPrintable(curves->data().intervalNote));

        const QString csvPath = m_dir.filePath(QStringLiteral("unpaired.csv"));
        panel.exportCsv(csvPath);
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(QLatin1String(
                     "\ncompressor,ratio,accuracy_a,accuracy_b,delta_unpaired,n_a,n_b\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("\nSnapKV,0.5,0.5,0.3333")), qPrintable(text));
    }

    void windowFeedsTheRunsPage()
    {
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(m_a);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(runComparePanel(window)->pathB(), QString());
        QVERIFY(runComparePanel(window)->summaryText().contains(QLatin1String("second run")));
        QSignalSpy compared(runComparePanel(window), &RunComparePanel::comparisonAvailable);
        window.openRun(m_b);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!compared.isEmpty(), 5000);
        // A stays the run it was (the first opened); B is the new one.
        QCOMPARE(runComparePanel(window)->pathA(), m_a);
        QCOMPARE(runComparePanel(window)->pathB(), m_b);
        QCOMPARE(runComparePanel(window)->deltaModel()->rowCount(), 3);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstRunComparePanels)
#include "tst_runcomparepanels.moc"
