// The window over real run files: loading off the GUI thread, live refresh as a
// writer adds samples, drill-down from a bar or a cell to rows and a sample,
// the side-by-side comparison, clear errors for damaged files, and the demo.
#include "comparepanel.h"
#include "demorunner.h"
#include "guirunfixture.h"
#include "mainwindow.h"
#include "missingrowstext.h"
#include "offscreentestmain.h"
#include "openruns.h"
#include "overlaplists.h"
#include "resultrowsmodel.h"
#include "rowspanel.h"
#include "runprocess.h"
#include "runwatcher.h"
#include "sampleinspector.h"
#include "selectionbar.h"
#include "startpage.h"
#include "storerunloader.h"
#include "viewnavigator.h"
#include "views/accuracyratioview.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/headselector.h"
#include "views/heatmapview.h"
#include "views/overlapmatrixview.h"
#include "views/taxonomydata.h"
#include "windowpages.h"

#include "store/runreader.h"
#include "store/runwriter.h"
#include "store/sqlitedatabase.h"

#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <cmath>

using namespace kvl;

class TstRunBrowsing : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;

    QString writeRun(const QString& name, const std::vector<int>& samples)
    {
        const QString path = m_dir.filePath(name);
        guitest::writeRun(path, samples);
        return path;
    }
    // A file that is no run file (not SQLite at all).
    QString writeNotARun(const QString& name)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write("not a run file at all") < 0)
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

  private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void opensOffThreadAndLeavesStartPage()
    {
        const QString path = writeRun(QStringLiteral("full.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QVERIFY(window.startPageShown());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QVERIFY(!window.startPageShown());
        QCOMPARE(window.runData().sampleCount, 4);
        QCOMPARE(window.runData().accuracy.fullCacheAccuracy, 0.75);
        // Every view but the chain breaks, which only multihop runs have.
        for (PlotView* v : mainViews(window))
            QVERIFY2(v->hasData() == (v->objectName() != QLatin1String("ChainBreaks")),
                     qPrintable(v->title()));
        QVERIFY(referenceHeatmap(window)->hasData());
        QCOMPARE(window.runWatcher()->path(), path);
        window.closeRun();
        QVERIFY(window.startPageShown());
    }

    void cToCRowShowsFullCacheAndNamesWhatIsMissing()
    {
        // s3 under SnapKV@0.75 is C→C: its own attention is not stored, FullCache's is.
        const QString path = writeRun(QStringLiteral("cc.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        window.session()->setFocusConfiguration(QStringLiteral("SnapKV"), 0.75);
        QVERIFY(loaded.wait(5000));
        window.session()->setFocusSample(QStringLiteral("s3"));
        QVERIFY(loaded.wait(5000));
        HeatmapView* reference = referenceHeatmap(window);
        HeatmapView* heatmap = nullptr;
        for (PlotView* v : mainViews(window))
            if (auto* h = qobject_cast<HeatmapView*>(v))
                heatmap = h;
        QVERIFY(heatmap && heatmap != reference);
        QVERIFY(reference->hasData());
        QVERIFY(heatmap->hasData());
        QVERIFY2(heatmap->title().contains(QStringLiteral("evicted by SnapKV @ 0.75")),
                 qPrintable(heatmap->title()));
        QVERIFY2(heatmap->note().contains(QStringLiteral("C->C")), qPrintable(heatmap->note()));
        QCOMPARE(heatmap->colorRange(), reference->colorRange());
        // The eviction map's title names its configuration and sample.
        PlotView* eviction = nullptr;
        for (PlotView* v : mainViews(window))
            if (qobject_cast<EvictionMapView*>(v))
                eviction = v;
        QVERIFY(eviction);
        QVERIFY2(eviction->title().contains(QStringLiteral("SnapKV @ 0.75 · sample s3")),
                 qPrintable(eviction->title()));
        // No view of an open run says "No run open.".
        for (PlotView* v : window.findChildren<PlotView*>())
            if (!v->hasData())
                QVERIFY2(!v->emptyHint().startsWith(QStringLiteral("No run open")),
                         qPrintable(v->title()));

        // TOVA@0.5 stores no attention and no mask: the views say so, not "No run open.".
        window.session()->setFocusSample({});
        QVERIFY(loaded.wait(5000));
        window.session()->setFocusConfiguration(QStringLiteral("TOVA"), 0.5);
        QVERIFY(loaded.wait(5000));
        QVERIFY(!heatmap->hasData());
        QVERIFY2(heatmap->emptyHint().contains(QStringLiteral("No row of TOVA @ 0.5 stores")),
                 qPrintable(heatmap->emptyHint()));
        QVERIFY2(eviction->emptyHint().contains(QStringLiteral("No kept mask")),
                 qPrintable(eviction->emptyHint()));
        window.closeRun();
        QVERIFY(heatmap->emptyHint().startsWith(QStringLiteral("No run open")));
    }

    void runWithoutSamplesSaysSo()
    {
        // A run cancelled before its first sample: status "running", no sample.
        const QString path = m_dir.filePath(QStringLiteral("empty.kvl"));
        guitest::writeRun(path, {}, QStringLiteral("running"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.runData().sampleCount, 0);
        int empty = 0;
        for (PlotView* v : mainViews(window)) {
            if (v->hasData())
                continue; // (a view may draw the run's configurations without samples)
            ++empty;
            QVERIFY2(v->emptyHint().startsWith(QStringLiteral("No sample in this run yet")),
                     qPrintable(v->title() + QLatin1String(": ") + v->emptyHint()));
        }
        QVERIFY(empty >= 5); // taxonomy, overlap, attention, eviction map, GER at least
        QVERIFY(!referenceHeatmap(window)->hasData());
        QVERIFY(referenceHeatmap(window)->emptyHint().startsWith(QStringLiteral("No sample")));
    }

    void everySampleSkippedSaysWhy()
    {
        // Every sample too long for the model: the run opens, and its views and status
        // line say how many were skipped and the first reason, not "No run open.".
        const QString path = writeRun(QStringLiteral("all-skipped.kvl"), {});
        const QString tooLong =
            QStringLiteral("sample s7 needs 9000 positions; max_position_embeddings is 4096");
        {
            RunWriter writer(path);
            for (const char* key : {"s7", "s8"}) {
                SampleInfo skipped;
                skipped.key = QLatin1String(key);
                skipped.suite = QStringLiteral("niah");
                skipped.meta.insert(QStringLiteral("skipped"), tooLong);
                writer.writeSample(SampleRecord{skipped, {}});
            }
        }
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QVERIFY(!window.startPageShown());
        QTRY_VERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("checking")));
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("2 sample(s) skipped: ") + tooLong),
                 qPrintable(status));
        for (PlotView* v : mainViews(window))
            if (!v->hasData())
                QVERIFY2(v->emptyHint().startsWith(
                             QStringLiteral("No row in this run: the sweep skipped all 2 "
                                            "sample(s).\nFirst reason: ") +
                             tooLong),
                         qPrintable(v->title() + QLatin1String(": ") + v->emptyHint()));
        QVERIFY(!mainViews(window).at(0)->hasData()); // accuracy
    }

    // Rows the sweep could not write (a sample skipped whole, a configuration that failed
    // on one sample) are counted with their reason on the status line, each in its tool
    // tip, so that curves standing on fewer samples than the run holds say why.
    void missingRowsInTheStatusLine()
    {
        const QString path = writeRun(QStringLiteral("missing.kvl"), {0, 1, 2, 3});
        const QString tooLong =
            QStringLiteral("sample s9 needs 5000 positions; max_position_embeddings is 4096");
        {
            RunWriter writer(path);
            SampleInfo skipped;
            skipped.key = QStringLiteral("s9");
            skipped.suite = QStringLiteral("niah");
            skipped.meta.insert(QStringLiteral("skipped"), tooLong);
            writer.writeSample(SampleRecord{skipped, {}});
        }
        QString snapKey;
        for (const ConfigRecord& c : RunReader(path).configs())
            if (c.compressor == QLatin1String("SnapKV") && c.ratio == 0.5)
                snapKey = c.key;
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.exec(QStringLiteral("UPDATE sample SET meta_json = '{\"failed_configs\": {\"%1\": "
                               "\"window 40 is longer than the context\"}}' WHERE sample_key = "
                               "'s2'; DELETE FROM result WHERE sample_id = (SELECT id FROM sample "
                               "WHERE sample_key = 's2') AND config_id = (SELECT id FROM config "
                               "WHERE config_key = '%1')")
                    .arg(snapKey));

        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("checking")));
        const QString status = window.statusBar()->currentMessage();
        for (const QString& part :
             {QStringLiteral("5 sample(s)"), QStringLiteral("1 sample(s) skipped: ") + tooLong,
              QStringLiteral("1 row(s) failed under SnapKV @ 0.5")})
            QVERIFY2(status.contains(part), qPrintable(part + QLatin1String(" not in: ") + status));
        // The Overview's accuracy page says the same over its curves.
        auto* missingLine = pageOf<AccuracyPage>(window)->missingLine();
        QVERIFY(!missingLine->isHidden());
        QVERIFY2(missingLine->text().contains(QStringLiteral("1 sample(s) skipped: ") + tooLong) &&
                     missingLine->text().contains(QStringLiteral("1 row(s) failed")),
                 qPrintable(missingLine->text()));
        const QString tip = window.statusBar()->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("SnapKV @ 0.5: 1 sample(s) without a row: window 40 "
                                             "is longer than the context")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("1 sample(s) skipped under every configuration")),
                 qPrintable(tip));
        window.closeRun();
        QVERIFY(window.statusBar()->toolTip().isEmpty());
        QVERIFY(missingLine->isHidden());

        // Skip reasons name their sample, so they seldom repeat: the line counts them and
        // gives the first; the tool tip lists them.
        const MissingRowsText two = MissingRowsText::of(
            {{QString(), 0.0, QStringLiteral("sample a needs 5000 positions"), 1},
             {QString(), 0.0, QStringLiteral("sample b needs 4200 positions"), 1}});
        QCOMPARE(two.summary, QStringLiteral(" · 2 sample(s) skipped for 2 reasons (the tool tip "
                                             "lists them), the first: sample a needs 5000 "
                                             "positions"));
        QCOMPARE(two.detail.count(QLatin1Char('\n')), 1);

        // A run without missing rows says nothing of them.
        window.openRun(writeRun(QStringLiteral("whole.kvl"), {0, 1}));
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("checking")));
        QVERIFY2(!window.statusBar()->currentMessage().contains(QLatin1String("skipped")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(window.statusBar()->toolTip().isEmpty());
    }

    void sessionReopensRunWithItsFocus()
    {
        const QString path = writeRun(QStringLiteral("session.kvl"), {0, 1, 2, 3});
        const QString sessionPath = m_dir.filePath(QStringLiteral("session.json"));
        SessionState state;
        state.openRuns = {path};
        state.currentRun = path;
        state.selectedCompressor = QStringLiteral("TOVA");
        state.selectedRatio = 0.5;
        state.save(sessionPath);
        // As main() does it: the window restores the session, then gets its loader.
        MainWindow window(sessionPath);
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.setRunStages(storeRunStages());
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.runData().path, path);
        QCOMPARE(window.runData().focus, (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
    }

    void sessionRestoresEverySelection()
    {
        // Every selection made in one window is what the next window shows.
        const QString path = writeRun(QStringLiteral("roundtrip.kvl"), {0, 1, 2, 3});
        SessionState saved;
        QString shownContext;
        {
            MainWindow window;
            window.setRunStages(storeRunStages());
            QSignalSpy loaded(&window, &MainWindow::runLoaded);
            window.openRun(path);
            QVERIFY(loaded.wait(5000));
            window.session()->setFocusConfiguration(QStringLiteral("SnapKV"), 0.5);
            QVERIFY(loaded.wait(5000));
            window.session()->setFocusSample(QStringLiteral("s1"));
            QVERIFY(loaded.wait(5000));
            // A row read whole on the Sample page (TOVA@0.5 of s2), then another page.
            QSignalSpy detail(pageOf<SamplePage>(window), &SamplePage::detailAvailable);
            ResultRow row;
            row.result.sampleKey = QStringLiteral("s2");
            row.result.compressor = QStringLiteral("TOVA");
            row.result.ratio = 0.5;
            window.session()->inspectRow(row);
            QVERIFY(detail.wait(5000));
            shownContext = sampleInspector(window)->contextText();
            QVERIFY(!shownContext.isEmpty());
            // The drill-down moved the focus to the row.
            QTRY_VERIFY_WITH_TIMEOUT(window.runData().focus ==
                                             (ConfigChoice{QStringLiteral("TOVA"), 0.5}) &&
                                         !window.session()->isLoading(),
                                     5000);
            window.session()->setFocusConfiguration(QStringLiteral("SnapKV"), 0.5);
            QVERIFY(loaded.wait(5000));
            window.session()->setFocusSample(QStringLiteral("s1"));
            QVERIFY(loaded.wait(5000));
            window.showPage(pages::Eviction);
            headSelector(window)->setSelection({HeadSelection::Mode::OneHead, 1, 1});
            saved = window.sessionState();
        }
        QCOMPARE(saved.inspectedSample, QStringLiteral("s2"));
        QCOMPARE(saved.inspectedCompressor, QStringLiteral("TOVA"));
        QCOMPARE(saved.inspectedRatio, 0.5);
        QCOMPARE(saved.currentPage, QStringLiteral("eviction"));
        QCOMPARE(saved.selectedCompressor, QStringLiteral("SnapKV"));
        QCOMPARE(saved.selectedRatio, 0.5);
        QCOMPARE(saved.selectedSample, QStringLiteral("s1"));
        QCOMPARE(saved.heads, (HeadSelection{HeadSelection::Mode::OneHead, 1, 1}));

        const QString sessionPath = m_dir.filePath(QStringLiteral("roundtrip.json"));
        saved.save(sessionPath);
        MainWindow window(sessionPath);
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.setRunStages(storeRunStages());
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.currentPage(), pages::Eviction);
        QCOMPARE(window.runData().focus, (ConfigChoice{QStringLiteral("SnapKV"), 0.5}));
        QCOMPARE(window.runData().sampleKey, QStringLiteral("s1"));
        QCOMPARE(headSelector(window)->selection(), saved.heads);
        // The Sample page shows the row it showed, context and all.
        QTRY_COMPARE_WITH_TIMEOUT(sampleInspector(window)->detail().sample.key,
                                  QStringLiteral("s2"), 5000);
        QCOMPARE(sampleInspector(window)->detail().compressor, QStringLiteral("TOVA"));
        QCOMPARE(sampleInspector(window)->contextText(), shownContext);
        const QString title = window.selectionTitle();
        QVERIFY2(title.contains(QStringLiteral("Routing › Eviction map · run: roundtrip.kvl · "
                                               "configuration: SnapKV @ 0.5 · sample: s1 · "
                                               "heads: layer 1, kv-head 1")),
                 qPrintable(title));
        // Saved again unchanged (window geometry aside, which the platform decides).
        SessionState again = window.sessionState();
        again.windowGeometry = saved.windowGeometry;
        again.windowState = saved.windowState;
        QVERIFY(again == saved);
    }

    void liveRefreshPicksUpNewRows()
    {
        const QString path = writeRun(QStringLiteral("live.kvl"), {0, 1});
        MainWindow window;
        window.setRunStages(storeRunStages());
        window.runWatcher()->setInterval(100);
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.runData().sampleCount, 2);
        // s0, s1: SnapKV@0.5 fails s1 only; s3 adds a second C→W row.
        {
            RunWriter w(path);
            w.writeSample(guitest::sample(2));
            w.writeSample(guitest::sample(3));
        }
        // The summary (sample count, accuracy) and the aggregates (taxonomy) arrive as
        // separate stages: wait until every stage of the refresh has landed.
        QTRY_VERIFY_WITH_TIMEOUT(window.runData().sampleCount == 4 &&
                                     !window.session()->isLoading() &&
                                     !window.runData().taxonomy.bars.isEmpty() &&
                                     window.runData().taxonomy.bars[0].counts.size() == 3,
                                 5000);
        QCOMPARE(window.runData().accuracy.fullCacheAccuracy, 0.75);
        QCOMPARE(window.runData().taxonomy.bars[0].counts, (QVector<int>{1, 1, 0}));
    }

    void taxonomyBarToRowsToSample()
    {
        const QString path = writeRun(QStringLiteral("drill.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));

        QSignalSpy rows(&window, &MainWindow::rowsAvailable);
        pageOf<TaxonomyPage>(window)->showRows(
            {QStringLiteral("SnapKV"), 0.75, QStringLiteral("low_mapped_coverage"), 2});
        QVERIFY(rows.wait(5000));
        QCOMPARE(rows.takeFirst().at(0).toInt(), 2);
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 2);

        auto* configCombo = window.findChild<QComboBox*>(QStringLiteral("FocusConfiguration"));
        auto* sampleCombo = window.findChild<QComboBox*>(QStringLiteral("FocusSample"));
        QVERIFY(configCombo && sampleCombo);
        QVERIFY(configCombo->currentText() != QStringLiteral("SnapKV @ 0.75"));
        QSignalSpy detail(pageOf<SamplePage>(window), &SamplePage::detailAvailable);
        window.rowsPanel()->selectRow(1); // s1 under SnapKV@0.75
        QVERIFY(detail.wait(5000));
        QCOMPARE(detail.takeFirst().at(0).toString(), QStringLiteral("s1"));
        QCOMPARE(window.currentPage(), pages::Sample);
        QCOMPARE(window.currentRunPage(), window.page(pages::Sample));
        // The selection line names the inspected row, not the toolbar's focus.
        QVERIFY2(window.selectionTitle().contains(
                     QStringLiteral("configuration: SnapKV @ 0.75 · sample: s1")),
                 qPrintable(window.selectionTitle()));
        const SampleDetail& d = sampleInspector(window)->detail();
        QCOMPARE(d.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(d.ratio, 0.75);
        QCOMPARE(sampleInspector(window)->contextText(), QStringLiteral("ab cd ef gh ij"));
        QVERIFY(sampleInspector(window)->summaryText().contains(QLatin1String("gold1")));
        // FullCache attention of s1 is stored; SnapKV@0.75's is not.
        QVERIFY(sampleInspector(window)->referenceHeatmap()->hasData());
        QVERIFY(!sampleInspector(window)->heatmap()->hasData());
        // The drill-down moved the toolbar's focus to the row: configuration and sample
        // agree with the inspector and the selection line.
        QTRY_COMPARE(configCombo->currentText(), QStringLiteral("SnapKV @ 0.75"));
        QTRY_COMPARE(sampleCombo->currentText(), QStringLiteral("s1"));
        QCOMPARE(window.currentPage(), pages::Sample);
    }

    void accuracyPerSuite()
    {
        // Two suites (storefixtures: s0, s1 niah; s2, s3 qa): the chooser shows, and
        // picking qa draws qa's curves (FullCache 1 of 2) with the suite in provenance.
        const QString path = m_dir.filePath(QStringLiteral("suites.kvl"));
        test::writeHandRun(path, {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        window.show();
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        auto* accuracy = qobject_cast<AccuracyRatioView*>(mainViews(window).at(0));
        QVERIFY(accuracy);
        QCOMPARE(accuracy->data().fullCacheAccuracy, 0.75);
        auto* combo = window.findChild<QComboBox*>(QStringLiteral("AccuracySuite"));
        QVERIFY(combo && combo->isVisible());
        QCOMPARE(combo->count(), 3); // all, niah, qa
        combo->setCurrentIndex(2);
        QCOMPARE(accuracy->data().fullCacheAccuracy, 0.5);
        QVERIFY(accuracy->provenance().note.contains(QLatin1String("qa")));
        QVERIFY(accuracy->title().endsWith(QStringLiteral(" · qa")));
        QCOMPARE(window.sessionState().accuracySuite, QStringLiteral("qa"));
        window.session()->setAccuracySuite({});
        QCOMPARE(accuracy->data().fullCacheAccuracy, 0.75);
        QCOMPARE(combo->currentIndex(), 0);
        QVERIFY(accuracy->provenance().note.isEmpty());
    }

    void chainBreakToRows()
    {
        const QString path = m_dir.filePath(QStringLiteral("chains.kvl"));
        guitest::writeChainRun(path);
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.runData().chainBreaks.bars.size(), 3);

        QSignalSpy rows(&window, &MainWindow::rowsAvailable);
        pageOf<ChainBreaksPage>(window)->showRows(
            {QStringLiteral("SnapKV"), 0.5, QStringLiteral("chain_link_2"), 1});
        QVERIFY(rows.wait(5000));
        QCOMPARE(rows.takeFirst().at(0).toInt(), 1);
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 1);
        QCOMPARE(window.rowsPanel()->model()->index(0, ResultRowsModel::SampleColumn).data(),
                 QVariant(QStringLiteral("s3")));
    }

    void overlapCellToRows()
    {
        const QString path = writeRun(QStringLiteral("overlap.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QSignalSpy rows(&window, &MainWindow::rowsAvailable);
        pageOf<OverlapPage>(window)->showPair(
            {QStringLiteral("SnapKV"), QStringLiteral("TOVA"), 1.0 / 3, 1, 1, 1});
        QVERIFY(rows.wait(5000));
        const ResultRowsModel* model = window.rowsPanel()->model();
        QCOMPARE(model->rowCount(), 4);
        QCOMPARE(model->row(0).group, QStringLiteral("SnapKV only"));
        QCOMPARE(model->row(0).result.sampleKey, QStringLiteral("s3"));
    }

    void overlapPairSideBySide()
    {
        // At 0.5 SnapKV fails {s1, s3}, TOVA {s0, s1} (guirunfixture.h).
        const QString path = writeRun(QStringLiteral("lists.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        OverlapLists* lists = overlapLists(window);
        QSignalSpy listed(lists, &OverlapLists::listsAvailable);
        pageOf<OverlapPage>(window)->showPair(
            {QStringLiteral("SnapKV"), QStringLiteral("TOVA"), 1.0 / 3, 1, 1, 1});
        QVERIFY(listed.wait(5000));
        auto keys = [lists](OverlapLists::List list) {
            QStringList out;
            for (const ResultRow& r : lists->model(list)->rows())
                out << r.result.sampleKey + QLatin1Char(':') + r.result.compressor;
            return out;
        };
        QCOMPARE(keys(OverlapLists::AOnly), QStringList{"s3:SnapKV"});
        QCOMPARE(keys(OverlapLists::Both), (QStringList{"s1:SnapKV", "s1:TOVA"}));
        QCOMPARE(keys(OverlapLists::BOnly), QStringList{"s0:TOVA"});
        QCOMPARE(lists->header(OverlapLists::AOnly), QStringLiteral("SnapKV only: 1 sample(s)"));
        QCOMPARE(lists->header(OverlapLists::Both), QStringLiteral("Both: 1 sample(s)"));
        QVERIFY(lists->title().contains(QLatin1String("ratio 0.5")));
        // A row of a list opens its sample, as the rows panel does.
        QSignalSpy detail(pageOf<SamplePage>(window), &SamplePage::detailAvailable);
        lists->selectRow(OverlapLists::BOnly, 0);
        QVERIFY(detail.wait(5000));
        QCOMPARE(detail.takeFirst().at(0).toString(), QStringLiteral("s0"));
        QCOMPARE(sampleInspector(window)->detail().compressor, QStringLiteral("TOVA"));
    }

    void overlapAndFailureSetsNameTheRatio()
    {
        const QString path = writeRun(QStringLiteral("sets.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        FailureSetsView* sets = failureSetsView(window);
        QVERIFY(sets->hasData());
        QCOMPARE(sets->data().intersections.size(), 3);
        QVERIFY2(sets->title().endsWith(QLatin1String("at ratio 0.5")), qPrintable(sets->title()));
        QCOMPARE(sets->provenance().ratio, 0.5);
        QCOMPARE(sets->provenance().model, QStringLiteral("tiny"));
        QVERIFY(sets->csv().contains(QLatin1String("0.5,intersection,SnapKV & TOVA,1\n")));
        auto* overlap = qobject_cast<OverlapMatrixView*>(mainViews(window).at(3));
        QVERIFY(overlap);
        QVERIFY(overlap->title().endsWith(QLatin1String("at ratio 0.5")));
        QCOMPARE(overlap->provenance().ratio, 0.5);
        QVERIFY(overlap->csv().startsWith(QLatin1String("ratio,a,b,")));
        // The exported CSV starts with its provenance.
        const QString csv = m_dir.filePath(QStringLiteral("sets.csv"));
        sets->exportCsv(csv);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.contains(QStringLiteral("# run: sets · model: tiny · ratio: 0.5\n")),
                 qPrintable(text));
    }

    void accuracyCsvCarriesNAndInterval()
    {
        // SnapKV@0.5: 2 of 4 correct, Wilson 95% [0.1500, 0.8500] (tst_wilsoninterval).
        const QString path = writeRun(QStringLiteral("acc-n.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        auto* accuracy = qobject_cast<AccuracyRatioView*>(mainViews(window).at(0));
        QVERIFY(accuracy);
        const QStringList lines = accuracy->csv().split(QLatin1Char('\n'));
        QCOMPARE(lines[0], QStringLiteral("compressor,ratio,accuracy,n,ci95_low,ci95_high,cliff"));
        QStringList snap;
        for (const QString& line : lines)
            if (line.startsWith(QLatin1String("SnapKV,0.5,")))
                snap = line.split(QLatin1Char(','));
        QCOMPARE(snap.size(), 7);
        QCOMPARE(snap[2], QStringLiteral("0.5"));
        QCOMPARE(snap[3], QStringLiteral("4"));
        QVERIFY(std::abs(snap[4].toDouble() - 0.1500) < 1e-4);
        QVERIFY(std::abs(snap[5].toDouble() - 0.8500) < 1e-4);
        // The ratio axis spans the run's ratios (0.5, 0.75), not 0…1.
        const QCPRange x = accuracy->plot()->axisRects().first()->axis(QCPAxis::atBottom)->range();
        QVERIFY2(x.lower > 0.4 && x.upper < 0.85,
                 qPrintable(QStringLiteral("%1 %2").arg(x.lower).arg(x.upper)));
    }

    void compareSharesTheSample()
    {
        const QString path = writeRun(QStringLiteral("compare.kvl"), {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        QSignalSpy compared(comparePanel(window), &ComparePanel::detailsAvailable);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(compared.count() > 0, 5000);
        ComparePanel* panel = comparePanel(window);
        QCOMPARE(panel->sample(), QStringLiteral("s1"));
        QCOMPARE(panel->picked(0).config.compressor, QStringLiteral("FullCache"));
        QCOMPARE(panel->picked(1).config, (ConfigChoice{QStringLiteral("SnapKV"), 0.5}));
        QCOMPARE(panel->picked(2).config, (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
        QVERIFY(panel->heatmap(0)->hasData());
        QVERIFY(panel->heatmap(1)->hasData());
        QVERIFY(!panel->heatmap(2)->hasData());
        QVERIFY(panel->caption(1).contains(QLatin1String("wrong")));
        // Reference, A and B zoom together on one colour scale.
        QCOMPARE(panel->heatmap(1)->scalePeers().size(), 2);
        QVERIFY(panel->heatmap(2)->scalePeers().contains(panel->heatmap(0)));
    }

    void compareAcrossTwoRuns()
    {
        const QString a = writeRun(QStringLiteral("model-a.kvl"), {0, 1, 2, 3});
        const QString b = writeRun(QStringLiteral("model-b.kvl"), {1});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(a);
        QVERIFY(loaded.wait(5000));
        window.openRun(b);
        QVERIFY(loaded.wait(5000));
        ComparePanel* panel = comparePanel(window);
        // Both runs' configurations are offered, the current run's first, named by run.
        QCOMPARE(panel->picked(0).path, b);
        QCOMPARE(panel->picked(0).runName, QStringLiteral("model-b"));
        QSignalSpy compared(panel, &ComparePanel::detailsAvailable);
        panel->pick(2, 4 + 1); // model-a's SnapKV@0.5 (its configurations follow b's four)
        QVERIFY(compared.wait(5000));
        QCOMPARE(panel->picked(2).path, a);
        QCOMPARE(panel->picked(2).config, (ConfigChoice{QStringLiteral("SnapKV"), 0.5}));
        QVERIFY(panel->heatmap(2)->hasData()); // s1 of model-a has SnapKV attention
    }

    // The Rows dock lists rows of the run shown only: opening another run empties it, so
    // that one run's rows never stand under another's title while a query loads, and
    // going back lists the first run's rows again when asked.
    void rowsDockFollowsTheRunShown()
    {
        const QString a = writeRun(QStringLiteral("rows-a.kvl"), {0, 1, 2, 3});
        const QString b = writeRun(QStringLiteral("rows-b.kvl"), {1});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(a);
        QVERIFY(loaded.wait(5000));
        const TaxonomySelection bar{QStringLiteral("SnapKV"), 0.75,
                                    QStringLiteral("low_mapped_coverage"), 2};
        QSignalSpy rows(&window, &MainWindow::rowsAvailable);
        pageOf<TaxonomyPage>(window)->showRows(bar);
        QVERIFY(rows.wait(5000));
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 2);

        window.openRun(b);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 0);
        QVERIFY2(!window.rowsPanel()->title().contains(QLatin1String("SnapKV")),
                 qPrintable(window.rowsPanel()->title()));

        window.openRun(a);
        QTRY_COMPARE(window.runData().path, a);
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 0);
        pageOf<TaxonomyPage>(window)->showRows(bar);
        QVERIFY(rows.wait(5000));
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 2);
    }

    void damagedFileGivesMessage()
    {
        const QString path = writeNotARun(QStringLiteral("broken.kvl"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy failed(&window, &MainWindow::runLoadFailed);
        window.openRun(path);
        QVERIFY(failed.wait(5000));
        QVERIFY2(window.lastError().contains(QLatin1String("broken.kvl")),
                 qPrintable(window.lastError()));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("OpenRunError"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QLatin1String("broken.kvl")));
        box->close();
        QVERIFY(window.startPageShown());
    }

    // A file refused while another run is shown leaves that run shown, in the pages, the
    // toolbar and the session alike; the refused file is not listed as open.
    void refusedFileKeepsTheRunShown()
    {
        const QString good = writeRun(QStringLiteral("kept.kvl"), {0, 1, 2, 3});
        const QString broken = writeNotARun(QStringLiteral("refused.kvl"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        QSignalSpy failed(&window, &MainWindow::runLoadFailed);
        window.openRun(good);
        QVERIFY(loaded.wait(5000));
        window.session()->setFocusConfiguration(QStringLiteral("TOVA"), 0.5);
        QTRY_COMPARE_WITH_TIMEOUT(window.runData().focus,
                                  (ConfigChoice{QStringLiteral("TOVA"), 0.5}), 5000);
        window.openRun(broken);
        QVERIFY(failed.wait(5000));
        QVERIFY(!window.startPageShown());
        QCOMPARE(window.session()->path(), good);
        QVERIFY(!window.sessions()->find(broken));
        QVERIFY(loaded.wait(5000)); // shown again, at the focus it was left at
        QCOMPARE(window.runData().path, good);
        QCOMPARE(window.runData().focus, (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
        QVERIFY2(window.selectionTitle().contains(QLatin1String("TOVA")),
                 qPrintable(window.selectionTitle()));
        QVERIFY(window.selectionBar()->configurationChooser()->currentText().contains(
            QLatin1String("TOVA")));
        QVERIFY(!window.openRuns().paths().contains(broken));
        window.findChild<QMessageBox*>(QStringLiteral("OpenRunError"))->close();
    }

    // The overview is drawn before the rows' checksums are checked; a row changed after it
    // was written then withdraws every view and refuses the file, naming it, as a refused
    // open does.
    void changedRowWithdrawsTheViews()
    {
        const QString path = writeRun(QStringLiteral("changedrow.kvl"), {0, 1, 2, 3});
        SqliteDatabase(path, SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET correct = 1 - correct WHERE sample_id = "
                                 "(SELECT MIN(sample_id) FROM result) AND config_id = "
                                 "(SELECT MAX(config_id) FROM result)"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy failed(&window, &MainWindow::runLoadFailed);
        window.openRun(path);
        // The run's own session, made by openRun; it delivers from worker threads.
        QSignalSpy summary(window.session(), &RunSession::summaryAvailable);
        QVERIFY(failed.wait(5000));
        QCOMPARE(summary.count(), 1); // drawn first, then withdrawn
        QVERIFY2(window.lastError().contains(path) &&
                     window.lastError().contains(QLatin1String("damaged result row")),
                 qPrintable(window.lastError()));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("OpenRunError"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QLatin1String("changedrow.kvl")));
        box->close();
        QVERIFY(window.startPageShown());
        QVERIFY(window.runData().path.isEmpty());
        for (PlotView* v : mainViews(window))
            QVERIFY2(!v->hasData(), qPrintable(v->title()));
        QVERIFY(window.session()->path().isEmpty());
    }

    void demoOpensAsRowsLand_data()
    {
        QTest::addColumn<QString>("progress");
        // With progress lines the window opens the file on the first; without, it
        // finds the file's first samples by polling, before the child exits.
        QTest::newRow("progress lines")
            << QStringLiteral("echo '{\"done\": 1, \"total\": 2}'\nsleep 2\n"
                              "echo '{\"done\": 2, \"total\": 2}'\n");
        QTest::newRow("no progress lines") << QStringLiteral("sleep 3\n");
    }
    void demoOpensAsRowsLand()
    {
        QFETCH(QString, progress);
        // A stand-in for `kvlens-cli demo --out FILE`: writes the run, maybe reports progress.
        const QString fixture = writeRun(QStringLiteral("demo-src.kvl"), {0, 1, 2, 3});
        const QString script = m_dir.filePath(QStringLiteral("fake-cli.sh"));
        QFile s(script);
        QVERIFY(s.open(QIODevice::WriteOnly | QIODevice::Truncate));
        s.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = demo ] && [ \"$2\" = --out ] || exit 3\n"
                               "cp '%1' \"$3\"\n%2")
                    .arg(fixture, progress)
                    .toUtf8());
        s.close();
        s.setPermissions(s.permissions() | QFile::ExeOwner);
        QFile::remove(DemoRunner::path());

        MainWindow window;
        window.setRunStages(storeRunStages());
        QVERIFY(window.startPage()->demoButton()->isEnabled());
        QSignalSpy finished(window.demo()->process(), &RunProcess::finished);
        window.demo()->start(script);
        QVERIFY(!window.startPage()->demoButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(window.runData().path, DemoRunner::path(), 5000);
        QCOMPARE(finished.count(), 0); // opened while the child still runs
        QVERIFY(!window.startPageShown());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 8000);
        QVERIFY(finished.at(0).at(0).toBool());
        QVERIFY(window.startPage()->demoButton()->isEnabled());
        QCOMPARE(window.runData().sampleCount, 4);
        QFile::remove(DemoRunner::path());
    }

    void demoCancel()
    {
        const QString script = m_dir.filePath(QStringLiteral("slow-cli.sh"));
        QFile s(script);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write("#!/bin/sh\necho '{\"done\": 0, \"total\": 9}'\nexec sleep 30\n");
        s.close();
        s.setPermissions(s.permissions() | QFile::ExeOwner);
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy finished(window.demo()->process(), &RunProcess::finished);
        window.demo()->start(script);
        QTRY_VERIFY_WITH_TIMEOUT(window.startPage()->cancelButton()->isVisibleTo(&window), 2000);
        window.startPage()->cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        QVERIFY(window.startPage()->demoButton()->isEnabled());
        QVERIFY(window.startPageShown());
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstRunBrowsing)
#include "tst_runbrowsing.moc"
