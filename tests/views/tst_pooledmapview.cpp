// Zoomable long-context maps: zoom and pan re-pool only the visible positions to the
// pixel width, span bands stay visible and zoom to their span, paired heatmaps share
// one colour range and line up, and a pair exports as one figure.
#include "common/error.h"
#include "offscreentestmain.h"
#include "views/evictionmapview.h"
#include "views/headselection.h"
#include "views/heatmapview.h"

#include <QImage>
#include <QTemporaryDir>
#include <QToolTip>
#include <qcustomplot.h>

#include <memory>

using namespace kvl;

namespace {

constexpr int kLong = 32768;

// rows × kLong attention, zero but for spikes at `spikes` (row, position) of value 1.
Heatmap longHeatmap(int rows, const QVector<QPair<int, int>>& spikes)
{
    Heatmap h;
    h.rows = rows;
    h.cols = kLong;
    h.values = QVector<double>(qsizetype(rows) * kLong, 0.0);
    for (const auto& [r, c] : spikes)
        h.values[qsizetype(r) * kLong + c] = 1.0;
    return h;
}

// 4 layers × kLong keep rates with one-token instruction spans near the start.
EvictionMap longEviction()
{
    EvictionMap e;
    e.layers = 4;
    e.positions = kLong;
    e.keep = QVector<double>(qsizetype(e.layers) * kLong, 1.0);
    e.spans = {{3, 4, QStringLiteral("system"), QStringLiteral("system")},
               {5, 6, QStringLiteral("format"), QStringLiteral("format #1")},
               {20000, 20400, QStringLiteral("request"), QStringLiteral("request")}};
    return e;
}

void showLaidOut(QWidget* view)
{
    view->resize(1000, 500);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view));
}

void replot(PooledMapView* view)
{
    view->plot()->replot(); // lays out the axis rect: pixel ↔ position maps hold
}

int pixelOf(PooledMapView* view, double position)
{
    return int(view->mapRect()->axis(QCPAxis::atBottom)->coordToPixel(position));
}

void sendMouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = {})
{
    QMouseEvent event(type, QPointF(pos), QPointF(target->mapToGlobal(pos)), button, buttons,
                      modifiers);
    QApplication::sendEvent(target, &event);
}

} // namespace

class TstPooledMapView : public QObject
{
    Q_OBJECT
  private slots:
    void zoomRepoolsOnlyTheVisibleRange()
    {
        // 40 × 32k = 1.3M cells: pooled off the GUI thread.
        HeatmapView view;
        view.setData(longHeatmap(40, {{5, 10200}, {6, 500}}));
        showLaidOut(&view);
        QTRY_VERIFY_WITH_TIMEOUT(!view.pooled().edges.isEmpty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(view.pooled().bins, view.plot()->width() - 150, 10000);
        QCOMPARE(view.pooled().edges.front(), 0);
        QCOMPARE(view.pooled().edges.back(), kLong);

        view.setVisibleRange(10000, 10400);
        QCOMPARE(view.visibleBegin(), 10000);
        QCOMPARE(view.visibleEnd(), 10400);
        QTRY_COMPARE_WITH_TIMEOUT(view.pooled().edges.front(), 10000, 10000);
        const PooledGrid& grid = view.pooled();
        QCOMPARE(grid.edges.back(), 10400);
        // At pixel resolution: one bin per pixel column of the plot, at most one per position.
        QCOMPARE(grid.bins, std::min(view.plot()->width() - 150, 400));
        const int bin = binOfColumn(grid.edges, 10200);
        QCOMPARE(grid.value(5, bin), 1.0);
        for (int b = 0; b < grid.bins; ++b)
            QCOMPARE(grid.value(6, b), 0.0); // the spike at 500 is out of view
        // The drawn axis is the visible range.
        replot(&view);
        const QCPRange range = view.mapRect()->axis(QCPAxis::atBottom)->range();
        QCOMPARE(range.lower, 9999.5);
        QCOMPARE(range.upper, 10399.5);

        view.resetZoom();
        QTRY_COMPARE_WITH_TIMEOUT(view.pooled().edges.back(), kLong, 10000);
        QCOMPARE(view.pooled().edges.front(), 0);
    }

    void zoomIsClampedToTheContext()
    {
        HeatmapView view;
        view.setData(longHeatmap(2, {}));
        // A range reaching past the start is shifted in, keeping its width.
        view.setVisibleRange(-50, 3);
        QCOMPARE(view.visibleBegin(), 0);
        QCOMPARE(view.visibleEnd(), 53);
        // Never narrower than kMinVisible: widened around its centre.
        view.setVisibleRange(100, 102);
        QCOMPARE(view.visibleBegin(), 97);
        QCOMPARE(view.visibleEnd(), 97 + PooledMapView::kMinVisible);
        view.setVisibleRange(kLong - 4, kLong + 100);
        QCOMPARE(view.visibleEnd(), kLong);
        QCOMPARE(view.visibleBegin(), kLong - 104);
        // New data of another length shows all of it.
        Heatmap shorter;
        shorter.rows = 1;
        shorter.cols = 100;
        shorter.values = QVector<double>(100, 0.5);
        view.setData(shorter);
        QCOMPARE(view.visibleBegin(), 0);
        QCOMPARE(view.visibleEnd(), 100);
    }

    void wheelZoomsAroundTheCursor()
    {
        HeatmapView view;
        view.setData(longHeatmap(4, {}));
        showLaidOut(&view);
        replot(&view);
        const int px = pixelOf(&view, 24000);
        const int y = view.mapRect()->center().y();
        const double before = view.mapRect()->axis(QCPAxis::atBottom)->pixelToCoord(px); // ≈ 24000
        QWheelEvent wheel(QPointF(px, y), QPointF(view.plot()->mapToGlobal(QPoint(px, y))),
                          QPoint(), QPoint(0, 3 * 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.plot(), &wheel);
        const int width = view.visibleEnd() - view.visibleBegin();
        QVERIFY2(std::abs(width - kLong * 0.512) < 2, qPrintable(QString::number(width)));
        replot(&view);
        // The position under the cursor stays under it.
        const double after = view.mapRect()->axis(QCPAxis::atBottom)->pixelToCoord(px);
        QVERIFY2(std::abs(after - before) < 3,
                 qPrintable(QStringLiteral("%1 → %2").arg(before).arg(after)));
    }

    void keysZoomPanAndReset()
    {
        HeatmapView view;
        view.setData(longHeatmap(2, {}));
        showLaidOut(&view);
        replot(&view);
        QTest::keyClick(view.plot(), Qt::Key_Plus);
        QCOMPARE(view.visibleEnd() - view.visibleBegin(), kLong / 2);
        const int begin = view.visibleBegin();
        QTest::keyClick(view.plot(), Qt::Key_Right);
        QCOMPARE(view.visibleBegin(), begin + kLong / 20);
        QTest::keyClick(view.plot(), Qt::Key_Minus);
        QCOMPARE(view.visibleEnd() - view.visibleBegin(), kLong);
        QTest::keyClick(view.plot(), Qt::Key_Plus);
        QVERIFY(view.isZoomed());
        QTest::keyClick(view.plot(), Qt::Key_0);
        QVERIFY(!view.isZoomed());
    }

    void dragPansAndRubberBandZooms()
    {
        HeatmapView view;
        view.setData(longHeatmap(2, {}));
        showLaidOut(&view);
        view.setVisibleRange(10000, 11000);
        replot(&view);
        QWidget* plot = view.plot();
        const int y = view.mapRect()->center().y();
        const QPoint from(pixelOf(&view, 10500), y);
        const QPoint to = from + QPoint(-view.mapRect()->width() / 2, 0); // half a view left
        sendMouse(plot, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QVERIFY2(std::abs(view.visibleBegin() - 10500) <= 2,
                 qPrintable(QString::number(view.visibleBegin())));
        QCOMPARE(view.visibleEnd() - view.visibleBegin(), 1000);

        replot(&view);
        const QPoint a(pixelOf(&view, 10700), y);
        const QPoint b(pixelOf(&view, 10800), y);
        sendMouse(plot, QEvent::MouseButtonPress, a, Qt::RightButton, Qt::RightButton);
        sendMouse(plot, QEvent::MouseMove, b, Qt::NoButton, Qt::RightButton);
        sendMouse(plot, QEvent::MouseButtonRelease, b, Qt::RightButton, Qt::NoButton);
        QVERIFY2(
            std::abs(view.visibleBegin() - 10700) <= 2 && std::abs(view.visibleEnd() - 10801) <= 2,
            qPrintable(QStringLiteral("%1–%2").arg(view.visibleBegin()).arg(view.visibleEnd())));
    }

    void spansStayVisibleAtAnyZoom_data()
    {
        QTest::addColumn<int>("begin");
        QTest::addColumn<int>("end");
        QTest::newRow("whole context") << 0 << kLong;
        QTest::newRow("first thousand") << 0 << 1000;
        QTest::newRow("close in") << 0 << 10;
    }
    void spansStayVisibleAtAnyZoom()
    {
        QFETCH(int, begin);
        QFETCH(int, end);
        EvictionMapView view;
        view.setData(longEviction());
        showLaidOut(&view);
        view.setVisibleRange(begin, end);
        replot(&view);
        QCOMPARE(view.spanBands().size(), 3);
        for (int i = 0; i < 2; ++i) { // the one-token spans near the start
            const QRect r = view.spanBandPixels(i);
            QVERIFY2(r.width() >= PooledMapView::kMinBandPixels - 1,
                     qPrintable(QStringLiteral("span %1: %2 px").arg(i).arg(r.width())));
            QVERIFY(r.height() >= 8);
            QVERIFY(view.mapRect()->rect().contains(r.center()));
        }
        // Every visible span is named: a text item carries its label (alone or shared).
        QStringList texts;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i)))
                texts << t->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("system")) && all.contains(QStringLiteral("format")),
                 qPrintable(all));
        // The strip of bands is a small part of the plot, not a quarter of it.
        const QRect band = view.spanBandPixels(0);
        QVERIFY2(band.height() < view.mapRect()->height() / 7,
                 qPrintable(
                     QStringLiteral("%1 of %2").arg(band.height()).arg(view.mapRect()->height())));
    }

    void clickOnASpanBandZoomsToIt()
    {
        EvictionMapView view;
        view.setData(longEviction());
        showLaidOut(&view);
        replot(&view);
        const QPoint centre = view.spanBandPixels(2).center(); // request, 20000–20400
        sendMouse(view.plot(), QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
        sendMouse(view.plot(), QEvent::MouseButtonRelease, centre, Qt::LeftButton, Qt::NoButton);
        QVERIFY(view.visibleBegin() <= 20000 && view.visibleEnd() >= 20400);
        QVERIFY(view.visibleEnd() - view.visibleBegin() <= 400 * 3 / 2 + 2);
        QVERIFY(view.zoomToSpan(0));
        QVERIFY(view.visibleBegin() <= 3 && view.visibleEnd() >= 4);
        QVERIFY(view.visibleEnd() - view.visibleBegin() <= PooledMapView::kMinVisible);
        QVERIFY(!view.zoomToSpan(7));
    }

    void hoverNamesTokenPositionSpanAndValue()
    {
        EvictionMap e;
        e.layers = 2;
        e.positions = 12;
        e.keep = QVector<double>(24, 0.25);
        e.spans = {{4, 7, QStringLiteral("system"), QStringLiteral("system rule")}};
        for (int i = 0; i < 12; ++i)
            e.tokens << QStringLiteral("tok%1").arg(i);
        EvictionMapView view;
        view.setData(e);
        showLaidOut(&view);
        replot(&view);
        const QPoint at(pixelOf(&view, 5),
                        int(view.mapRect()->axis(QCPAxis::atLeft)->coordToPixel(1)));
        sendMouse(view.plot(), QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton);
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(QStringLiteral("“tok5” at position 5")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("span system rule")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("layer 1 · keep fraction 0.25")), qPrintable(text));

        // Without token text the read-out says so.
        e.tokens.clear();
        view.setData(e);
        replot(&view);
        sendMouse(view.plot(), QEvent::MouseMove, at + QPoint(1, 0), Qt::NoButton, Qt::NoButton);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("stores no token text")),
                 qPrintable(QToolTip::text()));
    }

    void sideBySidePanelsKeepTheirAxisLabelsWhole()
    {
        // The sample inspector's pair: two half-width panels. The compressed panel's note
        // (evicted entries) goes on a second line, the FullCache panel gets one too, so no
        // label is clipped and both maps keep the same height.
        Heatmap full = longHeatmap(4, {});
        Heatmap compressed = longHeatmap(4, {});
        compressed.evicted = QVector<bool>(compressed.values.size(), false);
        QWidget page;
        page.resize(1000, 260);
        auto* layout = new QHBoxLayout(&page);
        auto* a = new HeatmapView;
        auto* b = new HeatmapView;
        layout->addWidget(a);
        layout->addWidget(b);
        a->setScalePartner(b);
        a->setData(full);
        b->setData(compressed);
        showLaidOut(&page);
        a->setData(full); // relabels now that the partner holds its mask
        a->plot()->replot();
        b->plot()->replot();
        for (HeatmapView* v : {a, b}) {
            const QCPAxis* x = v->mapRect()->axis(QCPAxis::atBottom);
            const QStringList lines = x->label().split(QLatin1Char('\n'));
            QCOMPARE(lines.size(), 2);
            for (const QString& line : lines)
                QVERIFY2(QFontMetrics(x->labelFont()).horizontalAdvance(line) <= v->plot()->width(),
                         qPrintable(line));
        }
        QVERIFY(b->mapRect()->axis(QCPAxis::atBottom)->label().contains(QLatin1String("evicted")));
        QCOMPARE(a->mapRect()->height(), b->mapRect()->height());
        QCOMPARE(a->mapRect()->top(), b->mapRect()->top());
    }

    void pairedHeatmapsShareOneScaleAndLineUp()
    {
        Heatmap full = longHeatmap(3, {});
        full.values[100] = 0.05;
        Heatmap compressed = longHeatmap(3, {});
        compressed.values[kLong + 200] = 0.037;
        compressed.evicted = QVector<bool>(compressed.values.size(), false);
        compressed.evidence = {{300, 310, QStringLiteral("needle")}};
        QWidget page;
        auto* layout = new QVBoxLayout(&page);
        auto* a = new HeatmapView;
        auto* b = new HeatmapView;
        layout->addWidget(a);
        layout->addWidget(b);
        a->setScalePartner(b);
        QCOMPARE(b->scalePartner(), a);
        a->setData(full);
        b->setData(compressed);
        showLaidOut(&page);
        a->plot()->replot();
        b->plot()->replot();
        QCOMPARE(a->colorRange().second, 0.05);
        QCOMPARE(b->colorRange().second, 0.05);
        // Position p at the same pixel column in both.
        QCOMPARE(a->mapRect()->left(), b->mapRect()->left());
        QCOMPARE(a->mapRect()->width(), b->mapRect()->width());
        // Zoom follows; the shared range is that of the visible positions.
        b->setVisibleRange(150, 400);
        QCOMPARE(a->visibleBegin(), 150);
        QCOMPARE(a->visibleEnd(), 400);
        QCOMPARE(a->colorRange().second, 0.037);
        QCOMPARE(b->colorRange().second, 0.037);
        a->resetZoom();
        // Per panel, as an option.
        a->setSharedScale(false);
        QVERIFY(!b->sharedScale());
        QCOMPARE(a->colorRange().second, 0.05);
        QCOMPARE(b->colorRange().second, 0.037);
        a->plot()->replot();
        b->plot()->replot();
        QCOMPARE(a->mapRect()->left(), b->mapRect()->left());
        QCOMPARE(a->mapRect()->width(), b->mapRect()->width());
        // Log scale follows the partner.
        b->setLogScale(true);
        QVERIFY(a->logScale());
    }

    void threeLinkedHeatmapsShareOneScale()
    {
        // The compare page: reference, A and B under one colour range and one zoom.
        Heatmap reference = longHeatmap(3, {});
        reference.values[100] = 0.02;
        Heatmap a = longHeatmap(3, {});
        a.values[kLong + 500] = 0.09;
        Heatmap b = longHeatmap(3, {});
        b.values[200] = 0.04;
        QWidget page;
        auto* layout = new QVBoxLayout(&page);
        HeatmapView* views[3] = {new HeatmapView, new HeatmapView, new HeatmapView};
        for (HeatmapView* v : views)
            layout->addWidget(v);
        HeatmapView::linkScales({views[0], views[1], views[2]});
        QCOMPARE(views[2]->scalePeers().size(), 2);
        views[0]->setData(reference);
        views[1]->setData(a);
        views[2]->setData(b);
        showLaidOut(&page);
        for (HeatmapView* v : views)
            QCOMPARE(v->colorRange().second, 0.09);
        // Zooming B moves the others; the range is the top of what is visible in any.
        views[2]->setVisibleRange(150, 400);
        for (HeatmapView* v : views) {
            QCOMPARE(v->visibleBegin(), 150);
            QCOMPARE(v->colorRange().second, 0.04);
        }
        views[2]->resetZoom();
        // Per panel, for all three at once.
        views[1]->setSharedScale(false);
        QVERIFY(!views[0]->sharedScale() && !views[2]->sharedScale());
        QCOMPARE(views[0]->colorRange().second, 0.02);
        QCOMPARE(views[1]->colorRange().second, 0.09);
        QCOMPARE(views[2]->colorRange().second, 0.04);
        // Pairing one of them elsewhere takes it out of the group.
        views[1]->setSharedScale(true);
        HeatmapView lone;
        views[2]->setScalePartner(&lone);
        QCOMPARE(views[0]->scalePeers().size(), 1);
        QCOMPARE(views[2]->scalePartner(), &lone);
        QCOMPARE(views[0]->colorRange().second, 0.09);
    }

    void headSelectorPicksRows_data()
    {
        // 2 layers × 2 kv-heads × 3 positions: perHead[(l·2 + h)·3 + t] = 10l + 2h + t.
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<int>("provLayer");
        QTest::addColumn<int>("provHead");
        QTest::newRow("layers, mean over heads")
            << int(HeadSelection::Mode::LayersMean) << 0 << 0
            << QVector<double>{1, 2, 3, 11, 12, 13} << QStringList{} << -1 << -1;
        QTest::newRow("layer 1's heads")
            << int(HeadSelection::Mode::LayerHeads) << 1 << 0
            << QVector<double>{10, 11, 12, 12, 13, 14} << QStringList{"0", "1"} << 1 << -1;
        QTest::newRow("one head") << int(HeadSelection::Mode::OneHead) << 0 << 1
                                  << QVector<double>{2, 3, 4} << QStringList{"L0·h1"} << 0 << 1;
        QTest::newRow("every head") << int(HeadSelection::Mode::EveryHead) << 0 << 0
                                    << QVector<double>{0, 1, 2, 2, 3, 4, 10, 11, 12, 12, 13, 14}
                                    << QStringList{"L0·h0", "L0·h1", "L1·h0", "L1·h1"} << -1 << -1;
        QTest::newRow("layer out of range is clamped")
            << int(HeadSelection::Mode::OneHead) << 9 << 9 << QVector<double>{12, 13, 14}
            << QStringList{"L1·h1"} << 1 << 1;
    }
    void headSelectorPicksRows()
    {
        QFETCH(int, mode);
        QFETCH(int, layer);
        QFETCH(int, head);
        QFETCH(QVector<double>, values);
        QFETCH(QStringList, labels);
        Heatmap h;
        h.rows = 2;
        h.cols = 3;
        h.kvHeads = 2;
        for (int i = 0; i < 12; ++i) {
            const int l = i / 6, hd = (i / 3) % 2, t = i % 3;
            h.perHead << 10 * l + 2 * hd + t;
            h.perHeadEvicted << (t == 2 && hd == 1);
        }
        h.values = {1, 2, 3, 11, 12, 13}; // means over the two heads
        h.evicted = QVector<bool>(6, false);
        HeatmapView a, b;
        a.setScalePartner(&b);
        a.setData(h);
        b.setData(h);
        const HeadSelection selection{HeadSelection::Mode(mode), layer, head};
        a.setHeadSelection(selection);
        QCOMPARE(b.headSelection(), selection); // the pair shows the same rows
        for (HeatmapView* v : {&a, &b}) {
            QCOMPARE(v->data().values, values);
            QCOMPARE(v->data().rows, int(values.size() / 3));
            QCOMPARE(v->data().rowLabels, labels);
            QCOMPARE(v->pooled().rows, v->data().rows);
            QTEST(v->provenance().layer, "provLayer");
            QTEST(v->provenance().head, "provHead");
        }
        if (HeadSelection::Mode(mode) == HeadSelection::Mode::OneHead && layer == 0)
            QCOMPARE(a.data().evicted, (QVector<bool>{false, false, true}));
        // Back to the layers: the data given, unchanged.
        a.setHeadSelection({});
        QCOMPARE(a.data().values, h.values);
    }

    void pairExportsAsOneFigure_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("png") << "png";
        QTest::newRow("pdf") << "pdf";
        QTest::newRow("svg") << "svg";
    }
    void pairExportsAsOneFigure()
    {
        QFETCH(QString, format);
        HeatmapView a, b, empty;
        a.setData(longHeatmap(2, {{0, 5}}));
        b.setData(longHeatmap(2, {{1, 9}}));
        Provenance pa, pb;
        pa.compressor = QStringLiteral("FullCache");
        pb.compressor = QStringLiteral("SnapKV");
        pb.ratio = 0.75;
        a.setProvenance(pa);
        b.setProvenance(pb);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pair.") + format);
        PlotView::exportFigures({&a, &empty, &b}, path, Qt::Vertical, QSize(600, 300));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        if (format == QLatin1String("png")) {
            const QImage image(path);
            QCOMPARE(image.size(), QSize(1200, 1200)); // two panels of 600 × 300, twice the density
            QVERIFY(image.text(QStringLiteral("Description")).contains(pa.toText()));
            QVERIFY(image.text(QStringLiteral("Description")).contains(pb.toText()));
        } else if (format == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF-"));
            QVERIFY(bytes.size() > 1000);
        } else {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("viewBox=\"0 0 600 600\""));
        }
        // The provenance footers are gone from the views again.
        QCOMPARE(a.plot()->plotLayout()->rowCount(), 2);
        QVERIFY_THROWS_EXCEPTION(Error, PlotView::exportFigures({&empty}, path, Qt::Vertical));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstPooledMapView)
#include "tst_pooledmapview.moc"
