// Selection signals fire on simulated clicks on the drawn elements.
#include "offscreentestmain.h"
#include "sampleviews.h"
#include "views/legendplacement.h"

#include <QSignalSpy>
#include <qcustomplot.h>

#include <cmath>

using namespace kvl;

namespace {

void showAndLayOut(PlotView* view)
{
    view->resize(900, 600);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view));
    view->plot()->replot(); // lays out the axis rects so pixel ↔ coordinate maps are valid
}

QPoint toPixel(QCPAxisRect* rect, double x, double y)
{
    return QPoint(int(rect->axis(QCPAxis::atBottom)->coordToPixel(x)),
                  int(rect->axis(QCPAxis::atLeft)->coordToPixel(y)));
}

} // namespace

class TstViewSelection : public QObject
{
    Q_OBJECT
  private slots:
    void taxonomyBarClick_data()
    {
        QTest::addColumn<int>("bar");
        QTest::addColumn<int>("signature");
        QTest::addColumn<QString>("compressor");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<QString>("signatureName");
        QTest::addColumn<int>("count");
        QTest::newRow("S 0.5 low") << 0 << 0 << "S" << 0.5 << "low_mapped_coverage" << 3;
        QTest::newRow("S 0.5 ambiguous") << 0 << 1 << "S" << 0.5 << "ambiguous" << 1;
        QTest::newRow("T 0.9 ambiguous") << 2 << 1 << "T" << 0.9 << "ambiguous" << 6;
    }
    void taxonomyBarClick()
    {
        QFETCH(int, bar);
        QFETCH(int, signature);
        TaxonomyView view;
        view.setData(sample::taxonomy());
        showAndLayOut(&view);
        QSignalSpy spy(&view, &TaxonomyView::selectionChanged);
        // Stacks: S = 3 + 1, T@0.9 = 2 + 6; centre of the segment in plot coordinates.
        const QPointF centre = view.segmentCenter(bar, signature);
        const QPoint pixel = toPixel(view.plot()->axisRect(0), centre.x(), centre.y());
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, pixel);
        QCOMPARE(spy.count(), 1);
        const auto selection = spy.at(0).at(0).value<TaxonomySelection>();
        QTEST(selection.compressor, "compressor");
        QTEST(selection.ratio, "ratio");
        QTEST(selection.signature, "signatureName");
        QTEST(selection.count, "count");
    }

    void taxonomyShares()
    {
        TaxonomyView view;
        view.setData(sample::taxonomy());
        view.setNormalized(true);
        // T@0.9: 2/8 = 0.25 below, 6/8 = 0.75 above → centre of the top segment at 0.625
        QCOMPARE(view.segmentCenter(2, 1), QPointF(2, 0.625));
    }

    // On screen the legend stands beside the bars and takes its own width only; the grid
    // under the bars that print moves the legend into (kPrintLegendBelow) is empty here
    // and must not hold the bars' column to its least width (it once did: a third of the
    // window).
    void taxonomyBarsTakeTheWidth()
    {
        TaxonomyView view;
        view.setData(sample::taxonomy());
        showAndLayOut(&view);
        const QRect bars = view.plot()->axisRect(0)->rect();
        QVERIFY2(
            bars.width() > view.plot()->width() / 2,
            qPrintable(
                QStringLiteral("bars %1 px of %2").arg(bars.width()).arg(view.plot()->width())));
    }

    // Bar labels on two lines while each bar's pitch holds them; 24 bars (eight presses at
    // three ratios, the KVDiagnosis import) turn them 45° onto one line each.
    void taxonomyLabelsTurnWhenCrowded()
    {
        TaxonomyView few;
        few.setData(sample::taxonomy());
        showAndLayOut(&few);
        QCoreApplication::processEvents(); // the queued re-layout, if any
        few.plot()->replot();
        QCOMPARE(few.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabelRotation(), 0.0);

        TaxonomyCounts many;
        many.signatures = {QStringLiteral("low_mapped_coverage")};
        for (const char* press : {"adakv", "chunkkv", "keydiff", "quantized", "snapkv",
                                  "streamingllm", "think", "tova"})
            for (double ratio : {0.25, 0.5, 0.75})
                many.bars.push_back({QString::fromLatin1(press), ratio, {3}});
        TaxonomyView crowded;
        crowded.setData(many);
        showAndLayOut(&crowded);
        QTRY_COMPARE(crowded.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabelRotation(),
                     -45.0);
        const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(
            crowded.plot()->axisRect(0)->axis(QCPAxis::atBottom)->ticker());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QStringLiteral("adakv 0.25"));
    }

    // An inset legend leaves the corner where the curves run for one they leave free,
    // and stays where it is when it hides nothing.
    void insetLegendAvoidsData()
    {
        QCustomPlot plot;
        plot.resize(600, 400);
        QCPGraph* graph = plot.addGraph();
        graph->setName(QStringLiteral("falls to 0"));
        // Down the left side into the bottom left corner, then along the bottom.
        graph->setData({0.0, 0.02, 0.04, 0.5, 1.0}, {1.0, 0.5, 0.0, 0.0, 0.0});
        plot.xAxis->setRange(0, 1);
        plot.yAxis->setRange(0, 1);
        plot.legend->setVisible(true);
        plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
        plot.replot();
        const auto hidden = [&] {
            // Points of the curve, and 50 along each segment, under the legend.
            int n = 0;
            const QRectF box = plot.legend->outerRect();
            for (int i = 0; i + 1 < graph->dataCount(); ++i) {
                const QPointF a =
                    graph->coordsToPixels(graph->dataMainKey(i), graph->dataMainValue(i));
                const QPointF b =
                    graph->coordsToPixels(graph->dataMainKey(i + 1), graph->dataMainValue(i + 1));
                for (int k = 0; k <= 50; ++k)
                    n += box.contains(a + (b - a) * (k / 50.0));
            }
            return n;
        };
        QVERIFY(hidden() > 0);
        QVERIFY(placeInsetLegends(&plot));
        plot.replot();
        QCOMPARE(hidden(), 0);
        QVERIFY(!placeInsetLegends(&plot)); // nothing under it now: it stays
    }

    void taxonomyClickOutsideBarsIsSilent()
    {
        TaxonomyView view;
        view.setData(sample::taxonomy());
        showAndLayOut(&view);
        QSignalSpy spy(&view, &TaxonomyView::selectionChanged);
        // Bar T@0.75 is empty: clicking where it would stand selects nothing.
        QTest::mouseClick(view.plot(), Qt::LeftButton, {},
                          toPixel(view.plot()->axisRect(0), 1.0, 2.0));
        QCOMPARE(spy.count(), 0);
    }

    void overlapCellClick_data()
    {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<QString>("nameA");
        QTest::addColumn<QString>("nameB");
        QTest::addColumn<int>("aOnly");
        QTest::addColumn<int>("bOnly");
        QTest::addColumn<int>("both");
        QTest::addColumn<double>("jaccard");
        // A fails {1,2,3}, B fails {3,4}: A only {1,2}, B only {4}, both {3}, J = 1/4.
        QTest::newRow("A vs B") << 0 << 1 << "A"
                                << "B" << 2 << 1 << 1 << 0.25;
        QTest::newRow("B vs A") << 1 << 0 << "B"
                                << "A" << 1 << 2 << 1 << 0.25;
        QTest::newRow("B vs B") << 1 << 1 << "B"
                                << "B" << 0 << 0 << 2 << 1.0;
    }
    void overlapCellClick()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        OverlapMatrixView view;
        view.setData(sample::overlap());
        showAndLayOut(&view);
        QCOMPARE(view.cellAt(view.cellCenter(a, b)), QPoint(a, b));
        QSignalSpy spy(&view, &OverlapMatrixView::pairSelected);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.cellCenter(a, b));
        QCOMPARE(spy.count(), 1);
        const auto s = spy.at(0).at(0).value<OverlapSelection>();
        QTEST(s.a, "nameA");
        QTEST(s.b, "nameB");
        QTEST(s.aOnly, "aOnly");
        QTEST(s.bOnly, "bOnly");
        QTEST(s.both, "both");
        QTEST(s.jaccard, "jaccard");
    }

    void overlapCellsShowSetSizes()
    {
        // sample::overlap(): A vs B = 2 only A, 1 only B, 1 both → |A| 3, |B| 2, ∩ 1, union 4,
        // under the default minimum of 5: greyed, and the read-out says why.
        OverlapMatrixView view;
        view.setData(sample::overlap());
        showAndLayOut(&view);
        QStringList texts;
        int veils = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i) {
            if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i)))
                texts << t->text();
            else if (auto* r = qobject_cast<QCPItemRect*>(view.plot()->item(i)))
                veils += r->brush().style() != Qt::NoBrush;
        }
        QVERIFY2(texts.contains(QStringLiteral("0.25\n|A| 3 · |B| 2 · ∩ 1")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QCOMPARE(view.unionOf(0, 1), 4);
        QCOMPARE(veils, 2); // (A, B) and (B, A)
        QVERIFY(view.describe(0, 1).contains(QLatin1String("too few to compare")));
        // With a lower minimum the cells are drawn as any other.
        view.setMinimumUnion(4);
        veils = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* r = qobject_cast<QCPItemRect*>(view.plot()->item(i)))
                veils += r->brush().style() != Qt::NoBrush;
        QCOMPARE(veils, 0);
        QVERIFY(!view.describe(0, 1).contains(QLatin1String("too few")));
    }

    // Eight presses in a 900-px view: the cells are too narrow for "|A| 756 · |B| 1158 ·
    // ∩ 402", so every cell shows its Jaccard alone (one level for all); the tooltip and
    // the CSV keep the sizes. The two-press matrix above keeps them in its cells.
    void overlapCellsSayWhatFits()
    {
        OverlapMatrix m;
        m.ratio = 0.5;
        const int n = 8;
        for (int a = 0; a < n; ++a)
            m.names << QStringLiteral("press%1").arg(a);
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                m.jaccard << (a == b ? 1.0 : 0.25);
                m.aOnly << (a == b ? 0 : 700 + a);
                m.bOnly << (a == b ? 0 : 1100 + b);
                m.both << 400;
            }
        OverlapMatrixView view;
        view.setData(m);
        showAndLayOut(&view);
        const auto texts = [&view] {
            QStringList out;
            for (int i = 0; i < view.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i)))
                    out << t->text();
            return out;
        };
        QTRY_VERIFY2(texts().filter(QStringLiteral("|A|")).isEmpty(),
                     qPrintable(texts().join(QLatin1Char('|'))));
        QVERIFY2(texts().contains(QStringLiteral("0.25")),
                 qPrintable(texts().join(QLatin1Char('|'))));
        QVERIFY(view.describe(0, 1).contains(QLatin1String("1101")) ||
                view.csv().contains(QLatin1String("1101")));
    }

    void overlapOutsideMatrix()
    {
        OverlapMatrixView view;
        view.setData(sample::overlap());
        showAndLayOut(&view);
        QCOMPARE(view.cellAt(QPoint(1, 1)), QPoint(-1, -1));
        QSignalSpy spy(&view, &OverlapMatrixView::pairSelected);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(spy.count(), 0);
    }

    void overlapDescribe()
    {
        OverlapMatrixView view;
        view.setData(sample::overlap());
        QCOMPARE(view.describe(0, 1),
                 QStringLiteral("A vs B: Jaccard 0.250 · A only 2 · B only 1 · both 1 · greyed: "
                                "4 failure(s) in all, too few to compare"));
        view.setMinimumUnion(4);
        QCOMPARE(view.describe(0, 1),
                 QStringLiteral("A vs B: Jaccard 0.250 · A only 2 · B only 1 · both 1"));
    }

    void accuracyPointClick_data()
    {
        QTest::addColumn<double>("ratio");
        QTest::addColumn<int>("point"); // of curve A, in ratio order
        QTest::newRow("cliff point (under its marker)") << 0.75 << 2;
        QTest::newRow("plain point") << 0.25 << 0;
    }
    void accuracyPointClick()
    {
        QFETCH(double, ratio);
        QFETCH(int, point);
        AccuracyRatioView view;
        view.setData(sample::accuracy());
        showAndLayOut(&view);
        QSignalSpy spy(&view, &AccuracyRatioView::configurationSelected);
        // Where the point is drawn: curves sharing a ratio sit a little apart, and the
        // click still selects the true ratio.
        const QPoint at = view.pointPixel(0, point);
        const double drawnRatio =
            view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->pixelToCoord(at.x());
        QVERIFY(std::abs(drawnRatio - ratio) > 1e-3);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("A"));
        QCOMPARE(spy.at(0).at(1).toDouble(), ratio);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstViewSelection)
#include "tst_viewselection.moc"
