// RatioCurvesView: a value against ratio per series with a reference line; CSV
// equal to a hand-written expectation (n and interval columns), the ratio axis fitted
// to the data, n and interval per point, a grouped legend, PNG export, title override.
#include "offscreentestmain.h"
#include "views/ratiocurvesview.h"

#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <cmath>

using namespace kvl;

class TstRatioCurvesView : public QObject
{
    Q_OBJECT
  private:
    static RatioCurves sampleCurves()
    {
        RatioCurves d;
        d.valueLabel = QStringLiteral("Repair rate");
        d.reference = 0.25;
        d.referenceLabel = QStringLiteral("FullCache");
        d.referenceN = 4;
        d.referenceLo = 0.05;
        d.referenceHi = 0.7;
        RatioCurve boost{QStringLiteral("S · boost"), {0.5, 0.75}, {0.5, std::nan("")}, 0, false};
        boost.n = {4, 0};
        boost.successes = {2, 0};
        boost.lo = {0.15, std::nan("")};
        boost.hi = {0.85, std::nan("")};
        d.curves = {boost, {QStringLiteral("S · sham"), {0.5}, {0.1}, 0, true}};
        return d;
    }

    // The lower and upper end of the ratio axis as drawn.
    static QCPRange ratioRange(const RatioCurvesView& view)
    {
        return view.plot()->axisRects().first()->axis(QCPAxis::atBottom)->range();
    }

  private slots:
    void emptyUntilData()
    {
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        QVERIFY(!view.hasData());
        QCOMPARE(view.emptyHint(), QStringLiteral("hint"));
        view.setData({});
        QVERIFY(!view.hasData());
    }

    void csv()
    {
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(sampleCurves());
        QVERIFY(view.hasData());
        // The reference first at ratio 0; NaN, n = 0 and no interval as empty fields.
        QCOMPARE(view.csv(), QStringLiteral("series,ratio,value,n,ci95_low,ci95_high\n"
                                            "FullCache,0,0.25,4,0.05,0.7\n"
                                            "S · boost,0.5,0.5,4,0.15,0.85\n"
                                            "S · boost,0.75,,,,\n"
                                            "S · sham,0.5,0.1,,,\n"));
        view.clear();
        QVERIFY(!view.hasData());
    }

    void ratioAxisFitsTheData_data()
    {
        QTest::addColumn<QVector<double>>("ratios");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        // Margin: the larger of 0.05 and a tenth of the span.
        QTest::newRow("0.5 and 0.75") << QVector<double>{0.5, 0.75} << 0.45 << 0.80;
        QTest::newRow("0.1 to 0.9") << QVector<double>{0.1, 0.5, 0.9} << 0.02 << 0.98;
        QTest::newRow("one ratio") << QVector<double>{0.6} << 0.55 << 0.65;
    }
    void ratioAxisFitsTheData()
    {
        QFETCH(QVector<double>, ratios);
        QFETCH(double, low);
        QFETCH(double, high);
        RatioCurves d;
        d.curves = {{QStringLiteral("S"), ratios, QVector<double>(ratios.size(), 0.5), 0, false}};
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(d);
        const QCPRange range = ratioRange(view);
        QVERIFY2(std::abs(range.lower - low) < 1e-9, qPrintable(QString::number(range.lower)));
        QVERIFY2(std::abs(range.upper - high) < 1e-9, qPrintable(QString::number(range.upper)));
    }

    void ratioAxisTitleCanBeNamed()
    {
        RatioCurves d = sampleCurves();
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(d);
        QCPAxis* x = view.plot()->axisRects().first()->axis(QCPAxis::atBottom);
        QVERIFY(x->label().startsWith(QStringLiteral("Compression ratio")));
        d.ratioLabel = QStringLiteral("Ratio r: retrieval budget");
        view.setData(d);
        x = view.plot()->axisRects().first()->axis(QCPAxis::atBottom);
        QCOMPARE(x->label(), d.ratioLabel);
    }

    void pointsShowNAndInterval()
    {
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.resize(640, 420);
        view.setData(sampleCurves());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        // Boost at 0.5: 2 of 4 repaired, its interval in the tooltip and n in the legend.
        const QString tip = view.pointTipAt(view.pointPixel(0, 0));
        QVERIFY2(tip.contains(QStringLiteral("S · boost at ratio 0.5: 0.500 (2 of 4)")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("0.150–0.850")), qPrintable(tip));
        // The sham at the same ratio sits beside it, not on it: both stay visible.
        QVERIFY(view.pointPixel(0, 0).x() != view.pointPixel(1, 0).x());
        QVERIFY(view.pointTipAt(view.pointPixel(1, 0)).startsWith(QStringLiteral("S · sham")));
        QVERIFY(view.pointTipAt(QPoint(2, 2)).isEmpty());
        bool legendHasN = false;
        for (int i = 0; i < view.plot()->plottableCount(); ++i)
            legendHasN |= view.plot()->plottable(i)->name() == QStringLiteral("S · boost (n = 4)");
        QVERIFY(legendHasN);
        // The boost has an error bar; the sham has none.
        int errorBars = 0;
        for (int i = 0; i < view.plot()->plottableCount(); ++i)
            errorBars += qobject_cast<QCPErrorBars*>(view.plot()->plottable(i)) != nullptr;
        QCOMPARE(errorBars, 1);
    }

    // Curves over compression steps (the decoding curve): whole-number ticks, "at step"
    // in the tooltip, a "step" column in the CSV, and the reference line across every step.
    void stepAxis()
    {
        RatioCurves d;
        d.pointKeyName = QStringLiteral("step");
        d.reference = 1.0;
        d.referenceLabel = QStringLiteral("FullCache");
        RatioCurve c{QStringLiteral("cam @ 0.5"),
                     {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
                     QVector<double>(13, 0.4),
                     0,
                     false};
        c.n = QVector<int>(13, 5);
        d.curves = {c};
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.resize(640, 420);
        view.setData(d);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QVERIFY(view.csv().startsWith(QStringLiteral("series,step,value,n,ci95_low,ci95_high\n")));
        const QString tip = view.pointTipAt(view.pointPixel(0, 3));
        QVERIFY2(tip.startsWith(QStringLiteral("cam @ 0.5 at step 3: 0.400")), qPrintable(tip));
        QCPAxis* x = view.plot()->axisRects().first()->axis(QCPAxis::atBottom);
        QVERIFY(!x->tickVector().isEmpty());
        for (double tick : x->tickVector())
            QCOMPARE(tick, std::round(tick));
        // The reference spans past both ends of the axis (it used to stop at 2).
        for (int i = 0; i < view.plot()->graphCount(); ++i)
            if (view.plot()->graph(i)->name().startsWith(QStringLiteral("FullCache"))) {
                const auto* data = view.plot()->graph(i)->data().data();
                QVERIFY(data->at(data->size() - 1)->key > x->range().upper);
                QVERIFY(data->at(0)->key < x->range().lower);
            }
    }

    void legendAvoidsThePoints()
    {
        // Leakage rises from 0 at the lowest ratio: a legend fixed at the bottom left
        // hid the points at 0; it takes the emptiest corner (bottom right here).
        RatioCurves d;
        d.curves = {{QStringLiteral("S"), {0.25, 0.5, 0.75}, {0.0, 0.8, 0.9}, 0, false},
                    {QStringLiteral("T"), {0.25, 0.5, 0.75}, {0.0, 0.85, 0.95}, 1, false}};
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(d);
        QCPLayoutInset* inset = view.plot()->axisRects().first()->insetLayout();
        QCOMPARE(inset->elementCount(), 1);
        QCOMPARE(inset->insetAlignment(0), Qt::AlignBottom | Qt::AlignRight);
    }

    void groupedLegendForAGrid()
    {
        // Two compressors × two instructions: four curves, four legend entries (two
        // colours, two line styles), each curve in its compressor's colour and its
        // instruction's style.
        RatioCurves d;
        d.valueLabel = QStringLiteral("Keep");
        d.colorNames = {QStringLiteral("S"), QStringLiteral("T")};
        d.styleNames = {QStringLiteral("instruction #0"), QStringLiteral("instruction #1")};
        for (int c = 0; c < 2; ++c)
            for (int o = 0; o < 2; ++o) {
                RatioCurve curve{
                    QStringLiteral("%1 · #%2").arg(d.colorNames[c]).arg(o), {0.5}, {0.0}, c, false};
                curve.styleIndex = o;
                d.curves << curve;
            }
        RatioCurvesView view(QStringLiteral("T"), QStringLiteral("hint"));
        view.setData(d);
        QCPLegend* legend = nullptr;
        for (QCPLayoutElement* e : view.plot()->axisRects().first()->insetLayout()->elements(false))
            if (auto* l = qobject_cast<QCPLegend*>(e))
                legend = l;
        QVERIFY(legend);
        QCOMPARE(legend->itemCount(), 4);
        QSet<Qt::PenStyle> styles;
        QSet<QRgb> colours;
        for (int i = 0; i < view.plot()->graphCount(); ++i) {
            QCPGraph* g = view.plot()->graph(i);
            if (g->dataCount() == 0)
                continue; // a legend key
            styles.insert(g->pen().style());
            colours.insert(g->pen().color().rgb());
        }
        QCOMPARE(styles, (QSet<Qt::PenStyle>{Qt::SolidLine, Qt::DashLine}));
        QCOMPARE(colours.size(), 2);
    }

    void exportAndTitle()
    {
        RatioCurvesView view(QStringLiteral("Repair"), QStringLiteral("hint"));
        view.resize(600, 400);
        view.setData(sampleCurves());
        view.setTitle(QStringLiteral("Repair — run x"));
        QCOMPARE(view.title(), QStringLiteral("Repair — run x"));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("curves.png"));
        view.exportFigure(png, QSize(600, 400));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 600);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstRatioCurvesView)
#include "tst_ratiocurvesview.moc"
