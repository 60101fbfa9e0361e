// Failure overlap of two sets and the exclusive intersections of several (the UpSet
// view's columns), against sets counted by hand.
#include "diagnose/failureoverlap.h"

#include <QtTest>

using namespace kvl;

using Sets = std::vector<std::set<qint64>>;
using Counts = std::map<std::vector<int>, qint64>;
Q_DECLARE_METATYPE(Sets)
Q_DECLARE_METATYPE(Counts)

class TstFailureOverlap : public QObject
{
    Q_OBJECT
  private slots:
    void pair()
    {
        const FailureOverlap o = failureOverlap({1, 2, 3}, {3, 4});
        QCOMPARE(o.aOnly, 2);
        QCOMPARE(o.bOnly, 1);
        QCOMPARE(o.both, 1);
        QCOMPARE(*o.jaccard, 0.25);
        QVERIFY(!failureOverlap({}, {}).jaccard);
    }

    void intersections_data()
    {
        QTest::addColumn<Sets>("sets");
        QTest::addColumn<Counts>("expected");
        // A {1,2,3}, B {3,4}, C {3,4,5}: 1, 2 under A alone; 3 under all; 4 under B and C;
        // 5 under C alone.
        QTest::newRow("three") << Sets{{1, 2, 3}, {3, 4}, {3, 4, 5}}
                               << Counts{{{0}, 2}, {{2}, 1}, {{1, 2}, 1}, {{0, 1, 2}, 1}};
        // Four sets A {10,11,14}, B {10,11}, C {10,12}, D {11,13,14}: 10 under A, B, C;
        // 11 under A, B, D; 12 under C; 13 under D; 14 under A, D.
        QTest::newRow("four")
            << Sets{{10, 11, 14}, {10, 11}, {10, 12}, {11, 13, 14}}
            << Counts{{{0, 1, 2}, 1}, {{0, 1, 3}, 1}, {{2}, 1}, {{3}, 1}, {{0, 3}, 1}};
        QTest::newRow("one empty set") << Sets{{1}, {}} << Counts{{{0}, 1}};
        QTest::newRow("none") << Sets{{}, {}} << Counts{};
    }
    void intersections()
    {
        QFETCH(Sets, sets);
        QFETCH(Counts, expected);
        const Counts counts = failureIntersections(sets);
        QCOMPARE(counts, expected);
        // The columns partition the union.
        std::set<qint64> all;
        for (const auto& s : sets)
            all.insert(s.begin(), s.end());
        qint64 total = 0;
        for (const auto& [members, count] : counts)
            total += count;
        QCOMPARE(total, qint64(all.size()));
    }
};

QTEST_GUILESS_MAIN(TstFailureOverlap)
#include "tst_failureoverlap.moc"
