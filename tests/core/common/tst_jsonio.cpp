#include "common/error.h"
#include "common/jsonio.h"

#include <QTemporaryDir>
#include <QtTest>

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
    void missingFileNamesFile()
    {
        QVERIFY_THROWS_EXCEPTION(kvl::Error, kvl::readFileBytes(QStringLiteral("/nonexistent/x.json")));
    }
};

QTEST_GUILESS_MAIN(TestJsonIo)
#include "tst_jsonio.moc"
