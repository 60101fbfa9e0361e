// Main window: empty state without a run, a run's data in every view, session
// state saved on close and restored in a new window.
#include "mainwindow.h"
#include "offscreentestmain.h"
#include "sampleviews.h"

#include <QTabWidget>
#include <QTemporaryDir>

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
        QCOMPARE(window.views().size(), 8);
        for (PlotView* v : window.views()) {
            QVERIFY(!v->hasData());
            QVERIFY(!v->emptyHint().isEmpty());
        }
        QCOMPARE(window.windowTitle(), QStringLiteral("KVLens"));
    }

    void showAndCloseRun()
    {
        MainWindow window;
        window.showRun(sampleRun());
        for (PlotView* v : window.views())
            QVERIFY2(v->hasData(), qPrintable(v->title()));
        QVERIFY(window.windowTitle().contains(QLatin1String("tiny")));
        // Provenance: run and model on every view; the heatmap adds its configuration.
        const Provenance p = window.views().at(4)->provenance();
        QCOMPARE(p.run, QStringLiteral("tiny"));
        QCOMPARE(p.model, QStringLiteral("tiny-model"));
        QCOMPARE(p.compressor, QStringLiteral("SnapKV"));
        QCOMPARE(p.layer, 3);
        QCOMPARE(window.sessionState().openRuns, QStringList{QStringLiteral("/runs/tiny.kvl")});
        window.closeRun();
        for (PlotView* v : window.views())
            QVERIFY(!v->hasData());
        QVERIFY(window.sessionState().openRuns.isEmpty());
    }

    void partialRunLeavesOtherViewsEmpty()
    {
        MainWindow window;
        RunViewData d;
        d.path = QStringLiteral("/runs/only-accuracy.kvl");
        d.accuracy = sample::accuracy();
        window.showRun(d);
        QVERIFY(window.views().at(0)->hasData());
        for (int i = 1; i < window.views().size(); ++i)
            QVERIFY(!window.views().at(i)->hasData());
    }

    void sessionSavedOnCloseAndRestored()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("session.json"));
        {
            MainWindow window(path);
            SessionState s;
            s.currentTab = 4;
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
        QCOMPARE(s.currentTab, 4);
        QCOMPARE(restored.tabs()->currentIndex(), 4);
        QCOMPARE(s.theme, QStringLiteral("dark"));
        QCOMPARE(restored.views().at(0)->theme(), Theme::Dark);
        QCOMPARE(s.heatmapColorMap, QStringLiteral("cividis"));
        QVERIFY(s.heatmapLogScale);
        QVERIFY(s.taxonomyShares);
        QCOMPARE(s.overlapA, QStringLiteral("B"));
        QCOMPARE(s.overlapB, QStringLiteral("A"));
        // Without a run reader the run is listed, not opened, and no view shows data.
        QCOMPARE(s.openRuns, QStringList{QStringLiteral("/runs/not-here.kvl")});
        QVERIFY(s.currentRun.isEmpty());
        for (PlotView* v : restored.views())
            QVERIFY(!v->hasData());
        restored.setTheme(QStringLiteral("light")); // leave the application palette as found
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
