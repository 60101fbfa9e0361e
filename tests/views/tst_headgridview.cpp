// HeadGridView: small multiples of question attention, one panel per (layer, kv-head),
// on one colour scale and one zoom; a click on a panel names its head.
#include "offscreentestmain.h"
#include "views/headgridview.h"
#include "views/headselection.h"
#include "views/heatmapview.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <qcustomplot.h>

using namespace kvl;

namespace {

// 3 layers x 2 kv-heads x 60 positions; head (l, h) peaks at position 10 + 15h + l with
// (l + 1)(h + 1) / 10, evidence at [20, 24), every fourth entry of layer 1 evicted.
Heatmap perHeadMap()
{
    Heatmap m;
    m.rows = 3;
    m.cols = 60;
    m.kvHeads = 2;
    m.values.fill(0.0, m.rows * m.cols);
    m.perHead.fill(0.001, m.rows * m.kvHeads * m.cols);
    m.perHeadEvicted.fill(false, m.perHead.size());
    for (int l = 0; l < 3; ++l)
        for (int h = 0; h < 2; ++h) {
            const qsizetype at = (qsizetype(l) * 2 + h) * m.cols;
            m.perHead[at + 10 + 15 * h + l] = (l + 1) * (h + 1) / 10.0;
            if (l == 1)
                for (int c = 0; c < m.cols; c += 4)
                    m.perHeadEvicted[at + c] = true;
        }
    for (int l = 0; l < 3; ++l)
        for (int c = 0; c < m.cols; ++c)
            m.values[l * m.cols + c] =
                (m.perHead[(l * 2) * m.cols + c] + m.perHead[(l * 2 + 1) * m.cols + c]) / 2;
    m.evidence = {{20, 24, QStringLiteral("needle")}};
    return m;
}

QVector<QCPColorMap*> mapsOf(QCPAxisRect* rect)
{
    QVector<QCPColorMap*> maps;
    for (QCPAbstractPlottable* p : rect->plottables())
        if (auto* map = qobject_cast<QCPColorMap*>(p))
            maps << map;
    return maps;
}

} // namespace

class TestHeadGridView : public QObject
{
    Q_OBJECT
  private slots:
    // The attention page's pair (FullCache above the compressed map) in every head mode:
    // both draw (one kv-head is a single row: it must not collapse to zero pixels) and
    // both end on one colour range, whichever mode the selector last chose.
    void pairedHeadModesDrawOnOneScale_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("rows");
        QTest::newRow("layers mean") << int(HeadSelection::Mode::LayersMean) << 3;
        QTest::newRow("one layer's heads") << int(HeadSelection::Mode::LayerHeads) << 2;
        QTest::newRow("one kv-head") << int(HeadSelection::Mode::OneHead) << 1;
    }
    void pairedHeadModesDrawOnOneScale()
    {
        QFETCH(int, mode);
        QFETCH(int, rows);
        HeatmapView reference, compressed;
        reference.setScalePartner(&compressed);
        // Compression concentrates attention on what it keeps: the compressed map peaks
        // higher than FullCache's, so a range sized on its previous rows would show.
        Heatmap half = perHeadMap();
        for (double& v : half.perHead)
            v *= 1.5;
        for (double& v : half.values)
            v *= 1.5;
        for (HeatmapView* v : {&reference, &compressed}) {
            v->resize(700, 320);
            v->show();
            QVERIFY(QTest::qWaitForWindowExposed(v));
        }
        reference.setData(perHeadMap());
        compressed.setData(half);
        // Through every mode first, so that a stale range of the previous one would show.
        for (const auto m : {HeadSelection::Mode::LayerHeads, HeadSelection::Mode::LayersMean,
                             HeadSelection::Mode::OneHead})
            compressed.setHeadSelection({m, 2, 1}); // ends on the compressed peak, 0.9
        compressed.setHeadSelection({HeadSelection::Mode(mode), 0, 0});
        for (HeatmapView* v : {&reference, &compressed}) {
            QVERIFY(v->hasData());
            QCOMPARE(v->data().rows, rows);
            v->plot()->replot();
            const QVector<QCPColorMap*> maps = mapsOf(v->plot()->axisRect(0));
            QVERIFY(!maps.isEmpty());
            QVERIFY(maps.front()->data()->keyRange().size() > 0);
            QVERIFY(maps.front()->data()->valueRange().size() > 0);
            // Drawn: the middle line of the map is not all one colour.
            const QImage image = v->plot()->toPixmap().toImage();
            const QRect r = v->plot()->axisRect(0)->rect();
            QSet<QRgb> colours;
            for (int x = r.left() + 1; x < r.right(); ++x)
                colours.insert(image.pixel(x, r.center().y()));
            QVERIFY2(colours.size() > 2, qPrintable(QString::number(colours.size())));
        }
        // One range for both, of the rows now drawn (never the previous mode's 0.9).
        QCOMPARE(reference.colorRange(), compressed.colorRange());
        QVERIFY(reference.colorRange().second < 0.9);
        QVERIFY(reference.colorRange().second > 0);
    }

    void onePanelPerHeadOnOneScale()
    {
        HeadGridView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(perHeadMap());
        QVERIFY(view.hasData());
        int panels = 0;
        for (int l = 0; l < 3; ++l)
            for (int h = 0; h < 2; ++h) {
                QCPAxisRect* rect = view.panel(l, h);
                QVERIFY(rect);
                ++panels;
                const QVector<QCPColorMap*> maps = mapsOf(rect);
                // The attention, and the eviction wash where the layer has a mask.
                QCOMPARE(maps.size(), 2);
                // One scale: every panel's range is the grid's, the largest head value.
                QCOMPARE(maps[0]->dataRange().upper, 0.6);
                QCOMPARE(maps[0]->dataRange().lower, 0.0);
                // The panel draws its own head: its brightest cell is its peak.
                double best = -1;
                int bestKey = -1;
                for (int b = 0; b < maps[0]->data()->keySize(); ++b) {
                    double key = 0, value = 0;
                    maps[0]->data()->cellToCoord(b, 0, &key, &value);
                    if (maps[0]->data()->cell(b, 0) > best) {
                        best = maps[0]->data()->cell(b, 0);
                        bestKey = int(std::lround(key));
                    }
                }
                QCOMPARE(best, (l + 1) * (h + 1) / 10.0);
                QCOMPARE(bestKey, 10 + 15 * h + l);
            }
        QCOMPARE(panels, 6);
        QVERIFY(!view.panel(3, 0));
        QVERIFY(!view.panel(0, 2));
        QCOMPARE(view.colorRange(), qMakePair(0.0, 0.6));
        // One colour bar for the grid.
        int scales = 0;
        for (int i = 0; i < view.plot()->plotLayout()->elementCount(); ++i)
            scales += qobject_cast<QCPColorScale*>(view.plot()->plotLayout()->elementAt(i)) ? 1 : 0;
        QCOMPARE(scales, 1);
    }

    void zoomIsOneForEveryPanel()
    {
        HeadGridView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(perHeadMap());
        QSignalSpy spy(&view, &HeadGridView::visibleRangeChanged);
        view.setVisibleRange(20, 30);
        QCOMPARE(spy.count(), 1);
        for (int l = 0; l < 3; ++l)
            for (int h = 0; h < 2; ++h) {
                const QCPRange r = view.panel(l, h)->axis(QCPAxis::atBottom)->range();
                QCOMPARE(r.lower, 19.5);
                QCOMPARE(r.upper, 29.5);
            }
        // The scale follows the positions shown: only layer 2 head 0's peak (position 12)
        // is outside, the largest inside is head 1 of layer 2 (0.6 at 27).
        QCOMPARE(view.colorRange().second, 0.6);
        view.setVisibleRange(0, 20);
        QCOMPARE(view.colorRange().second, 0.3); // (l 2, h 0) at position 12
        // The wheel over any panel zooms all of them.
        view.plot()->replot();
        QCPAxisRect* rect = view.panel(1, 1);
        const QPointF centre = rect->rect().center();
        QWheelEvent wheel(centre, view.plot()->mapToGlobal(centre), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.plot(), &wheel);
        QVERIFY(view.visibleEnd() - view.visibleBegin() < 20);
        const QCPRange after = view.panel(0, 0)->axis(QCPAxis::atBottom)->range();
        QCOMPARE(after.lower, view.visibleBegin() - 0.5);
        view.resetZoom();
        QCOMPARE(view.visibleBegin(), 0);
        QCOMPARE(view.visibleEnd(), 60);
    }

    void clickSelectsTheHead()
    {
        HeadGridView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(perHeadMap());
        view.plot()->replot();
        QSignalSpy spy(&view, &HeadGridView::headSelected);
        const QPoint at = view.panel(2, 1)->rect().center();
        QTest::mouseClick(view.plot(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QCOMPARE(spy.at(0).at(1).toInt(), 1);
        // A drag is not a click.
        QTest::mousePress(view.plot(), Qt::LeftButton, Qt::NoModifier, at);
        QTest::mouseRelease(view.plot(), Qt::LeftButton, Qt::NoModifier, at + QPoint(30, 0));
        QCOMPARE(spy.count(), 1);
    }

    void csvAndFigure()
    {
        HeadGridView view;
        view.resize(900, 600);
        view.show();
        view.setData(perHeadMap());
        // The CSV of every layer × kv-head, as the heatmap writes it.
        HeatmapView heatmap;
        heatmap.setData(perHeadMap());
        HeadSelection every;
        every.mode = HeadSelection::Mode::EveryHead;
        heatmap.setHeadSelection(every);
        QCOMPARE(view.csv(), heatmap.csv());
        QVERIFY(
            view.csv().startsWith(QStringLiteral("layer·head,position,value,evicted,evidence\n")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("grid.png"));
        view.exportFigure(path, QSize(800, 500));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1600, 1000));
        // Development aid: KVLENS_SCREENSHOT_DIR=/some/dir keeps the figure.
        if (qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR"))
            QFile::copy(path, qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") +
                                  QStringLiteral("/headgrid.png"));
    }

    void withoutPerHeadItSaysWhy()
    {
        HeadGridView view;
        Heatmap m = perHeadMap();
        m.perHead.clear();
        m.perHeadEvicted.clear();
        m.kvHeads = 0;
        view.setData(m);
        QVERIFY(!view.hasData());
        QVERIFY(view.emptyHint().contains(QLatin1String("no per-head values")));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TestHeadGridView)
#include "tst_headgridview.moc"
