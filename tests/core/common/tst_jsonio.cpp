#include "common/error.h"
#include "common/jsonio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
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
};

QTEST_GUILESS_MAIN(TestJsonIo)
#include "tst_jsonio.moc"
