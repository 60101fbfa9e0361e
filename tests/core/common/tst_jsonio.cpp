#include "common/error.h"
#include "common/jsonio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <limits>

class TestJsonIo : public QObject
{
    Q_OBJECT
  private slots:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        kvl::writeFileAtomically(path, R"({"x": 3})");
        QCOMPARE(kvl::readJsonObject(path).value(QStringLiteral("x")).toInt(), 3);
    }
    void malformedNamesFileAndOffset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        kvl::writeFileAtomically(path, R"({"x": )");
        try {
            kvl::readJsonObject(path);
            QFAIL("no error");
        } catch (const kvl::Error& e) {
            QVERIFY(e.message().contains(path));
            QVERIFY(e.message().contains(QStringLiteral("offset")));
        }
    }
    void refusesToReplaceLinksAndDirectories()
    {
        // Stand-ins for /dev/stdout (a link) and /dev/full (not a regular file), made in
        // a temporary directory so that a failure cannot damage the system.
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("target.json"));
        kvl::writeFileAtomically(target, "{}");
        const QString link = dir.filePath(QStringLiteral("link.json"));
        QVERIFY(QFile::link(target, link));
        const QString subdir = dir.filePath(QStringLiteral("sub"));
        QVERIFY(QDir().mkpath(subdir));
        for (const QString& path : {link, subdir}) {
            try {
                kvl::writeFileAtomically(path, "x");
                QFAIL("no error");
            } catch (const kvl::Error& e) {
                QVERIFY(e.message().startsWith(path + QStringLiteral(": ")));
            }
        }
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(kvl::readFileBytes(target), QByteArray("{}"));
    }
    void missingFileNamesFile()
    {
        QVERIFY_THROWS_EXCEPTION(kvl::Error,
                                 kvl::readFileBytes(QStringLiteral("/nonexistent/x.json")));
    }

    // Numbers become integers only when they are whole and exact (|x| <= 2^53); a huge
    // one (found by libFuzzer in an IFEval row's kwargs) is no integer, not undefined
    // behaviour.
    void wholeNumbers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("whole");
        QTest::addColumn<qint64>("value");
        QTest::newRow("3") << QByteArray("[3]") << true << qint64(3);
        QTest::newRow("-7") << QByteArray("[-7]") << true << qint64(-7);
        QTest::newRow("2^53") << QByteArray("[9007199254740992]") << true
                              << qint64(9007199254740992);
        QTest::newRow("2^54") << QByteArray("[18014398509481984]") << false << qint64(0);
        QTest::newRow("1e300") << QByteArray("[1e300]") << false << qint64(0);
        QTest::newRow("-1e300") << QByteArray("[-1e300]") << false << qint64(0);
        QTest::newRow("2.5") << QByteArray("[2.5]") << false << qint64(0);
        QTest::newRow("string") << QByteArray(R"(["3"])") << false << qint64(0);
        QTest::newRow("null") << QByteArray("[null]") << false << qint64(0);
    }
    void wholeNumbers()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, whole);
        QFETCH(qint64, value);
        const QJsonValue v = QJsonDocument::fromJson(json).array().at(0);
        const std::optional<qint64> n = kvl::jsonWholeNumber(v);
        QCOMPARE(n.has_value(), whole);
        if (whole)
            QCOMPARE(*n, value);
    }
    void nonFiniteIsNoWholeNumber()
    {
        QVERIFY(!kvl::jsonWholeNumber(QJsonValue(std::numeric_limits<double>::infinity())));
        QVERIFY(!kvl::jsonWholeNumber(QJsonValue(std::numeric_limits<double>::quiet_NaN())));
    }
};

QTEST_GUILESS_MAIN(TestJsonIo)
#include "tst_jsonio.moc"
