// Main window: empty state without a run, a run's data in every view, the navigator
// reaching every page by mouse and keyboard, the selection line over every page,
// session state saved on close and restored in a new window.
#include "comparepanel.h"
#include "displaymenu.h"
#include "mainwindow.h"
#include "offscreentestmain.h"
#include "rowspanel.h"
#include "runcomparepanel.h"
#include "sampleinspector.h"
#include "sampleviews.h"
#include "viewnavigator.h"
#include "views/headgridview.h"
#include "views/headselector.h"
#include "views/heatmapview.h"
#include "windowpages.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <qcustomplot.h>

using namespace kvl;

namespace {

RunViewData sampleRun()
{
    RunViewData d;
    d.path = QStringLiteral("/runs/tiny.kvl");
    d.runName = QStringLiteral("tiny");
    d.model = QStringLiteral("tiny-model");
    d.accuracy = sample::accuracy();
    d.taxonomy = sample::taxonomy();
    d.chainBreaks.signatures = {QStringLiteral("chain_start"), QStringLiteral("chain_link_1"),
                                QStringLiteral("chain_value")};
    d.chainBreaks.bars = {{QStringLiteral("S"), 0.5, {1, 2, 0}}};
    d.overlap = sample::overlap();
    // The overlap at its one ratio, and the failure sets (UpSet tab) at the same ratio.
    d.overlapRatios = {d.overlap.ratio};
    d.overlaps = {d.overlap};
    d.failureSets = {sample::failureSets()};
    d.overlapIndex = 0;
    d.heatmap = sample::heatmap();
    d.heatmapProvenance.compressor = QStringLiteral("SnapKV");
    d.heatmapProvenance.layer = 3;
    d.focus = {QStringLiteral("SnapKV"), 0.75};
    d.configs = {{QStringLiteral("FullCache"), 0.0}, d.focus};
    d.sampleKey = QStringLiteral("niah-03");
    d.sampleKeys = {QStringLiteral("niah-03"), QStringLiteral("niah-04")};
    d.eviction = sample::eviction();
    d.ger = sample::ger();
    return d;
}

} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT
  private slots:
    void emptyWithoutRun()
    {
        MainWindow window;
        QCOMPARE(mainViews(window).size(), 8);
        for (PlotView* v : mainViews(window)) {
            QVERIFY(!v->hasData());
            QVERIFY(!v->emptyHint().isEmpty());
        }
        QCOMPARE(window.windowTitle(), QStringLiteral("KVLens"));
        // The Rows dock names every kind of click that fills it, UpSet columns included.
        const QString hint = window.rowsPanel()->title();
        for (const char* source :
             {"taxonomy", "chain-break bar", "failure-overlap cell", "failure-set (UpSet) column"})
            QVERIFY2(hint.contains(QLatin1String(source)), qPrintable(hint));
    }

    void showAndCloseRun()
    {
        MainWindow window;
        window.showRun(sampleRun());
        for (PlotView* v : mainViews(window))
            QVERIFY2(v->hasData(), qPrintable(v->title()));
        QVERIFY(window.windowTitle().contains(QLatin1String("tiny")));
        // Provenance: run and model on every view; the heatmap adds its configuration.
        const Provenance p = mainViews(window).at(4)->provenance();
        QCOMPARE(p.run, QStringLiteral("tiny"));
        QCOMPARE(p.model, QStringLiteral("tiny-model"));
        QCOMPARE(p.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(p.layer, 3);
        // GER and consensus are the focus compressor's: its export says so.
        QCOMPARE(mainViews(window).at(6)->provenance().compressor, QStringLiteral("SnapKV"));
        QCOMPARE(window.sessionState().openRuns, QStringList{QStringLiteral("/runs/tiny.kvl")});
        window.closeRun();
        for (PlotView* v : mainViews(window))
            QVERIFY(!v->hasData());
        QVERIFY(window.sessionState().openRuns.isEmpty());
    }

    void failurePagesSayWhenThereIsLittleToDiagnose()
    {
        // FullCache right on 1 of 4: the Failures pages carry the caveat, other pages not.
        MainWindow window;
        RunViewData d = sampleRun();
        d.accuracy.fullCacheAccuracy = 0.25;
        d.accuracy.fullCacheN = 4;
        d.accuracy.fullCacheCorrect = 1;
        window.showRun(d);
        auto* caveat = window.findChild<QLabel*>(QStringLiteral("FailuresCaveat"));
        QVERIFY(caveat);
        window.showPage(pages::Taxonomy);
        QVERIFY(!caveat->isHidden());
        QVERIFY2(caveat->text().startsWith(QLatin1String("FullCache right on 1 of 4:")),
                 qPrintable(caveat->text()));
        window.showPage(pages::Accuracy);
        QVERIFY(caveat->isHidden());
        window.showPage(pages::Overlap);
        QVERIFY(!caveat->isHidden());
        // A run FullCache mostly answers right has no caveat.
        d.accuracy.fullCacheAccuracy = 0.75;
        d.accuracy.fullCacheCorrect = 3;
        window.showRun(d);
        QVERIFY(caveat->isHidden());
        // Per suite: one suite below the threshold is named.
        d.suites = {QStringLiteral("niah"), QStringLiteral("qa")};
        AccuracyData niah = d.accuracy, qa = d.accuracy;
        qa.fullCacheAccuracy = 0.0;
        qa.fullCacheCorrect = 0;
        qa.fullCacheN = 6;
        d.suiteAccuracy = {niah, qa};
        window.showRun(d);
        QVERIFY(!caveat->isHidden());
        QVERIFY2(caveat->text().contains(QLatin1String("0 of 6 (qa)")), qPrintable(caveat->text()));
        QVERIFY(!caveat->text().contains(QLatin1String("niah")));
    }

    void partialRunLeavesOtherViewsEmpty()
    {
        MainWindow window;
        RunViewData d;
        d.path = QStringLiteral("/runs/only-accuracy.kvl");
        d.accuracy = sample::accuracy();
        window.showRun(d);
        QVERIFY(mainViews(window).at(0)->hasData());
        for (int i = 1; i < mainViews(window).size(); ++i)
            QVERIFY(!mainViews(window).at(i)->hasData());
    }

    void sessionSavedOnCloseAndRestored()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("session.json"));
        {
            MainWindow window(path);
            SessionState s;
            s.currentPage = QStringLiteral("failure-sets");
            s.heads = {HeadSelection::Mode::OneHead, 1, 0};
            s.theme = QStringLiteral("dark");
            s.heatmapColorMap = QStringLiteral("cividis");
            s.heatmapLogScale = true;
            s.taxonomyShares = true;
            s.overlapA = QStringLiteral("B");
            s.overlapB = QStringLiteral("A");
            s.openRuns = {QStringLiteral("/runs/not-here.kvl")};
            window.applySessionState(s);
            window.close();
        }
        QVERIFY(QFile::exists(path));
        MainWindow restored(path);
        const SessionState s = restored.sessionState();
        QCOMPARE(s.currentPage, QStringLiteral("failure-sets"));
        QCOMPARE(restored.currentPage(), pages::FailureSets);
        QCOMPARE(restored.pages()->currentWidget(),
                 MainWindow::frameOf(restored.page(pages::FailureSets)));
        // Kept as chosen while no run can show it.
        QCOMPARE(s.heads, (HeadSelection{HeadSelection::Mode::OneHead, 1, 0}));
        QCOMPARE(s.theme, QStringLiteral("dark"));
        QCOMPARE(mainViews(restored).at(0)->theme(), Theme::Dark);
        QCOMPARE(s.heatmapColorMap, QStringLiteral("cividis"));
        QVERIFY(s.heatmapLogScale);
        QVERIFY(s.taxonomyShares);
        QCOMPARE(s.overlapA, QStringLiteral("B"));
        QCOMPARE(s.overlapB, QStringLiteral("A"));
        // Without a run reader the run is listed, not opened, and no view shows data.
        QCOMPARE(s.openRuns, QStringList{QStringLiteral("/runs/not-here.kvl")});
        QVERIFY(s.currentRun.isEmpty());
        for (PlotView* v : mainViews(restored))
            QVERIFY(!v->hasData());
        restored.displayMenu()->setTheme(QStringLiteral("light")); // the palette as found
    }

    void navigatorReachesEveryPage()
    {
        MainWindow window;
        window.showRun(sampleRun());
        const QStringList ids = window.navigator()->pageIds();
        // Thirteen views (Compare split into its two pages), the two pages of Decoding and
        // the two outcome grids: none left out, none twice.
        QCOMPARE(ids.size(), 18);
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
        QSet<QWidget*> pages;
        for (const QString& key : ids) {
            const PageId id = PageId::fromString(key);
            QVERIFY2(window.showPage(id), qPrintable(key));
            QCOMPARE(window.currentPage(), id);
            QCOMPARE(window.pages()->currentWidget(), MainWindow::frameOf(window.page(id)));
            pages << window.page(id);
        }
        QCOMPARE(pages.size(), window.pages()->count());
        // Every plot view, the inspector and both comparisons are on some page.
        QVector<QWidget*> widgets{sampleInspector(window), comparePanel(window),
                                  runComparePanel(window)};
        for (PlotView* v : mainViews(window))
            widgets << v;
        for (QWidget* w : widgets) {
            bool onPage = false;
            for (QWidget* page : pages)
                onPage |= page == w || page->isAncestorOf(w);
            QVERIFY2(onPage, qPrintable(w->objectName()));
        }
        QVERIFY(!window.showPage(PageId("no-such-page")));
        QCOMPARE(window.currentPage().toString(), ids.last());
    }

    void navigatorGroupsByQuestion()
    {
        MainWindow window;
        ViewNavigator* nav = window.navigator();
        QStringList groups;
        for (int i = 0; i < nav->topLevelItemCount(); ++i)
            groups << nav->topLevelItem(i)->text(0);
        QCOMPARE(groups, (QStringList{"Overview", "Failures", "Attention", "Instructions",
                                      "Routing", "Samples", "Decoding"}));
        QCOMPARE(nav->groupTitle(QStringLiteral("taxonomy")), QStringLiteral("Failures"));
        QCOMPARE(nav->groupTitle(QStringLiteral("sample")), QStringLiteral("Samples"));
        // One click: no group can be collapsed, so every page row is always shown.
        for (int i = 0; i < nav->topLevelItemCount(); ++i) {
            QVERIFY(nav->topLevelItem(i)->isExpanded());
            QVERIFY(!(nav->topLevelItem(i)->flags() & Qt::ItemIsSelectable));
        }
        QVERIFY(!nav->itemsExpandable());
    }

    void keyboardWalksThePages()
    {
        MainWindow window;
        window.showRun(sampleRun());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ViewNavigator* nav = window.navigator();
        const QStringList ids = nav->pageIds();
        window.showPage(PageId::fromString(ids.first()));
        nav->setFocus();
        // Down from the first page to the last: the group headers are passed over.
        for (int i = 1; i < ids.size(); ++i) {
            QTest::keyClick(nav, Qt::Key_Down);
            QCOMPARE(window.currentPage().toString(), ids[i]);
        }
        for (int i = ids.size() - 2; i >= 0; --i) {
            QTest::keyClick(nav, Qt::Key_Up);
            QCOMPARE(window.currentPage().toString(), ids[i]);
        }
        QTest::keyClick(nav, Qt::Key_Up); // nothing above the first page
        QCOMPARE(window.currentPage().toString(), ids.first());
        // Ctrl+PgDown / Ctrl+PgUp from anywhere in the window, wrapping around.
        QTest::keyClick(&window, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.currentPage().toString(), ids[1]);
        QTest::keyClick(&window, Qt::Key_PageUp, Qt::ControlModifier);
        QTest::keyClick(&window, Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(window.currentPage().toString(), ids.last());
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.currentPage().toString(), ids[2]);
        // Ctrl+0 brings the keyboard back to the list from a plot.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        mainViews(window).at(0)->setFocus();
        QTRY_VERIFY(!nav->hasFocus());
        QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
        QTRY_VERIFY(nav->hasFocus());
        // A click on a group header shows no page of its own: the page stays.
        const QRect header = nav->visualItemRect(nav->topLevelItem(1));
        QTest::mouseClick(nav->viewport(), Qt::LeftButton, {}, header.center());
        QCOMPARE(window.currentPage().toString(), ids[2]);
        QTRY_COMPARE(nav->currentItem()->text(0), nav->pageTitle(ids[2]));
        // A click on a page row shows it.
        const QRect row = nav->visualItemRect(nav->topLevelItem(5)->child(0));
        QTest::mouseClick(nav->viewport(), Qt::LeftButton, {}, row.center());
        QCOMPARE(window.currentPage(), pages::Sample);
    }

    void selectionLineOverEveryPage()
    {
        MainWindow window;
        window.showRun(sampleRun());
        window.show();
        auto* line = window.findChild<QLabel*>(QStringLiteral("SelectionTitle"));
        QVERIFY(line);
        for (const QString& id : window.navigator()->pageIds()) {
            window.showPage(PageId::fromString(id));
            QVERIFY(line->isVisible());
            const QString title = window.selectionTitle();
            QCOMPARE(line->text().remove(QRegularExpression(QStringLiteral("<[^>]*>"))),
                     title.toHtmlEscaped());
            QVERIFY2(title.startsWith(window.navigator()->groupTitle(id) + " › " +
                                      window.navigator()->pageTitle(id)),
                     qPrintable(title));
            QVERIFY2(title.contains(QLatin1String("run: tiny.kvl")), qPrintable(title));
            QVERIFY2(title.contains(QLatin1String("configuration: SnapKV @ 0.75")),
                     qPrintable(title));
            QVERIFY2(title.contains(QLatin1String("heads: all layers, mean over kv-heads")),
                     qPrintable(title));
            // The attention maps and the comparison are of one sample; elsewhere no
            // sample was chosen.
            QVERIFY2(title.contains(id == QLatin1String("attention") ||
                                            id == QLatin1String("compare-samples")
                                        ? QLatin1String("sample: niah-03")
                                        : QLatin1String("sample: all (mean)")),
                     qPrintable(title));
            // With no sample chosen the attention page says its sample is the first,
            // not the toolbar's mean.
            QCOMPARE(title.contains(QLatin1String("one sample at a time")),
                     id == QLatin1String("attention"));
        }
        // Picking heads shows in the line at once.
        window.showPage(pages::Taxonomy);
        headSelector(window)->setShape(4, 2);
        headSelector(window)->setSelection({HeadSelection::Mode::OneHead, 2, 1});
        QVERIFY2(line->text().contains(QLatin1String("heads: layer 2, kv-head 1")),
                 qPrintable(line->text()));
        // No run: the line is hidden with the start page.
        window.closeRun();
        QVERIFY(!line->isVisible());
        QVERIFY(!window.navigator()->isVisible());
    }

    // "Every layer × kv-head" shows the small-multiples grid in place of the two heatmaps;
    // a click on a panel selects that head in the selector and the heatmaps come back.
    void everyHeadShowsTheGrid()
    {
        RunViewData d = sampleRun();
        Heatmap& h = d.heatmap;
        h.rows = 2;
        h.cols = 50;
        h.kvHeads = 3;
        h.values = QVector<double>(100, 0.1);
        h.perHead = QVector<double>(300, 0.1);
        h.perHead[(1 * 3 + 2) * 50 + 7] = 0.9;
        h.evicted.clear();
        h.evidence.clear();
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.showRun(d);
        QVERIFY(window.showPage(pages::Attention));
        auto* heatmap = qobject_cast<HeatmapView*>(mainViews(window).at(4));
        HeadGridView* grid = headGrid(window);
        QVERIFY(!grid->isVisible());
        headSelector(window)->setSelection({HeadSelection::Mode::EveryHead, 0, 0});
        QVERIFY(grid->isVisible());
        QVERIFY(!heatmap->isVisible());
        QVERIFY(grid->hasData());
        QCOMPARE(grid->layers(), 2);
        QCOMPARE(grid->kvHeads(), 3);
        QCOMPARE(grid->colorRange().second, 0.9);
        QCOMPARE(grid->provenance().compressor, heatmap->provenance().compressor);
        grid->plot()->replot();
        QTest::mouseClick(grid->plot(), Qt::LeftButton, Qt::NoModifier,
                          grid->panel(1, 2)->rect().center());
        const HeadSelection one{HeadSelection::Mode::OneHead, 1, 2};
        QCOMPARE(headSelector(window)->selection(), one);
        QCOMPARE(heatmap->headSelection(), one);
        QVERIFY(!grid->isVisible());
        QVERIFY(heatmap->isVisible());
    }

    void restoredSelectionAppliesWhenItsRunIsShown()
    {
        // A run over 100 positions, 2 layers × 2 kv-heads, two overlap ratios: the
        // heads, zoom ranges and overlap ratio a session saved are applied to it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wide.kvl"));
        QFile file(path); // applySessionState restores runs that exist
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        RunViewData d = sampleRun();
        d.path = path;
        Heatmap& h = d.heatmap;
        h.rowKind = QStringLiteral("layer");
        h.rows = 2;
        h.cols = 100;
        h.kvHeads = 2;
        h.values = QVector<double>(200, 0.1);
        h.perHead = QVector<double>(400, 0.1);
        h.evicted.clear();
        h.evidence.clear();
        d.eviction.layers = 2;
        d.eviction.positions = 100;
        d.eviction.keep = QVector<double>(200, 0.5);
        d.eviction.spans.clear();
        OverlapMatrix other = d.overlap;
        other.ratio = 0.9;
        d.overlapRatios = {d.overlap.ratio, 0.9};
        d.overlaps = {d.overlap, other};
        d.failureSets = {sample::failureSets(), sample::failureSets()};

        SessionState saved;
        saved.openRuns = {path};
        saved.currentRun = path;
        saved.currentPage = QStringLiteral("attention");
        saved.selectedCompressor = QStringLiteral("SnapKV");
        saved.selectedRatio = 0.75;
        saved.overlapRatio = 0.9;
        saved.heads = {HeadSelection::Mode::OneHead, 1, 1};
        saved.attentionZoom = {20, 60};
        saved.evictionZoom = {10, 30};
        MainWindow window;
        window.applySessionState(saved);
        window.showRun(d); // as the loader would deliver it
        QCOMPARE(window.currentPage(), pages::Attention);
        QCOMPARE(headSelector(window)->selection(), saved.heads);
        auto* heatmap = qobject_cast<HeatmapView*>(mainViews(window).at(4));
        QCOMPARE(heatmap->provenance().layer, 1);
        QCOMPARE(heatmap->provenance().head, 1);
        QCOMPARE(heatmap->visibleBegin(), 20);
        QCOMPARE(heatmap->visibleEnd(), 60);
        auto* eviction = qobject_cast<PooledMapView*>(mainViews(window).at(5));
        QCOMPARE(eviction->visibleBegin(), 10);
        QCOMPARE(eviction->visibleEnd(), 30);
        const SessionState again = window.sessionState();
        QCOMPARE(again.overlapRatio, 0.9);
        QCOMPARE(again.heads, saved.heads);
        QCOMPARE(again.attentionZoom, saved.attentionZoom);
        QCOMPARE(again.evictionZoom, saved.evictionZoom);
        QCOMPARE(again.currentPage, saved.currentPage);
        QCOMPARE(again.selectedCompressor, saved.selectedCompressor);
        QCOMPARE(again.selectedRatio, saved.selectedRatio);
        // Applied once: a re-read of the run (live refresh) keeps what the user does next.
        heatmap->setVisibleRange(0, 50);
        window.showRun(d);
        QVERIFY(window.sessionState().attentionZoom.first != saved.attentionZoom.first);
    }

    void windowFitsALaptop()
    {
        // 1280 × 800: the navigator, the docks and the views fit without widening it.
        MainWindow window;
        window.showRun(sampleRun());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.minimumSizeHint().width() <= 1280,
                 qPrintable(QString::number(window.minimumSizeHint().width())));
        // A 1280 x 720 screen holds the window, status line included: long pages scroll.
        for (const QString& id : window.navigator()->pageIds()) {
            window.showPage(PageId::fromString(id));
            QVERIFY2(window.minimumSizeHint().height() <= 720,
                     qPrintable(
                         QStringLiteral("%1: %2").arg(id).arg(window.minimumSizeHint().height())));
        }
        window.showPage(pages::Accuracy);
        QCOMPARE(window.width(), 1280);
        QVERIFY(window.navigator()->width() < 260);
        QVERIFY(window.pages()->width() > 800);
        // The Rows dock lists at least five rows above the fold, and the pages keep most
        // of the height.
        const QTableView* rows = window.rowsPanel()->view();
        const int visibleRows =
            rows->viewport()->height() / rows->verticalHeader()->defaultSectionSize();
        QVERIFY2(visibleRows >= 5, qPrintable(QString::number(visibleRows)));
        QVERIFY2(window.pages()->height() > 400,
                 qPrintable(QString::number(window.pages()->height())));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
