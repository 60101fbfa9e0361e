// Plain data helpers of the views: cliff ratio, CSV text, provenance line.
#include "offscreentestmain.h"
#include "views/accuracydata.h"
#include "views/csvtable.h"
#include "views/provenance.h"

#include <cmath>

using namespace kvl;

class TstViewData : public QObject
{
    Q_OBJECT
  private slots:
    void cliffRatio_data()
    {
        QTest::addColumn<QVector<double>>("ratios");
        QTest::addColumn<QVector<double>>("accuracy");
        QTest::addColumn<double>("cliff"); // NaN = none
        // slopes: (0.7-0.8)/0.25 = -0.4, (0.2-0.7)/0.25 = -2.0 → cliff at 0.75
        QTest::newRow("steepest last")
            << QVector<double>{0.25, 0.5, 0.75} << QVector<double>{0.8, 0.7, 0.2} << 0.75;
        // Same points given unsorted.
        QTest::newRow("unsorted") << QVector<double>{0.5, 0.25, 0.75}
                                  << QVector<double>{0.7, 0.8, 0.2} << 0.75;
        // slopes: -0.4/0.4 = -1.0 over [0.1,0.5], -0.1/0.4 = -0.25 over [0.5,0.9]
        QTest::newRow("steepest first")
            << QVector<double>{0.1, 0.5, 0.9} << QVector<double>{0.9, 0.5, 0.4} << 0.5;
        // Uneven spacing: drop 0.1 over 0.05 (-2.0) is steeper than 0.3 over 0.4 (-0.75).
        QTest::newRow("per unit ratio")
            << QVector<double>{0.1, 0.5, 0.55} << QVector<double>{0.9, 0.6, 0.5} << 0.55;
        QTest::newRow("rising") << QVector<double>{0.25, 0.5} << QVector<double>{0.5, 0.6}
                                << std::nan("");
        QTest::newRow("one point") << QVector<double>{0.5} << QVector<double>{0.5} << std::nan("");
        QTest::newRow("empty") << QVector<double>{} << QVector<double>{} << std::nan("");
    }
    void cliffRatio()
    {
        QFETCH(QVector<double>, ratios);
        QFETCH(QVector<double>, accuracy);
        QFETCH(double, cliff);
        const double got = kvl::cliffRatio({QStringLiteral("x"), ratios, accuracy});
        if (std::isnan(cliff))
            QVERIFY(std::isnan(got));
        else
            QCOMPARE(got, cliff);
    }

    void cliffNeedsSeparatedIntervals()
    {
        // n = 12 per point: a drop from 0.75 to 0.5 with Wilson intervals [0.47, 0.91]
        // and [0.25, 0.75] overlapping is not a cliff; the same drop with n = 400
        // ([0.70, 0.79] and [0.45, 0.55]) is.
        AccuracyCurve small{QStringLiteral("x"), {0.25, 0.75}, {0.75, 0.5}};
        small.lo = {0.47, 0.25};
        small.hi = {0.91, 0.75};
        QVERIFY(std::isnan(kvl::cliffRatio(small)));
        AccuracyCurve large = small;
        large.lo = {0.70, 0.45};
        large.hi = {0.79, 0.55};
        QCOMPARE(kvl::cliffRatio(large), 0.75);
        // The steepest separated drop wins over a steeper one the intervals do not separate.
        AccuracyCurve mixed{QStringLiteral("x"), {0.25, 0.5, 0.75}, {0.9, 0.8, 0.3}};
        mixed.lo = {0.85, 0.75, 0.1};
        mixed.hi = {0.95, 0.84, 0.8};
        // 0.5 → 0.75 falls 0.5 but [0.1, 0.8] overlaps [0.75, 0.85]; 0.25 → 0.5 separates.
        QCOMPARE(kvl::cliffRatio(mixed), 0.5);
    }

    void csvEscape_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("escaped");
        QTest::newRow("plain") << "SnapKV"
                               << "SnapKV";
        QTest::newRow("comma") << "AdaKV(SnapKV, 0.2)"
                               << "\"AdaKV(SnapKV, 0.2)\"";
        QTest::newRow("quote") << "say \"hi\""
                               << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb"
                                 << "\"a\nb\"";
        QTest::newRow("empty") << ""
                               << "";
    }
    void csvEscape()
    {
        QFETCH(QString, field);
        QFETCH(QString, escaped);
        QCOMPARE(CsvTable::escape(field), escaped);
    }

    void csvNumbers()
    {
        QCOMPARE(CsvTable::number(0.25), QStringLiteral("0.25"));
        QCOMPARE(CsvTable::number(1.0), QStringLiteral("1"));
        QCOMPARE(CsvTable::number(1.0 / 3), QStringLiteral("0.3333333333"));
        QCOMPARE(CsvTable::number(std::nan("")), QString());
        CsvTable t({QStringLiteral("a"), QStringLiteral("b")});
        t.add(QStringLiteral("x,y")).add(2).endRow();
        QCOMPARE(t.text(), QStringLiteral("a,b\n\"x,y\",2\n"));
    }

    void provenanceText()
    {
        Provenance p;
        QVERIFY(p.isEmpty());
        QCOMPARE(p.toText(), QString());
        p.run = QStringLiteral("ruler.kvl");
        p.model = QStringLiteral("Qwen3-8B");
        p.compressor = QStringLiteral("SnapKV");
        p.ratio = 0.75;
        p.layer = 3;
        p.head = 0;
        QCOMPARE(p.toText(), QStringLiteral("run: ruler.kvl · model: Qwen3-8B · compressor: SnapKV "
                                            "· ratio: 0.75 · layer: 3 · head: 0"));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstViewData)
#include "tst_viewdata.moc"
