// RunProcess against fake children (shell scripts printing the progress protocol);
// the New run dialog driving one is in tst_newrundialog.
#include "offscreentestmain.h"
#include "runprocess.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>
#include <signal.h>
#include <sys/types.h>

using namespace kvl;

namespace {

// Writes an executable /bin/sh script into dir and returns its path.
QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& body)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

const QByteArray threeSamples = "echo 'kvlens-cli run: 3 samples'\n"
                                "echo '{\"done\":1,\"total\":3,\"elapsed_s\":0.5,\"eta_s\":1.0,"
                                "\"accuracy\":1.0}'\n"
                                "echo '{\"done\":2,\"total\":3,\"elapsed_s\":1.0,\"eta_s\":0.5}'\n"
                                "echo 'warning: slow disk' >&2\n"
                                // last line without a newline
                                "printf '{\"done\":3,\"total\":3,\"elapsed_s\":1.5,\"eta_s\":0,"
                                "\"accuracy\":0.5}'\n"
                                "exit 0\n";

} // namespace

class TstRunProcess : public QObject
{
    Q_OBJECT
  private slots:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("done");
        QTest::addColumn<int>("total");
        QTest::addColumn<double>("elapsed");
        QTest::addColumn<double>("eta");      // NaN = absent
        QTest::addColumn<double>("accuracy"); // NaN = absent
        const double nan = std::nan("");
        QTest::newRow("full")
            << QByteArray(
                   "{\"done\":4,\"total\":10,\"elapsed_s\":2.5,\"eta_s\":3.75,\"accuracy\":0.5}")
            << true << 4 << 10 << 2.5 << 3.75 << 0.5;
        QTest::newRow("no accuracy, spaces")
            << QByteArray("  {\"total\": 7, \"done\": 0}  ") << true << 0 << 7 << 0.0 << nan << nan;
        QTest::newRow("log text") << QByteArray("loading model") << false << 0 << 0 << 0.0 << nan
                                  << nan;
        QTest::newRow("no total") << QByteArray("{\"done\":1}") << false << 0 << 0 << 0.0 << nan
                                  << nan;
        QTest::newRow("string done")
            << QByteArray("{\"done\":\"1\",\"total\":2}") << false << 0 << 0 << 0.0 << nan << nan;
        QTest::newRow("negative") << QByteArray("{\"done\":-1,\"total\":2}") << false << 0 << 0
                                  << 0.0 << nan << nan;
        QTest::newRow("truncated")
            << QByteArray("{\"done\":1,\"tot") << false << 0 << 0 << 0.0 << nan << nan;
    }
    void parse()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, valid);
        const auto p = RunProgress::parse(line);
        QCOMPARE(p.has_value(), valid);
        if (!valid)
            return;
        QTEST(p->done, "done");
        QTEST(p->total, "total");
        QTEST(p->elapsedS, "elapsed");
        QFETCH(double, eta);
        QFETCH(double, accuracy);
        QCOMPARE(std::isnan(p->etaS), std::isnan(eta));
        if (!std::isnan(eta))
            QCOMPARE(p->etaS, eta);
        QCOMPARE(std::isnan(p->accuracy), std::isnan(accuracy));
        if (!std::isnan(accuracy))
            QCOMPARE(p->accuracy, accuracy);
    }

    void progressFromFakeChild()
    {
        QTemporaryDir dir;
        const QString script = writeScript(dir, QStringLiteral("fake-cli"), threeSamples);
        RunProcess run;
        QSignalSpy progress(&run, &RunProcess::progressChanged);
        QSignalSpy logs(&run, &RunProcess::logLineAvailable);
        QSignalSpy finished(&run, &RunProcess::finished);
        run.start(script,
                  {QStringLiteral("run"), QStringLiteral("--out"), QStringLiteral("x.kvl")});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(progress.count(), 3);
        const auto first = progress.at(0).at(0).value<RunProgress>();
        QCOMPARE(first.done, 1);
        QCOMPARE(first.total, 3);
        QCOMPARE(first.accuracy, 1.0);
        const auto second = progress.at(1).at(0).value<RunProgress>();
        QCOMPARE(second.done, 2);
        QVERIFY(std::isnan(second.accuracy));
        QCOMPARE(second.etaS, 0.5);
        const auto last = progress.at(2).at(0).value<RunProgress>();
        QCOMPARE(last.done, 3);
        QCOMPARE(last.accuracy, 0.5);
        QCOMPARE(run.lastProgress().done, 3);
        QStringList logLines;
        for (const auto& args : logs)
            logLines << args.at(0).toString();
        QVERIFY(logLines.contains(QStringLiteral("kvlens-cli run: 3 samples")));
        QVERIFY(logLines.contains(QStringLiteral("warning: slow disk")));
        QCOMPARE(finished.at(0).at(0).toBool(), true); // ok
        QCOMPARE(finished.at(0).at(1).toInt(), 0);
        QCOMPARE(finished.at(0).at(2).toBool(), false); // not cancelled
        QVERIFY(!run.isRunning());
    }

    void failingChildReportsExitCode()
    {
        QTemporaryDir dir;
        const QString script =
            writeScript(dir, QStringLiteral("fail"), "echo 'error: model not found' >&2\nexit 3\n");
        RunProcess run;
        QSignalSpy finished(&run, &RunProcess::finished);
        run.start(script, {});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(0).at(1).toInt(), 3);
        QVERIFY(run.stderrText().contains(QLatin1String("model not found")));
    }

    void cancelTerminatesChild()
    {
        QTemporaryDir dir;
        // exec: the shell becomes the long sleep, so SIGTERM reaches the "sweep" itself.
        const QString script = writeScript(
            dir, QStringLiteral("slow"),
            "echo '{\"done\":1,\"total\":100,\"elapsed_s\":1,\"eta_s\":99}'\nexec sleep 60\n");
        RunProcess run;
        QSignalSpy progress(&run, &RunProcess::progressChanged);
        QSignalSpy finished(&run, &RunProcess::finished);
        run.start(script, {});
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 1, 10000);
        const qint64 pid = run.processId();
        QVERIFY(pid > 0);
        QVERIFY(run.isRunning());
        QElapsedTimer timer;
        timer.start();
        run.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY2(timer.elapsed() < 4000, "terminated by SIGTERM, not by the kill fallback");
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(0).at(2).toBool(), true); // cancelled
        QVERIFY(run.wasCancelled());
        QVERIFY(!run.isRunning());
        QCOMPARE(::kill(pid_t(pid), 0), -1); // the child is gone
    }

    void cancelThenRestartKeepsTheNewChild()
    {
        // Resume right after Cancel: the cancelled child's kill fallback must not hit
        // the new child (it did: a resumed run died with SIGKILL a few seconds in).
        QTemporaryDir dir;
        const QString script = writeScript(
            dir, QStringLiteral("slow"),
            "echo '{\"done\":1,\"total\":100,\"elapsed_s\":1,\"eta_s\":99}'\nexec sleep 60\n");
        RunProcess run;
        QSignalSpy progress(&run, &RunProcess::progressChanged);
        QSignalSpy finished(&run, &RunProcess::finished);
        run.start(script, {});
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 1, 10000);
        run.cancel(600);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        run.start(script, {});
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 2, 10000);
        QTest::qWait(1200); // past the first cancel's kill fallback
        QVERIFY(run.isRunning());
        QCOMPARE(finished.count(), 1);
        run.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QCOMPARE(finished.at(1).at(2).toBool(), true);
    }

    void missingProgramFailsToStart()
    {
        RunProcess run;
        QSignalSpy failed(&run, &RunProcess::failedToStart);
        run.start(QStringLiteral("/nonexistent/kvlens-cli"), {});
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY(failed.at(0).at(0).toString().contains(QLatin1String("/nonexistent/kvlens-cli")));
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstRunProcess)
#include "tst_runprocess.moc"
