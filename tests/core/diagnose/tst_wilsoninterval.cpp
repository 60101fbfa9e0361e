// Wilson score interval against values worked out by hand (z = 1.96).
#include "diagnose/wilsoninterval.h"

#include <QtTest>

#include <cmath>

using namespace kvl;

class TstWilsonInterval : public QObject
{
    Q_OBJECT
  private slots:
    void values_data()
    {
        QTest::addColumn<qint64>("successes");
        QTest::addColumn<qint64>("trials");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        // 5/6: p = 0.8333, z²/n = 0.6402; centre (0.8333 + 0.3201) / 1.6402 = 0.7032,
        // half 1.96 / 1.6402 · sqrt(0.02315 + 0.02668) = 0.2667.
        QTest::newRow("5 of 6") << qint64(5) << qint64(6) << 0.4365 << 0.9699;
        // 0/n: lo = 0, hi = (z²/n) / (1 + z²/n) = 0.38415 / 1.38415.
        QTest::newRow("0 of 10") << qint64(0) << qint64(10) << 0.0 << 0.2775;
        // n/n mirrors 0/n.
        QTest::newRow("10 of 10") << qint64(10) << qint64(10) << 0.7225 << 1.0;
        // 2/4: centre 0.5 (symmetric), half 1.96 / 1.9604 · sqrt(0.0625 + 0.0600) = 0.3500.
        QTest::newRow("2 of 4") << qint64(2) << qint64(4) << 0.1500 << 0.8500;
    }
    void values()
    {
        QFETCH(qint64, successes);
        QFETCH(qint64, trials);
        QFETCH(double, lo);
        QFETCH(double, hi);
        const RateInterval i = wilsonInterval(successes, trials);
        QVERIFY2(std::abs(i.lo - lo) < 1e-4, qPrintable(QString::number(i.lo, 'f', 6)));
        QVERIFY2(std::abs(i.hi - hi) < 1e-4, qPrintable(QString::number(i.hi, 'f', 6)));
        // The interval holds the observed rate.
        const double p = double(successes) / double(trials);
        QVERIFY(i.lo <= p && p <= i.hi);
    }

    void noTrialsOrBadCounts_data()
    {
        QTest::addColumn<qint64>("successes");
        QTest::addColumn<qint64>("trials");
        QTest::newRow("no trials") << qint64(0) << qint64(0);
        QTest::newRow("more successes than trials") << qint64(3) << qint64(2);
        QTest::newRow("negative") << qint64(-1) << qint64(2);
    }
    void noTrialsOrBadCounts()
    {
        QFETCH(qint64, successes);
        QFETCH(qint64, trials);
        const RateInterval i = wilsonInterval(successes, trials);
        QVERIFY(std::isnan(i.lo) && std::isnan(i.hi));
    }

    void narrowsWithMoreTrials()
    {
        // The same rate over more trials: a narrower interval.
        const RateInterval few = wilsonInterval(3, 4), many = wilsonInterval(300, 400);
        QVERIFY(many.hi - many.lo < (few.hi - few.lo) / 5);
    }
};

QTEST_GUILESS_MAIN(TstWilsonInterval)
#include "tst_wilsoninterval.moc"
