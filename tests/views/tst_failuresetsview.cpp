// FailureSetsView (UpSet): the count axes (intersection sizes, set sizes) tick at whole
// samples only, since a count of 2.5 samples cannot exist.
#include "offscreentestmain.h"
#include "sampleviews.h"
#include "views/failuresetsview.h"

#include <qcustomplot.h>

#include <cmath>

using namespace kvl;

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
};

KVL_OFFSCREEN_TEST_MAIN(TstFailureSetsView)
#include "tst_failuresetsview.moc"
