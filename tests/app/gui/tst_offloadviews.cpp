// The Offloading pages of the window (issue 19) on a hand-made run of offloaded decoding
// (tests/app/viewdata/offloadrunfixture.h): the group and its pages show, the retrieval map
// of a chosen row is drawn with its field bands, hovers and zooms, and every page exports
// PNG, PDF, SVG and CSV with provenance; a run without offloading leaves them empty.
#include "batchexport.h"
#include "guioptions.h"
#include "mainwindow.h"
#include "windowpages.h"
#include "offloadrunfixture.h"
#include "offscreentestmain.h"
#include "retrievalmappage.h"
#include "store/runreader.h"
#include "storerunloader.h"
#include "viewnavigator.h"
#include "views/csvtable.h"
#include "views/ratiocurvesview.h"
#include "views/retrievalmapview.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;
using namespace kvl::offloadtest;

namespace {
// The hover read-out of a cell, as the map's tooltip shows it.
struct HoverProbe : RetrievalMapView
{
    using RetrievalMapView::describeCell;
};
} // namespace

class TstOffloadViews : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString m_path;

    RetrievalMapView* mapView(MainWindow& window)
    {
        auto* page = qobject_cast<RetrievalMapPage*>(window.page(pages::RetrievalMap));
        return page ? page->view() : nullptr;
    }

  private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("offload.kvl"));
        writeOffloadRun(m_path);
    }

    void groupAndPagesShow()
    {
        MainWindow window;
        window.showRun(loadRunViewData({m_path, {}, -1.0, {}}));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const char* id : {"offload-curves", "retrieval-map"}) {
            QVERIFY2(window.showPage(PageId(id)), id);
            QCOMPARE(window.navigator()->groupTitle(QLatin1String(id)),
                     QStringLiteral("Decoding"));
            QVERIFY2(window.currentView() && window.currentView()->hasData(), id);
        }
        auto* recall = window.findChild<RatioCurvesView*>(QStringLiteral("RetrievalRecall"));
        QVERIFY(recall);
        QCOMPARE(recall->data().curves.size(), 3);
        QCOMPARE(recall->provenance().model, QStringLiteral("tiny"));
        auto* score = window.findChild<RatioCurvesView*>(QStringLiteral("OffloadScore"));
        QVERIFY(score);
        QCOMPARE(score->data().reference, 0.75);
        // The curves page exports the tab shown.
        window.showPage(pages::DecodingCurves);
        QCOMPARE(window.currentView(), recall);
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("OffloadCurves"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(score);
        QCOMPARE(window.currentView(), score);
    }

    void mapOfAChosenRow()
    {
        MainWindow window;
        window.showRun(loadRunViewData({m_path, {}, -1.0, {}}));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(pages::RetrievalMap);
        auto* page = qobject_cast<RetrievalMapPage*>(window.page(pages::RetrievalMap));
        QVERIFY(page);
        QCOMPARE(page->rowChooser()->count(), 8);
        RetrievalMapView* map = page->view();
        QTRY_VERIFY(map->hasData());
        QCOMPARE(map->data().steps, 6);
        QTRY_COMPARE(map->pooled().rows, 6);
        QCOMPARE(map->pooled().bins, 40); // 40 positions fit the width: one bin each
        // Step 3, position 7 as stored: (3 * 40 + 7) / 255.
        QCOMPARE(map->pooled().value(3, 7), double(127) / 255.0);
        QCOMPARE(map->spanBands().size(), 2);
        QCOMPARE(map->spanBands()[0].label, QStringLiteral("alice.city"));
        QCOMPARE(map->spanBands()[1].label, QStringLiteral("bob.age"));
        QVERIFY(!map->spanBandPixels(0).isEmpty());
        // Another row: yakv's on sample o3.
        page->rowChooser()->setCurrentIndex(7);
        QVERIFY2(map->title().contains(QLatin1String("o3")) &&
                     map->title().contains(QLatin1String("yakv@0.5")),
                 qPrintable(map->title()));
        QCOMPARE(map->provenance().compressor, QStringLiteral("yakv@0.5"));
        // The selection line names the row drawn, not the toolbar's focus.
        const QString line = window.selectionTitle();
        QVERIFY2(line.contains(QLatin1String("sample: o3")) &&
                     line.contains(QLatin1String("configuration: yakv")),
                 qPrintable(line));
        // Zoom onto a field's evidence (a click on its band does the same).
        QVERIFY(map->zoomToSpan(1));
        QVERIFY(map->isZoomed());
        QVERIFY(map->visibleBegin() <= 20 && map->visibleEnd() >= 23);
        // CSV at full resolution: the field under each position, the field each step wrote.
        const QString csv = map->csv();
        QVERIFY(csv.startsWith(QLatin1String("step,position,share,field,written_field\n")));
        QVERIFY2(csv.contains(QStringLiteral("\n2,6,%1,alice.city,alice.city\n")
                                  .arg(CsvTable::number(86.0 / 255.0))),
                 qPrintable(csv.left(400)));
        QVERIFY(csv.contains(
            QStringLiteral("\n4,0,%1,,bob.age\n").arg(CsvTable::number(160.0 / 255.0))));
    }

    void hoverNamesStepShareAndWrittenField()
    {
        RunReader reader(m_path);
        HoverProbe map;
        map.resize(900, 500);
        map.setData(loadRetrievalMap(reader, QStringLiteral("o1"), QStringLiteral("shadowkv@0.5")));
        QTRY_COMPARE(map.pooled().rows, 6);
        // Step 2 wrote alice.city (recall 0.25); the step's evidence recall is 0.25.
        const QString cell = map.describeCell(2, 6);
        QVERIFY2(cell.startsWith(
                     QStringLiteral("step 2 · retrieved share %1").arg(86.0 / 255.0, 0, 'g', 3)),
                 qPrintable(cell));
        QVERIFY2(cell.contains(QLatin1String("evidence recall of the step 0.25")),
                 qPrintable(cell));
        QVERIFY2(cell.contains(QLatin1String("writes alice.city (recall 0.25)")), qPrintable(cell));
        QVERIFY(!map.describeCell(1, 6).contains(QLatin1String("writes")));
    }

    void everyPageExports()
    {
        MainWindow window;
        window.showRun(loadRunViewData({m_path, {}, -1.0, {}}));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("OffloadCurves"));
        QVERIFY(tabs);
        for (const char* id : {"recall", "score", "retrieval-map"}) {
            const bool curves = QLatin1String(id) != QLatin1String("retrieval-map");
            window.showPage(curves ? pages::DecodingCurves : pages::RetrievalMap);
            if (curves)
                tabs->setCurrentIndex(QLatin1String(id) == QLatin1String("recall") ? 0 : 1);
            PlotView* view = window.currentView();
            QVERIFY(view);
            QTRY_VERIFY(view->hasData());
            for (const char* suffix : {"png", "pdf", "svg"}) {
                const QString file = m_dir.filePath(
                    QStringLiteral("%1.%2").arg(QLatin1String(id), QLatin1String(suffix)));
                view->exportFigure(file, QSize(800, 500));
                QVERIFY2(QFile(file).size() > 1000, qPrintable(file));
            }
            const QString csvFile = m_dir.filePath(QStringLiteral("%1.csv").arg(QLatin1String(id)));
            view->exportCsv(csvFile);
            QFile f(csvFile);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            QVERIFY2(text.startsWith(QLatin1String("# KVLens")), qPrintable(text.left(200)));
            QVERIFY2(text.contains(QLatin1String("\n# run: offload")), qPrintable(text.left(200)));
            QVERIFY2(text.contains(QLatin1String("model: tiny")), qPrintable(text.left(200)));
        }
        // The map's provenance names the sample.
        QVERIFY(mapView(window)->provenance().toText().contains(QLatin1String("sample o0")));
    }

    // kvlens --export-figures writes both curves of an offloading run.
    void batchExportWritesTheCurves()
    {
        const QString out = m_dir.filePath(QStringLiteral("figures"));
        const BatchExportReport report = exportRunFigures(parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--export-figures"), m_path,
             QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("svg,csv")}));
        for (const char* name : {"retrieval-recall", "offload-score"})
            for (const char* suffix : {"svg", "csv"}) {
                const QString file = QDir(out).filePath(
                    QStringLiteral("%1.%2").arg(QLatin1String(name), QLatin1String(suffix)));
                QVERIFY2(report.written.contains(file), qPrintable(file));
                QVERIFY2(QFileInfo(file).size() > 100, qPrintable(file));
            }
        for (const QString& s : report.skipped)
            QVERIFY2(!s.contains(QLatin1String("offloading")), qPrintable(s));
    }

    void otherRunLeavesThemEmpty()
    {
        const QString plain = m_dir.filePath(QStringLiteral("plain.kvl"));
        test::writeHandRun(plain, {0, 1});
        MainWindow window;
        window.showRun(loadRunViewData({m_path, {}, -1.0, {}}));
        QTRY_VERIFY(mapView(window)->hasData());
        window.showRun(loadRunViewData({plain, {}, -1.0, {}}));
        for (const char* name : {"RetrievalRecall", "OffloadScore", "RetrievalMap"}) {
            auto* view = window.findChild<PlotView*>(QLatin1String(name));
            QVERIFY2(view && !view->hasData(), name);
        }
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstOffloadViews)
#include "tst_offloadviews.moc"
