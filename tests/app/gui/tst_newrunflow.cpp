// The New run flow with a real kvlens-cli child on the bundled model: the presses and
// parameters it lists, a tiny run started from the main window's dialog that lands in
// the views, and a run cancelled mid-way whose file opens and then resumes to the end.
#include "mainwindow.h"
#include "newrunchoices.h"
#include "newrundialog.h"
#include "offscreentestmain.h"
#include "pressinfo.h"
#include "pressparameterseditor.h"
#include "runprocess.h"
#include "store/runreader.h"
#include "storerunloader.h"

#include <QAction>
#include <QFileInfo>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace kvl;

namespace {

QString cli()
{
    // KVLENS_TEST_CLI: run against another build's kvlens-cli.
    return qEnvironmentVariable("KVLENS_TEST_CLI", QStringLiteral(KVLENS_CLI));
}

NewRunDialog* openDialog(MainWindow& window)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&New run…")) {
            a->trigger();
            break;
        }
    auto* dialog = window.findChild<NewRunDialog*>();
    if (dialog)
        dialog->setProgram(cli());
    return dialog;
}

NewRunChoices tinyRun(const QString& out, int n, const QString& tokens)
{
    NewRunChoices c;
    c.model = QStringLiteral("bundled");
    c.suites = {QStringLiteral("retrieval")};
    c.n = n;
    c.tokens = tokens;
    c.presses = {QStringLiteral("snapkv:window=8")};
    c.ratios = {QStringLiteral("0.5")};
    c.interventions = QStringLiteral("none");
    c.threads = 1;
    c.out = out;
    return c;
}

} // namespace

class TstNewRunFlow : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(cli()).isExecutable(),
                 qPrintable(cli() + QStringLiteral(": build kvlens-cli first")));
    }

    void pressesFromTheCli()
    {
        QProcess p;
        p.start(cli(), {QStringLiteral("presses"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QVector<PressInfo> presses = parsePressesJson(p.readAllStandardOutput(), cli());
        QVERIFY(presses.size() >= 10);
        const auto find = [&presses](const char* name) -> const PressInfo* {
            for (const PressInfo& x : presses)
                if (x.name == QLatin1String(name))
                    return &x;
            return nullptr;
        };
        const PressInfo* snapkv = find("snapkv");
        QVERIFY(snapkv);
        QCOMPARE(snapkv->kind, QStringLiteral("scorer"));
        QVERIFY(snapkv->param(QStringLiteral("window")));
        QCOMPARE(snapkv->param(QStringLiteral("window"))->type, PressParam::Type::Integer);
        QVERIFY(!snapkv->param(QStringLiteral("window"))->defaultValue.isEmpty());
        const PressInfo* expected = find("expected");
        QVERIFY(expected && expected->param(QStringLiteral("use_covariance")));
        QCOMPARE(expected->param(QStringLiteral("use_covariance"))->type, PressParam::Type::Bool);
        const PressInfo* adakv = find("adakv");
        QVERIFY(adakv && adakv->takesScorer() && !adakv->innerOptional());
        const PressInfo* pyramid = find("pyramidkv");
        QVERIFY(pyramid && pyramid->takesScorer() && pyramid->innerOptional());
        // The dialog's editor holds the same list, and a default-valued spec it builds
        // parses back into the same press.
        NewRunDialog dialog;
        dialog.setProgram(cli());
        QVERIFY(dialog.waitForChecks());
        QCOMPARE(dialog.pressEditor()->catalogue().size(), presses.size());
        QVERIFY(dialog.problems().join('\n').contains(QLatin1String("Choose a built-in suite")));
        QVERIFY(dialog.choices().model == QLatin1String("bundled"));
        // Development aid: look at the dialog with the real lists (KVLENS_SCREENSHOT_DIR).
        if (qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR")) {
            NewRunChoices c =
                tinyRun(QStringLiteral("/tmp/shot.kvl"), 2, QStringLiteral("128:160"));
            c.presses << QStringLiteral("adakv(knorm):alpha_safeguard=0.3");
            dialog.setChoices(c);
            dialog.pressEditor()->setCurrentPress(QStringLiteral("adakv"));
            QVERIFY(dialog.waitForChecks());
            dialog.show();
            dialog.grab().save(qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") +
                               QStringLiteral("/newrundialog-cli.png"));
        }
    }

    // The dialog's verdict on an existing run file and `kvlens-cli run`'s agree: both
    // come from store/runspecdifference. A tiny run is written by the CLI, then each
    // variant of its choices is judged by the dialog's check and run by the CLI.
    void sameExperimentAsTheCli_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("key"); // empty: the same experiment
        QTest::newRow("threads") << QStringLiteral("threads") << QString();
        QTest::newRow("ratio") << QStringLiteral("ratio") << QStringLiteral("ratios");
        // The seed is also each suite's generator seed under "samples", which sorts first.
        QTest::newRow("seed") << QStringLiteral("seed") << QStringLiteral("samples");
        QTest::newRow("press") << QStringLiteral("press") << QStringLiteral("compressors");
        QTest::newRow("tokens") << QStringLiteral("tokens") << QStringLiteral("samples");
    }
    void sameExperimentAsTheCli()
    {
        QFETCH(QString, change);
        QFETCH(QString, key);
        static QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("same.kvl"));
        const NewRunChoices base = tinyRun(out, 1, QStringLiteral("128:160"));
        if (!QFileInfo::exists(out)) {
            QProcess first;
            first.start(cli(), base.arguments());
            QVERIFY(first.waitForFinished(120000));
            QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
        }
        NewRunChoices variant = base;
        if (change == QLatin1String("threads"))
            variant.threads = 2;
        else if (change == QLatin1String("ratio"))
            variant.ratios = {QStringLiteral("0.75")};
        else if (change == QLatin1String("seed"))
            variant.seed = base.seed + 1;
        else if (change == QLatin1String("press"))
            variant.presses = {QStringLiteral("snapkv:window=16")};
        else
            variant.tokens = QStringLiteral("128:170");
        QVERIFY(variant.problems().isEmpty());
        const RunFileState state = inspectRunFile(out, variant.expectedSpec());
        QCOMPARE(state.detail, key);
        QCOMPARE(state.kind,
                 key.isEmpty() ? RunFileState::Kind::SameRun : RunFileState::Kind::OtherRun);
        QProcess run;
        run.start(cli(), variant.arguments());
        QVERIFY(run.waitForFinished(120000));
        const QString err = QString::fromUtf8(run.readAllStandardError());
        if (key.isEmpty()) {
            QVERIFY2(run.exitCode() == 0, qPrintable(err));
        } else {
            QVERIFY(run.exitCode() != 0);
            QVERIFY2(err.contains(QStringLiteral("differs in '%1'").arg(key)), qPrintable(err));
        }
    }

    void runLandsInTheViews()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("tiny.kvl"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        window.show();
        NewRunDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        dialog->setChoices(tinyRun(out, 2, QStringLiteral("128:160")));
        QVERIFY(dialog->waitForChecks());
        QVERIFY2(dialog->problems().isEmpty(), qPrintable(dialog->problems().join('\n')));
        QSignalSpy finished(dialog, &NewRunDialog::runFinished);
        QSignalSpy progress(dialog->process(), &RunProcess::progressChanged);
        QVERIFY(dialog->startRun());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(dialog->process()->stderrText()));
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.last().at(0).value<RunProgress>().total, 2);
        // The main window shows the finished run: both samples, FullCache and snapkv.
        QTRY_VERIFY_WITH_TIMEOUT(window.runData().path == out &&
                                     window.runData().status == QLatin1String("finished") &&
                                     !window.session()->isLoading(),
                                 30000);
        QVERIFY(!window.startPageShown());
        QCOMPARE(window.runData().sampleCount, qint64(2));
        bool snapkv = false;
        for (const ConfigChoice& c : window.runData().configs)
            snapkv |= c.compressor == QLatin1String("snapkv:window=8") && c.ratio == 0.5;
        QVERIFY(snapkv);
        // Started again on its own file: the same experiment, nothing left to run (the
        // file is inspected off the GUI thread).
        QVERIFY(dialog->waitForChecks());
        QCOMPARE(dialog->runFileState().kind, RunFileState::Kind::SameRun);
    }

    void cancelLeavesAResumableFile()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cancelled.kvl"));
        MainWindow window;
        window.setRunStages(storeRunStages());
        window.show();
        NewRunDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        const int n = 8;
        dialog->setChoices(tinyRun(out, n, QStringLiteral("600:700")));
        QVERIFY(dialog->waitForChecks());
        QVERIFY2(dialog->problems().isEmpty(), qPrintable(dialog->problems().join('\n')));
        QSignalSpy finished(dialog, &NewRunDialog::runFinished);
        QSignalSpy progress(dialog->process(), &RunProcess::progressChanged);
        QVERIFY(dialog->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, 120000);
        if (qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR"))
            dialog->grab().save(qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") +
                                QStringLiteral("/newrundialog-running.png"));
        dialog->cancelRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(1).toBool(), false);
        QVERIFY(dialog->process()->wasCancelled());

        // The partial file: some samples, not all, still "running".
        qint64 kept = 0;
        {
            RunReader reader(out);
            kept = reader.sampleCount();
            QCOMPARE(reader.runInfo().status, QStringLiteral("running"));
        }
        QVERIFY2(kept >= 1 && kept < n, qPrintable(QString::number(kept)));
        // It opens in the main window with the samples it has.
        QTRY_VERIFY_WITH_TIMEOUT(window.runData().path == out && !window.session()->isLoading(),
                                 30000);
        QCOMPARE(window.runData().sampleCount, kept);
        QVERIFY(window.lastError().isEmpty());

        // Resume: the same experiment, relaunched on the same file, runs the rest.
        QVERIFY(dialog->waitForChecks());
        QCOMPARE(dialog->runFileState().kind, RunFileState::Kind::SameRun);
        QCOMPARE(dialog->runFileState().finished, kept);
        bool resumeButton = false;
        for (QPushButton* b : dialog->findChildren<QPushButton*>())
            resumeButton |= b->text() == QLatin1String("Resume") && b->isEnabled();
        QVERIFY(resumeButton);
        progress.clear();
        QVERIFY(dialog->startRun());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QVERIFY2(finished.at(1).at(1).toBool(), qPrintable(dialog->process()->stderrText()));
        // The resumed run counts the kept samples as done from its first line on.
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.first().at(0).value<RunProgress>().done > kept);
        QCOMPARE(progress.last().at(0).value<RunProgress>().done, n);
        {
            RunReader reader(out);
            QCOMPARE(reader.sampleCount(), qint64(n));
            QCOMPARE(reader.runInfo().status, QStringLiteral("finished"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.runData().sampleCount == n &&
                                     window.runData().status == QLatin1String("finished"),
                                 30000);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstNewRunFlow)
#include "tst_newrunflow.moc"
