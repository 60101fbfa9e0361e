// The New run dialog against a fake kvlens-cli (fakecli.h): the argument list its
// choices build, the checks that refuse bad input before launch, the press editor,
// and the run file's verdict (new, same experiment = resume, another = refused).
#include "common/sweepwords.h"
#include "fakecli.h"
#include "newrunchoices.h"
#include "newrundialog.h"
#include "offscreentestmain.h"
#include "pressinfo.h"
#include "pressparameterseditor.h"
#include "runprocess.h"
#include "store/runspecdifference.h"
#include "store/runwriter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

using namespace kvl;

Q_DECLARE_METATYPE(kvl::NewRunChoices)

namespace {

NewRunChoices base(const QString& out)
{
    NewRunChoices c;
    c.model = QStringLiteral("bundled");
    c.suites = {QStringLiteral("retrieval")};
    c.n = 2;
    c.tokens = QStringLiteral("128:160");
    c.presses = {QStringLiteral("snapkv:window=8")};
    c.ratios = {QStringLiteral("0.5")};
    c.out = out;
    return c;
}

QPushButton* button(const NewRunDialog& dialog, const QString& text)
{
    for (QPushButton* b : dialog.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

} // namespace

class TstNewRunDialog : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void arguments_data()
    {
        QTest::addColumn<NewRunChoices>("choices");
        QTest::addColumn<QStringList>("expected");
        const QString out = m_dir.filePath(QStringLiteral("a.kvl"));
        QTest::newRow("bundled, one suite, one press")
            << base(out)
            << QStringList{"run", "--model",  "bundled", "--suite", "retrieval",       "-n",
                           "2",   "--tokens", "128:160", "--press", "snapkv:window=8", "--ratios",
                           "0.5", "--out",    out};
        NewRunChoices files = base(out);
        files.model = QStringLiteral("/models/Qwen3-8B");
        files.suites.clear();
        files.datasets = {QStringLiteral("/d/a.jsonl"), QStringLiteral("/d/b.jsonl")};
        files.presses = {QStringLiteral("snapkv:window=64,kernel=7"),
                         QStringLiteral("adakv(knorm):alpha_safeguard=0.3")};
        files.ratios = {QStringLiteral("0.25"), QStringLiteral("0.5")};
        files.seed = 7;
        files.interventions = QStringLiteral("low_ear");
        files.beta = 2.0;
        files.storeAttention = QStringLiteral("all");
        files.maxNewTokens = 32;
        files.threads = 4;
        QTest::newRow("JSONL files, two presses, every option")
            << files
            << QStringList{"run",
                           "--model",
                           "/models/Qwen3-8B",
                           "--dataset",
                           "/d/a.jsonl",
                           "--dataset",
                           "/d/b.jsonl",
                           "--press",
                           "snapkv:window=64,kernel=7",
                           "--press",
                           "adakv(knorm):alpha_safeguard=0.3",
                           "--ratios",
                           "0.25,0.5",
                           "--seed",
                           "7",
                           "--interventions",
                           "low_ear",
                           "--beta",
                           "2",
                           "--store-attention",
                           "all",
                           "--max-new-tokens",
                           "32",
                           "--threads",
                           "4",
                           "--out",
                           out};
        NewRunChoices variant = base(out);
        variant.suites = {QStringLiteral("multihop")};
        variant.variant = QStringLiteral("hops3");
        variant.tokens = QStringLiteral("300");
        variant.interventions = QStringLiteral("none");
        variant.beta = 2.0; // no boost runs: no --beta
        variant.presses.clear();
        variant.ratios.clear();
        QTest::newRow("one variant, FullCache only, no interventions")
            << variant << QStringList{"run",      "--model",   "bundled", "--suite",
                                      "multihop", "-n",        "2",       "--tokens",
                                      "300",      "--variant", "hops3",   "--interventions",
                                      "none",     "--out",     out};
    }
    void arguments()
    {
        QFETCH(NewRunChoices, choices);
        QFETCH(QStringList, expected);
        QCOMPARE(choices.arguments(), expected);
        // The dialog's widgets hold the same choices and build the same list.
        NewRunDialog dialog;
        dialog.setProgram(guitest::writeFakeCli(m_dir));
        QVERIFY(dialog.waitForChecks());
        dialog.setChoices(choices);
        QVERIFY(dialog.waitForChecks());
        QCOMPARE(dialog.choices(), choices);
        QCOMPARE(dialog.arguments(), expected);
        // The command shown for a shell: quoted where a shell would split or glob.
        const QString command = dialog.commandLine();
        QVERIFY(command.startsWith(dialog.program() + QStringLiteral(" run --model ")));
        if (choices.presses.contains(QStringLiteral("adakv(knorm):alpha_safeguard=0.3")))
            QVERIFY(command.contains(QStringLiteral("'adakv(knorm):alpha_safeguard=0.3'")));
        QCOMPARE(dialog.findChild<QPlainTextEdit*>(QStringLiteral("CommandLine"))->toPlainText(),
                 command);
    }

    void shellQuoting()
    {
        QCOMPARE(shellCommand(QStringLiteral("/bin/kvlens-cli"),
                              {QStringLiteral("run"), QStringLiteral("--out"),
                               QStringLiteral("/my runs/it's.kvl")}),
                 QStringLiteral("/bin/kvlens-cli run --out '/my runs/it'\\''s.kvl'"));
    }

    void validationRefuses_data()
    {
        QTest::addColumn<NewRunChoices>("choices");
        QTest::addColumn<int>("part");
        QTest::addColumn<QString>("message");
        // false: the form's widget cannot hold the bad value at all (a spin box's minimum,
        // a combo box's fixed items).
        QTest::addColumn<bool>("formHoldsIt");
        const QString out = m_dir.filePath(QStringLiteral("v.kvl"));
        using P = NewRunProblem::Part;
        const auto row = [&](const char* name, auto change, P part, const char* message) {
            NewRunChoices c = base(out);
            change(c);
            const bool held =
                c.n >= 1 && (c.interventions.isEmpty() ||
                             NewRunChoices::interventionTargets().contains(c.interventions));
            QTest::newRow(name) << c << int(part) << QString::fromUtf8(message) << held;
        };
        row(
            "no model", [](NewRunChoices& c) { c.model.clear(); }, P::Model, "Choose the bundled");
        row(
            "no samples", [](NewRunChoices& c) { c.suites.clear(); }, P::Samples,
            "Choose a built-in suite");
        row(
            "reversed tokens", [](NewRunChoices& c) { c.tokens = QStringLiteral("512:256"); },
            P::Samples, "is not MIN:MAX");
        row(
            "zero samples", [](NewRunChoices& c) { c.n = 0; }, P::Samples, "at least 1");
        row(
            "missing JSONL", [](NewRunChoices& c) { c.datasets = {QStringLiteral("/nope.jsonl")}; },
            P::Samples, "no such file");
        row(
            "press twice", [](NewRunChoices& c) { c.presses << c.presses.first(); }, P::Presses,
            "listed twice");
        row(
            "ratio 1", [](NewRunChoices& c) { c.ratios = {QStringLiteral("1")}; }, P::Ratios,
            "in [0, 1)");
        row(
            "ratio text", [](NewRunChoices& c) { c.ratios = {QStringLiteral("half")}; }, P::Ratios,
            "not a number");
        row(
            "ratio twice", [](NewRunChoices& c) { c.ratios << QStringLiteral("0.50"); }, P::Ratios,
            "listed twice");
        row(
            "press without ratio", [](NewRunChoices& c) { c.ratios.clear(); }, P::Ratios,
            "at least one ratio");
        row(
            "unknown target", [](NewRunChoices& c) { c.interventions = QStringLiteral("most"); },
            P::Options, "Unknown intervention");
        row(
            "no run file", [](NewRunChoices& c) { c.out.clear(); }, P::Output, "Choose a run file");
        row(
            "no such folder",
            [](NewRunChoices& c) { c.out = QStringLiteral("/no/such/folder/x.kvl"); }, P::Output,
            "does not exist");
    }
    void validationRefuses()
    {
        QFETCH(NewRunChoices, choices);
        QFETCH(int, part);
        QFETCH(QString, message);
        QVERIFY(base(m_dir.filePath(QStringLiteral("v.kvl"))).problems().isEmpty());
        const QVector<NewRunProblem> problems = choices.problems();
        QVERIFY(!problems.isEmpty());
        bool found = false;
        for (const NewRunProblem& p : problems)
            found |= int(p.part) == part && p.message.contains(message);
        QVERIFY2(found, qPrintable(problems.first().message));
        // The dialog refuses to launch and says why.
        QFETCH(bool, formHoldsIt);
        NewRunDialog dialog;
        dialog.setProgram(guitest::writeFakeCli(m_dir));
        dialog.setChoices(choices);
        QVERIFY(dialog.waitForChecks());
        if (!formHoldsIt) {
            QVERIFY(dialog.choices() != choices);
            QVERIFY(dialog.choices().problems().isEmpty());
            return;
        }
        QVERIFY(!dialog.problems().isEmpty());
        QVERIFY(!dialog.startRun());
        QVERIFY(!dialog.process()->isRunning());
    }

    // The dialog and `kvlens-cli run` refuse the same mistake in the same words
    // (core/common/sweepwords): the dialog's own command line, given to the real CLI,
    // fails naming the phrase the dialog shows as a sentence.
    void sameWordsAsTheCli_data()
    {
        QTest::addColumn<NewRunChoices>("choices");
        QTest::addColumn<QString>("phrase");
        const NewRunChoices ok = base(m_dir.filePath(QStringLiteral("w.kvl")));
        NewRunChoices c = ok;
        c.ratios = {QStringLiteral("1.5")};
        QTest::newRow("ratio 1.5") << c << sweepwords::ratioOutOfRange(QStringLiteral("1.5"));
        c = ok;
        c.ratios = {QStringLiteral("half")};
        QTest::newRow("ratio text") << c << sweepwords::notANumber(QStringLiteral("half"));
        c = ok;
        c.ratios = {QStringLiteral("0.5"), QStringLiteral("0.5")};
        QTest::newRow("ratio twice") << c << sweepwords::listedTwice(QStringLiteral("0.5"));
        c = ok;
        c.ratios.clear();
        QTest::newRow("no ratio") << c << sweepwords::pressesNeedRatios();
        c = ok;
        c.tokens = QStringLiteral("512:256");
        QTest::newRow("tokens") << c << sweepwords::badTokenRange(QStringLiteral("512:256"));
    }
    void sameWordsAsTheCli()
    {
        QFETCH(NewRunChoices, choices);
        QFETCH(QString, phrase);
        QStringList shown;
        for (const NewRunProblem& p : choices.problems())
            shown << p.message;
        QVERIFY2(shown.contains(sweepwords::asSentence(phrase)), qPrintable(shown.join(" | ")));
        const QString cli = QStringLiteral(KVLENS_BUILD_DIR "/app/cli/kvlens-cli");
        if (!QFileInfo(cli).isExecutable())
            QSKIP("kvlens-cli is not built here (a sanitizer build leaves the engine out)");
        QProcess run;
        run.start(cli, choices.arguments());
        QVERIFY(run.waitForFinished(120000));
        QCOMPARE(run.exitCode(), 1);
        const QString error = QString::fromUtf8(run.readAllStandardError());
        QVERIFY2(error.contains(phrase), qPrintable(error));
    }

    void validBaseStarts()
    {
        NewRunDialog dialog;
        const QString program = guitest::writeFakeCli(m_dir);
        dialog.setProgram(program);
        NewRunChoices c = base(m_dir.filePath(QStringLiteral("ok.kvl")));
        dialog.setChoices(c);
        QVERIFY(dialog.waitForChecks());
        QVERIFY2(dialog.problems().isEmpty(), qPrintable(dialog.problems().join('\n')));
        QSignalSpy finished(&dialog, &NewRunDialog::runFinished);
        dialog.show();
        QVERIFY(dialog.startRun());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QFile args(m_dir.filePath(QStringLiteral("args.txt")));
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(args.readAll()).trimmed().split('\n'), c.arguments());
        auto* bar = dialog.findChild<QProgressBar*>();
        QCOMPARE(bar->maximum(), 2);
        QCOMPARE(bar->value(), 2);
        // Development aid: look at the dialog (KVLENS_SCREENSHOT_DIR=/some/dir).
        if (qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR")) {
            dialog.pressEditor()->setCurrentPress(QStringLiteral("snapkv"));
            dialog.grab().save(qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") +
                               QStringLiteral("/newrundialog.png"));
        }
    }

    void cliChecksRefuse()
    {
        NewRunDialog dialog;
        dialog.setProgram(guitest::writeFakeCli(m_dir));
        // A directory without config.json: `info` says so, and the dialog repeats it.
        NewRunChoices c = base(m_dir.filePath(QStringLiteral("m.kvl")));
        c.model = m_dir.path();
        // A JSONL file `tasks validate` rejects.
        const QString bad = m_dir.filePath(QStringLiteral("bad.jsonl"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"bad\":1}\n");
        f.close();
        c.datasets = {bad};
        c.suites = {QStringLiteral("nosuchsuite")};
        dialog.setChoices(c);
        QVERIFY(dialog.waitForChecks());
        const QString all = dialog.problems().join('\n');
        QVERIFY2(all.contains(QLatin1String("needs config.json")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("field 'id': missing")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("Unknown suite 'nosuchsuite'")), qPrintable(all));
        QVERIFY(!dialog.startRun());
        // Fixed: the bundled model, a known suite, no bad file.
        c.model = QStringLiteral("bundled");
        c.datasets.clear();
        c.suites = {QStringLiteral("retrieval")};
        dialog.setChoices(c);
        QVERIFY(dialog.waitForChecks());
        QVERIFY2(dialog.problems().isEmpty(), qPrintable(dialog.problems().join('\n')));
    }

    void pressEditorBuildsSpecs()
    {
        NewRunDialog dialog;
        dialog.setProgram(guitest::writeFakeCli(m_dir));
        QVERIFY(dialog.waitForChecks());
        PressParametersEditor* editor = dialog.pressEditor();
        QCOMPARE(editor->catalogue().size(), 7);
        const PressInfo& expected = editor->catalogue()[2];
        QCOMPARE(expected.name, QStringLiteral("expected"));
        QCOMPARE(expected.params[0].type, PressParam::Type::Bool);
        // The printed type, not the default's look: epsilon's default 0 is a real.
        QCOMPARE(expected.params[1].type, PressParam::Type::Real);
        editor->setSpecs({});
        editor->setChecked(QStringLiteral("snapkv"), true);
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("window"),
                             QStringLiteral("8"));
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("kernel"),
                             QStringLiteral("5")); // the default: not written
        editor->setChecked(QStringLiteral("adakv"), true);
        editor->setInner(QStringLiteral("adakv"), QStringLiteral("knorm"));
        editor->setParameter(QStringLiteral("adakv"), QStringLiteral("alpha_safeguard"),
                             QStringLiteral("0.3"));
        editor->setChecked(QStringLiteral("expected"), true);
        editor->setParameter(QStringLiteral("expected"), QStringLiteral("use_covariance"),
                             QStringLiteral("false"));
        editor->setChecked(QStringLiteral("pyramidkv"), true);
        QCOMPARE(editor->specs(),
                 (QStringList{"snapkv:window=8", "adakv(knorm):alpha_safeguard=0.3",
                              "expected:use_covariance=false", "pyramidkv"}));
        QVERIFY(editor->problems().isEmpty());
        // Bad values are named with their press and parameter.
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("window"),
                             QStringLiteral("wide"));
        editor->setParameter(QStringLiteral("whitelist"), QStringLiteral("roles"),
                             QStringLiteral("a,b"));
        editor->setChecked(QStringLiteral("whitelist"), true);
        const QString problems = editor->problems().join('\n');
        QVERIFY2(problems.contains(QLatin1String("snapkv: window: 'wide' is not a number")),
                 qPrintable(problems));
        QVERIFY2(problems.contains(QLatin1String("whitelist: roles:")), qPrintable(problems));
        QVERIFY(!dialog.problems().isEmpty());
        // Out of the press's range (as printed by `presses --json`), a fraction for an
        // integer, a choice not listed: each named, the run refused before launch.
        editor->setSpecs({});
        editor->setChecked(QStringLiteral("snapkv"), true);
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("kernel"),
                             QStringLiteral("1003"));
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("window"),
                             QStringLiteral("2.5"));
        editor->setChecked(QStringLiteral("adakv"), true);
        editor->setParameter(QStringLiteral("adakv"), QStringLiteral("alpha_safeguard"),
                             QStringLiteral("1.5"));
        editor->setChecked(QStringLiteral("cur"), true);
        editor->setParameter(QStringLiteral("cur"), QStringLiteral("leverage"),
                             QStringLiteral("keys"));
        const QString outside = editor->problems().join('\n');
        QVERIFY2(outside.contains(QLatin1String("snapkv: kernel: 1003 is outside [1, 1001]")),
                 qPrintable(outside));
        QVERIFY2(outside.contains(QLatin1String("snapkv: window: '2.5' is not a whole number")),
                 qPrintable(outside));
        QVERIFY2(outside.contains(QLatin1String("adakv: alpha_safeguard: 1.5 is outside [0, 1]")),
                 qPrintable(outside));
        QVERIFY2(outside.contains(QLatin1String("cur: leverage: 'keys' is not one of kv_product")),
                 qPrintable(outside));
        QVERIFY(!dialog.problems().isEmpty());
        QVERIFY(!dialog.startRun());
        QVERIFY(!dialog.process()->isRunning());
        // Specs the list cannot hold keep their text and order.
        editor->setSpecs({QStringLiteral("tova"), QStringLiteral("snapkv:window=64")});
        QCOMPARE(editor->specs(), (QStringList{"tova", "snapkv:window=64"}));
        editor->setSpecs({QStringLiteral("knorm"), QStringLiteral("snapkv:window=16")});
        QCOMPARE(editor->specs(), (QStringList{"knorm", "snapkv:window=16"}));
    }

    // Each parameter gets the widget its printed type calls for, over the printed range.
    void pressEditorWidgetsFollowTheTypes()
    {
        NewRunDialog dialog;
        dialog.setProgram(guitest::writeFakeCli(m_dir));
        QVERIFY(dialog.waitForChecks());
        PressParametersEditor* editor = dialog.pressEditor();
        editor->setSpecs({});
        editor->setChecked(QStringLiteral("snapkv"), true);
        editor->setCurrentPress(QStringLiteral("snapkv"));
        auto* kernel = editor->findChild<QSpinBox*>(QStringLiteral("param_kernel"));
        QVERIFY(kernel);
        QCOMPARE(kernel->minimum(), 1);
        QCOMPARE(kernel->maximum(), 1001);
        QCOMPARE(kernel->value(), 5);
        kernel->setValue(7);
        QCOMPARE(editor->specs(), QStringList{QStringLiteral("snapkv:kernel=7")});
        kernel->setValue(5000); // clamped to the press's maximum
        QCOMPARE(editor->specs(), QStringList{QStringLiteral("snapkv:kernel=1001")});
        QVERIFY(editor->problems().isEmpty());
        // A restored value out of range is shown as written (a field), not clamped.
        editor->setParameter(QStringLiteral("snapkv"), QStringLiteral("kernel"),
                             QStringLiteral("1003"));
        QVERIFY(!editor->findChild<QSpinBox*>(QStringLiteral("param_kernel")));
        auto* field = editor->findChild<QLineEdit*>(QStringLiteral("param_kernel"));
        QVERIFY(field);
        QCOMPARE(field->text(), QStringLiteral("1003"));
        QCOMPARE(editor->problems().size(), 1);

        editor->setCurrentPress(QStringLiteral("adakv"));
        auto* alpha = editor->findChild<QDoubleSpinBox*>(QStringLiteral("param_alpha_safeguard"));
        QVERIFY(alpha);
        QCOMPARE(alpha->minimum(), 0.0);
        QCOMPARE(alpha->maximum(), 1.0);
        QCOMPARE(alpha->value(), 0.2);
        QCOMPARE(alpha->text(), QStringLiteral("0.2"));
        auto* inner = editor->findChild<QComboBox*>(QStringLiteral("InnerScorer"));
        QVERIFY(inner);
        QCOMPARE(inner->count(), 4); // the printed inner_choices
        editor->setCurrentPress(QStringLiteral("expected"));
        QVERIFY(editor->findChild<QCheckBox*>(QStringLiteral("param_use_covariance")));
        auto* epsilon = editor->findChild<QDoubleSpinBox*>(QStringLiteral("param_epsilon"));
        QVERIFY(epsilon);
        QCOMPARE(epsilon->maximum(), 1e9);
        editor->setCurrentPress(QStringLiteral("cur"));
        auto* leverage = editor->findChild<QComboBox*>(QStringLiteral("param_leverage"));
        QVERIFY(leverage);
        QCOMPARE(leverage->count(), 4);
        QCOMPARE(leverage->currentText(), QStringLiteral("kv_product"));
        editor->setChecked(QStringLiteral("cur"), true);
        leverage->setCurrentText(QStringLiteral("key"));
        QVERIFY(editor->specs().contains(QStringLiteral("cur:leverage=key")));
        editor->setCurrentPress(QStringLiteral("whitelist"));
        QVERIFY(editor->findChild<QLineEdit*>(QStringLiteral("param_roles")));
    }

    void runFileVerdict()
    {
        const QString program = guitest::writeFakeCli(m_dir);
        const QString path = m_dir.filePath(QStringLiteral("existing.kvl"));
        NewRunChoices c = base(path);
        {
            RunWriter writer(path);
            RunInfo info;
            QJsonObject spec = c.expectedSpec();
            spec.insert(QStringLiteral("threads"), 3); // ignored, as the CLI does
            info.spec = spec;
            writer.setRunInfo(info);
        }
        NewRunDialog dialog;
        dialog.setProgram(program);
        dialog.setChoices(c);
        QVERIFY(dialog.waitForChecks());
        QCOMPARE(dialog.runFileState().kind, RunFileState::Kind::SameRun);
        QVERIFY(dialog.problems().isEmpty());
        QVERIFY(button(dialog, QStringLiteral("Resume")));

        // Another ratio: another experiment, refused before launch.
        NewRunChoices other = c;
        other.ratios = {QStringLiteral("0.75")};
        dialog.setChoices(other);
        QVERIFY(dialog.waitForChecks());
        QCOMPARE(dialog.runFileState().kind, RunFileState::Kind::OtherRun);
        QCOMPARE(dialog.runFileState().detail, QStringLiteral("ratios"));
        QVERIFY(dialog.problems().join('\n').contains(QLatin1String("differs in 'ratios'")));
        QVERIFY(!dialog.startRun());
        QVERIFY(button(dialog, QStringLiteral("Start")));
        // "Use its settings" puts the file's experiment back: Start resumes it.
        dialog.useRunFileSettings();
        QVERIFY(dialog.waitForChecks());
        NewRunChoices recorded = c;
        recorded.threads = 3;
        QCOMPARE(dialog.choices(), recorded);
        QCOMPARE(dialog.runFileState().kind, RunFileState::Kind::SameRun);

        // A file that is not a run is never overwritten.
        const QString text = m_dir.filePath(QStringLiteral("notes.kvl"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("notes, not a run\n");
        f.close();
        dialog.setOutputPath(text);
        QVERIFY(dialog.waitForChecks());
        QCOMPARE(dialog.runFileState().kind, RunFileState::Kind::NotARun);
        QVERIFY(!dialog.startRun());
    }

    void specRoundTrip()
    {
        // fromSpec(expectedSpec()) gives the choices back (what "Use its settings" relies on).
        NewRunChoices c = base(QString());
        c.seed = 3;
        c.interventions = QStringLiteral("all");
        c.beta = 2.5;
        c.storeAttention = QStringLiteral("none");
        c.datasets = {QStringLiteral("/d/x.jsonl")};
        QString why;
        NewRunChoices back = NewRunChoices::fromSpec(c.expectedSpec(), &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(back, c);
        QVERIFY(runSpecDifference(c.expectedSpec(), back.expectedSpec()).isEmpty());
        c.interventions.clear(); // the CLI default comes back as no flag
        c.beta = 4.0;
        QCOMPARE(NewRunChoices::fromSpec(c.expectedSpec()), c);
    }

  private:
    QTemporaryDir m_dir;
};

KVL_OFFSCREEN_TEST_MAIN(TstNewRunDialog)
#include "tst_newrundialog.moc"
