// FailureSetsView (UpSet): the count axes (intersection sizes, set sizes) tick at whole
// samples only, since a count of 2.5 samples cannot exist; a click on a column selects
// it and names its members and the other compressors.
#include "offscreentestmain.h"
#include "sampleviews.h"
#include "views/failuresetsview.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <cmath>

using namespace kvl;

namespace {

void click(QWidget* target, QPoint pos)
{
    for (QEvent::Type type : {QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
        QMouseEvent event(type, QPointF(pos), QPointF(target->mapToGlobal(pos)), Qt::LeftButton,
                          type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton,
                          Qt::NoModifier);
        QApplication::sendEvent(target, &event);
    }
}

} // namespace

class TstFailureSetsView : public QObject
{
    Q_OBJECT
  private slots:
    void countAxesTickAtWholeSamples()
    {
        FailureSetsView view;
        view.resize(900, 600);
        view.setData(sample::failureSets()); // counts 1-3: a default ticker steps by 0.5
        view.plot()->replot();
        int numericAxes = 0;
        for (QCPAxisRect* rect : view.plot()->axisRects())
            for (QCPAxis* axis : rect->axes()) {
                if (!axis->visible() || !axis->tickLabels() ||
                    axis->ticker().dynamicCast<QCPAxisTickerText>())
                    continue;
                ++numericAxes;
                const QVector<double> ticks = axis->tickVector();
                QVERIFY(!ticks.isEmpty());
                for (double t : ticks)
                    QVERIFY2(t == std::round(t), qPrintable(QString::number(t)));
            }
        QVERIFY(numericAxes >= 2); // the intersection sizes and the set sizes
    }

    void clickingAColumnSelectsItsIntersection()
    {
        FailureSetsView view;
        view.resize(900, 600);
        view.show();
        view.setData(sample::failureSets());
        view.plot()->replot();
        QSignalSpy spy(&view, &FailureSetsView::intersectionSelected);
        // Column 2 is {B, C}: B and C fail those samples, A does not.
        const QPoint at = view.columnCenter(2);
        QCOMPARE(view.columnAt(at), 2);
        click(view.plot(), at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy[0][0].toDouble(), 0.75);
        QCOMPARE(spy[0][1].toStringList(), QStringList({QStringLiteral("B"), QStringLiteral("C")}));
        QCOMPARE(spy[0][2].toStringList(), QStringList({QStringLiteral("A")}));
        QCOMPARE(view.selectedColumn(), 2);
        // The selected bar is drawn over the plain one.
        int bars = 0;
        for (int i = 0; i < view.plot()->plottableCount(); ++i)
            bars += qobject_cast<QCPBars*>(view.plot()->plottable(i)) != nullptr;
        QCOMPARE(bars, 3); // intersections, the selected one, set sizes
        // Outside every column: nothing happens; new data clears the selection.
        click(view.plot(), QPoint(2, 2));
        QCOMPARE(spy.count(), 1);
        view.setData(sample::failureSets());
        QCOMPARE(view.selectedColumn(), -1);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstFailureSetsView)
#include "tst_failuresetsview.moc"
