// RunLauncher, the one way the window launches a sweep (New run dialog, demo): the run
// file is announced once per start as soon as samples land in it, whether the child
// prints progress lines or not, and a second start announces again.
#include "guirunfixture.h"
#include "runlauncher.h"
#include "runprocess.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TstRunLauncher : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = m_dir.filePath(QStringLiteral("fixture.kvl"));
        guitest::writeRun(m_fixture, {0, 1});
    }

    void announcesOncePerStart_data()
    {
        QTest::addColumn<QString>("progress");
        QTest::newRow("progress lines")
            << QStringLiteral("echo '{\"done\": 1, \"total\": 2}'\n"
                              "echo '{\"done\": 2, \"total\": 2}'\nsleep 1\n");
        // Found by polling the file before the child exits.
        QTest::newRow("no progress lines") << QStringLiteral("sleep 3\n");
    }
    void announcesOncePerStart()
    {
        QFETCH(QString, progress);
        const QString out = m_dir.filePath(QStringLiteral("out.kvl"));
        QFile::remove(out);
        const QString script = m_dir.filePath(QStringLiteral("cli.sh"));
        QFile s(script);
        QVERIFY(s.open(QIODevice::WriteOnly | QIODevice::Truncate));
        s.write(QStringLiteral("#!/bin/sh\ncp '%1' \"$2\"\n%2").arg(m_fixture, progress).toUtf8());
        s.close();
        s.setPermissions(s.permissions() | QFile::ExeOwner);

        RunLauncher launcher;
        QSignalSpy ready(&launcher, &RunLauncher::runFileReady);
        QSignalSpy finished(&launcher, &RunLauncher::finished);
        for (int round = 1; round <= 2; ++round) {
            QVERIFY(launcher.start(script, {QStringLiteral("run"), out}, out));
            QVERIFY(!launcher.start(script, {QStringLiteral("run"), out}, out)); // one at a time
            QTRY_COMPARE_WITH_TIMEOUT(ready.count(), round, 5000);
            QCOMPARE(ready.last().at(0).toString(), out);
            QVERIFY(launcher.isRunning()); // announced while the child still runs
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), round, 8000);
            QVERIFY(finished.last().at(0).toBool());
            QCOMPARE(ready.count(), round); // once per start
        }
    }

    void cancelKeepsNothingRunning()
    {
        const QString script = m_dir.filePath(QStringLiteral("slow.sh"));
        QFile s(script);
        QVERIFY(s.open(QIODevice::WriteOnly | QIODevice::Truncate));
        s.write("#!/bin/sh\nexec sleep 30\n");
        s.close();
        s.setPermissions(s.permissions() | QFile::ExeOwner);
        RunLauncher launcher;
        QSignalSpy ready(&launcher, &RunLauncher::runFileReady);
        QSignalSpy finished(&launcher, &RunLauncher::finished);
        QVERIFY(launcher.start(script, {}, m_dir.filePath(QStringLiteral("never.kvl"))));
        launcher.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        QVERIFY(!launcher.isRunning());
        QCOMPARE(ready.count(), 0);
    }

  private:
    QTemporaryDir m_dir;
    QString m_fixture;
};

QTEST_GUILESS_MAIN(TstRunLauncher)
#include "tst_runlauncher.moc"
