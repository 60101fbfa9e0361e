// Column pooling: the aggregation that lets a long context be drawn one cell per pixel.
#include "offscreentestmain.h"
#include "views/asyncpooler.h"
#include "views/columnpooling.h"
#include "views/evictionmapview.h"
#include "views/heatmapview.h"

#include <QSignalSpy>

#include <cmath>
#include <limits>

using namespace kvl;

namespace {
const double kNan = std::numeric_limits<double>::quiet_NaN();

// 2 × 5, hand-built:
//   row 0: 1 5 2 NaN 3
//   row 1: 0 0 7 1   1
const QVector<double> matrix{1, 5, 2, kNan, 3, 0, 0, 7, 1, 1};

bool sameValues(const QVector<double>& got, const QVector<double>& want)
{
    if (got.size() != want.size())
        return false;
    for (int i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]) != std::isnan(got[i]))
            return false;
        if (!std::isnan(want[i]) && std::abs(got[i] - want[i]) > 1e-12)
            return false;
    }
    return true;
}
} // namespace

class TstColumnPooling : public QObject
{
    Q_OBJECT
  private slots:
    void pool_data()
    {
        QTest::addColumn<int>("maxBins");
        QTest::addColumn<int>("mode");
        QTest::addColumn<QVector<int>>("edges");
        QTest::addColumn<QVector<double>>("expected");
        // bins = 2: edges 0, floor(5/2) = 2, 5 → [0,2) and [2,5)
        QTest::newRow("max, 2 bins")
            << 2 << int(PoolMode::Max) << QVector<int>{0, 2, 5} << QVector<double>{5, 3, 0, 7};
        QTest::newRow("mean, 2 bins")
            << 2 << int(PoolMode::Mean) << QVector<int>{0, 2, 5} << QVector<double>{3, 2.5, 0, 3};
        // bins = 3: edges 0, floor(5/3) = 1, floor(10/3) = 3, 5
        QTest::newRow("max, 3 bins") << 3 << int(PoolMode::Max) << QVector<int>{0, 1, 3, 5}
                                     << QVector<double>{1, 5, 3, 0, 7, 1};
        QTest::newRow("max, 1 bin")
            << 1 << int(PoolMode::Max) << QVector<int>{0, 5} << QVector<double>{5, 7};
        // More bins than columns: every column is its own bin, values unchanged.
        QTest::newRow("identity") << 10 << int(PoolMode::Max) << QVector<int>{0, 1, 2, 3, 4, 5}
                                  << matrix;
    }
    void pool()
    {
        QFETCH(int, maxBins);
        QFETCH(int, mode);
        QFETCH(QVector<int>, edges);
        QFETCH(QVector<double>, expected);
        const PooledGrid grid = poolColumns(matrix, 2, 5, maxBins, PoolMode(mode));
        QCOMPARE(grid.rows, 2);
        QCOMPARE(grid.bins, int(edges.size()) - 1);
        QCOMPARE(grid.edges, edges);
        QVERIFY2(sameValues(grid.values, expected), "pooled values differ");
        QVERIFY(grid.flaggedFraction.isEmpty());
    }

    void binWidthTextNamesNarrowestAndWidest()
    {
        // 5 columns: 2 bins are [0,2) and [2,5), 5 bins one column each.
        QCOMPARE(binWidthText(poolColumns(matrix, 2, 5, 2, PoolMode::Max)), QStringLiteral("2-3"));
        QCOMPARE(binWidthText(poolColumns(matrix, 2, 5, 5, PoolMode::Max)), QStringLiteral("1"));
        // 513 positions in 512 bins: one bin merges two, as the eviction map draws them.
        const QVector<double> wide(513, 0.5);
        QCOMPARE(binWidthText(poolColumns(wide, 1, 513, 512, PoolMode::Mean)),
                 QStringLiteral("1-2"));
        const QVector<double> even(2048, 0.5);
        QCOMPARE(binWidthText(poolColumns(even, 1, 2048, 512, PoolMode::Mean)),
                 QStringLiteral("4"));
    }

    void flaggedFraction()
    {
        // row 0 flags: F T T F F → [0,2): 1/2, [2,5): 1/3
        // row 1 flags: T T T T F → [0,2): 2/2, [2,5): 2/3
        const QVector<bool> flags{false, true, true, false, false, true, true, true, true, false};
        const PooledGrid grid = poolColumns(matrix, 2, 5, 2, PoolMode::Max, flags);
        QVERIFY(sameValues(grid.flaggedFraction, {0.5, 1.0 / 3, 1.0, 2.0 / 3}));
    }

    void allNanBinStaysNan()
    {
        const PooledGrid grid = poolColumns({kNan, kNan, 4}, 1, 3, 2, PoolMode::Max);
        QCOMPARE(grid.edges, (QVector<int>{0, 1, 3}));
        QVERIFY(sameValues(grid.values, {kNan, 4}));
    }

    void longContextKeepsASpike()
    {
        // 3 × 100000 positions pooled to 1000 bins of exactly 100 positions each.
        const int cols = 100000;
        QVector<double> values(3 * cols, 0.01);
        values[1 * cols + 54321] = 9.0;
        const PooledGrid grid = poolColumns(values, 3, cols, 1000, PoolMode::Max);
        QCOMPARE(grid.bins, 1000);
        QCOMPARE(grid.values.size(), 3000);
        QCOMPARE(grid.edges[543], 54300);
        QCOMPARE(grid.value(1, 543), 9.0);
        QCOMPARE(grid.value(1, 542), 0.01);
        QCOMPARE(grid.value(0, 543), 0.01);
    }

    void invalidInputGivesEmptyGrid()
    {
        QCOMPARE(poolColumns({1, 2, 3}, 2, 5, 2, PoolMode::Max).bins, 0);
        QCOMPARE(poolColumns({}, 0, 0, 2, PoolMode::Max).rows, 0);
    }

    void binOfColumn_data()
    {
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("bin");
        QTest::newRow("first") << 0 << 0;
        QTest::newRow("end of bin 0") << 1 << 0;
        QTest::newRow("start of bin 1") << 2 << 1;
        QTest::newRow("last") << 4 << 1;
    }
    void binOfColumn()
    {
        QFETCH(int, col);
        QFETCH(int, bin);
        QCOMPARE(kvl::binOfColumn({0, 2, 5}, col), bin);
    }

    void heatmapViewDrawsPooledGrid()
    {
        Heatmap h;
        h.rows = 2;
        h.cols = 5;
        h.values = matrix;
        HeatmapView view;
        view.setMaxBins(2);
        view.setData(h);
        QVERIFY(view.hasData());
        QCOMPARE(view.pooled().bins, 2);
        QVERIFY(sameValues(view.pooled().values, {5, 3, 0, 7}));
    }

    void largeMatrixPoolsOffThread()
    {
        // 4 × 400000 = 1.6M cells, above the synchronous limit.
        const int rows = 4, cols = 400000;
        QVERIFY(qsizetype(rows) * cols > AsyncPooler::syncLimit);
        Heatmap h;
        h.rows = rows;
        h.cols = cols;
        h.values = QVector<double>(qsizetype(rows) * cols, 0.0);
        h.values[2 * qsizetype(cols) + 123456] = 5.0; // bin 123456 / 4000 = 30 of 100
        HeatmapView view;
        view.setMaxBins(100);
        view.setData(h);
        QTRY_COMPARE_WITH_TIMEOUT(view.pooled().bins, 100, 10000);
        QCOMPARE(view.pooled().value(2, 30), 5.0);
        QCOMPARE(view.pooled().value(2, 29), 0.0);
        QCOMPARE(view.pooled().value(1, 30), 0.0);
    }

    void supersededRequestIsDropped()
    {
        const int rows = 2, cols = 600000;
        QVector<double> first(qsizetype(rows) * cols, 1.0);
        QVector<double> second(qsizetype(rows) * cols, 2.0);
        AsyncPooler pooler;
        QSignalSpy spy(&pooler, &AsyncPooler::pooledAvailable);
        QVERIFY(!pooler.request(first, rows, cols, 10, PoolMode::Max).has_value());
        QVERIFY(!pooler.request(second, rows, cols, 10, PoolMode::Max).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!pooler.isBusy(), 10000);
        QTest::qWait(200); // a late result of the first request would arrive here
        QCOMPARE(spy.count(), 1);
        const auto grid = spy.at(0).at(0).value<PooledGrid>();
        QCOMPARE(grid.value(0, 0), 2.0);
    }

    void smallMatrixPoolsAtOnce()
    {
        AsyncPooler pooler;
        const auto grid = pooler.request(matrix, 2, 5, 2, PoolMode::Max);
        QVERIFY(grid.has_value());
        QVERIFY(sameValues(grid->values, {5, 3, 0, 7}));
    }

    void evictionMapMeanPools()
    {
        EvictionMap e;
        e.layers = 2;
        e.positions = 5;
        e.keep = {1, 0, 0.5, 0.5, 0.5, 0, 0, 1, 1, 0};
        EvictionMapView view;
        view.setMaxBins(2); // [0,2) and [2,5): means (1+0)/2, 1.5/3; 0, 2/3
        view.setData(e);
        QVERIFY(sameValues(view.pooled().values, {0.5, 0.5, 0.0, 2.0 / 3}));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstColumnPooling)
#include "tst_columnpooling.moc"
