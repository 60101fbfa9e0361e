// AccuracyDeltaModel: the delta table of two compared runs. QAbstractItemModelTester
// over a reset; display text (signed Δ, 'not in A', '—'), raw numbers, and CSV equal
// to a hand-written expectation.
#include "offscreentestmain.h"
#include "views/accuracydeltamodel.h"

#include <QAbstractItemModelTester>

#include <cmath>

using namespace kvl;

namespace {

AccuracyDeltaTable table()
{
    AccuracyDeltaTable t;
    t.nameA = QStringLiteral("A: a (tiny)");
    t.nameB = QStringLiteral("B: b (tiny)");
    AccuracyDeltaRow full{QStringLiteral("FullCache"), 0.0, 2, 0.5, 1.0, 0.5, 0, 1, {}};
    AccuracyDeltaRow snap{QStringLiteral("SnapKV"), 0.5, 2, 0.5, 0.5, 0.0, 1, 1, {}};
    AccuracyDeltaRow tova;
    tova.compressor = QStringLiteral("TOVA");
    tova.ratio = 0.5;
    tova.missingFrom = QStringLiteral("A");
    AccuracyDeltaRow drop{QStringLiteral("KNorm"), 0.75, 4, 0.75, 0.25, -0.5, 2, 0, {}};
    t.rows = {full, snap, tova, drop};
    return t;
}

} // namespace

class TstAccuracyDeltaModel : public QObject
{
    Q_OBJECT
  private slots:
    void passesTheModelTester()
    {
        AccuracyDeltaModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(table());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(AccuracyDeltaModel::ColumnCount));
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }

    void displayAndRawValues_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("display");
        QTest::newRow("gain is signed") << 0 << int(AccuracyDeltaModel::Delta) << "+0.500";
        QTest::newRow("loss") << 3 << int(AccuracyDeltaModel::Delta) << "-0.500";
        QTest::newRow("no change") << 1 << int(AccuracyDeltaModel::Delta) << "0.000";
        QTest::newRow("missing in A") << 2 << int(AccuracyDeltaModel::AccuracyA) << "not in A";
        QTest::newRow("no pair: no accuracy")
            << 2 << int(AccuracyDeltaModel::AccuracyB) << QStringLiteral("—");
        QTest::newRow("no pair: no delta")
            << 2 << int(AccuracyDeltaModel::Delta) << QStringLiteral("—");
        QTest::newRow("n") << 3 << int(AccuracyDeltaModel::N) << "4";
        QTest::newRow("accuracy B") << 3 << int(AccuracyDeltaModel::AccuracyB) << "0.250";
    }
    void displayAndRawValues()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, display);
        AccuracyDeltaModel model;
        model.setTable(table());
        QCOMPARE(model.data(model.index(row, column)).toString(), display);
    }

    void rawNumbersForSorting()
    {
        AccuracyDeltaModel model;
        model.setTable(table());
        QCOMPARE(model.data(model.index(3, AccuracyDeltaModel::Delta), Qt::UserRole).toDouble(),
                 -0.5);
        QVERIFY(!model.data(model.index(2, AccuracyDeltaModel::Delta), Qt::UserRole).isValid());
    }

    void csvIsTheTable()
    {
        AccuracyDeltaModel model;
        model.setTable(table());
        QCOMPARE(model.csv(),
                 QStringLiteral("compressor,ratio,accuracy_a,accuracy_b,delta,n_matched,"
                                "only_a_correct,only_b_correct\n"
                                "FullCache,0,0.5,1,0.5,2,0,1\n"
                                "SnapKV,0.5,0.5,0.5,0,2,1,1\n"
                                "TOVA,0.5,,,,0,0,0\n"
                                "KNorm,0.75,0.75,0.25,-0.5,4,2,0\n"));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstAccuracyDeltaModel)
#include "tst_accuracydeltamodel.moc"
