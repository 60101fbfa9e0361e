// The multihop answer format: written and read back, and where an answer leaves the
// gold chain.
#include "tasks/chainanswer.h"

#include <QtTest>

using namespace kvl;

class TestChainBreak : public QObject
{
    Q_OBJECT
  private slots:
    void chainBreakStep_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<int>("step");
        // Gold: Hotel = Sierra = Charlie = 2025 (three links; step 3 is the number).
        QTest::newRow("whole chain") << "Hotel = Sierra = Charlie = 2025" << -1;
        QTest::newRow("spacing and full stop") << "Hotel=Sierra =  charlie = 2025." << -1;
        QTest::newRow("first link wrong") << "Hotel = Tango = Yankee = 3816" << 1;
        QTest::newRow("second link wrong") << "Hotel = Sierra = Kilo = 2025" << 2;
        QTest::newRow("number wrong") << "Hotel = Sierra = Charlie = 2026" << 3;
        QTest::newRow("stopped after a link") << "Hotel = Sierra" << 2;
        QTest::newRow("another variable first") << "Tango = Yankee = 3816" << 0;
        QTest::newRow("bare value: nothing to locate") << "3816" << -1;
        QTest::newRow("empty") << "" << -1;
    }
    void chainBreakStep()
    {
        QFETCH(QString, answer);
        QFETCH(int, step);
        QCOMPARE(kvl::chainBreakStep(answer, QStringLiteral("Hotel = Sierra = Charlie = 2025")),
                 step);
    }

    void writtenAndReadBack()
    {
        const QStringList walk{QStringLiteral("Hotel"), QStringLiteral("Sierra"),
                               QStringLiteral("2025")};
        QCOMPARE(kvl::chainAnswer(walk), QStringLiteral("Hotel = Sierra = 2025"));
        QCOMPARE(kvl::chainSteps(kvl::chainAnswer(walk)), walk);
        QCOMPARE(kvl::chainSteps(QStringLiteral(" Hotel=Sierra =  2025. ")), walk);
        QCOMPARE(kvl::finalValue(QStringLiteral("Hotel = Sierra = 2025")), QStringLiteral("2025"));
        QCOMPARE(kvl::finalValue(QStringLiteral("2025")), QStringLiteral("2025"));
    }

    void goldThatIsNoChain()
    {
        QCOMPARE(kvl::chainBreakStep(QStringLiteral("A = 1"), QStringLiteral("4821")), -1);
        QCOMPARE(kvl::chainLinks(QStringLiteral("4821")), 0);
        QCOMPARE(kvl::chainLinks(QStringLiteral("Hotel = Sierra = 2025")), 2);
    }
};

QTEST_GUILESS_MAIN(TestChainBreak)
#include "tst_chainbreak.moc"
