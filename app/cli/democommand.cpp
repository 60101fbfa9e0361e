// `kvlens-cli demo`: the newcomer's first minutes. A small sweep on the bundled model
// (three suites, three presses, three ratios) into demo.kvl, then the run's report.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"
#include "demosummary.h"
#include "reportoutput.h"

#include "common/error.h"
#include "run/experimentspec.h"
#include "run/sweepconsole.h"
#include "run/sweeprunner.h"
#include "store/runreader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <unistd.h>

namespace kvl::cli {
namespace {

// The demo's defaults: retrieval shows evidence eviction, instructions shows span
// eviction and leakage, multihop shows at which link a compressed run breaks a chain;
// three presses that fail differently; three ratios up to the point where they do.
// Retrieval asks single needles: the bundled model answers most of them under
// FullCache (MODEL_CARD.md), so what the presses break stands out, where its weak
// listing variants would fail before any compression.
struct DemoSuite
{
    const char* suite;
    const char* variant;
};
constexpr DemoSuite kDemoSuites[] = {
    {"retrieval", "single"}, {"instructions", ""}, {"multihop", ""}};
constexpr const char* kDemoPresses[] = {"streamingllm", "snapkv", "tova"};
constexpr double kDemoRatios[] = {0.25, 0.5, 0.75};

int runDemo(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A demo sweep on the bundled model (single-needle retrieval, instructions and "
        "multihop; StreamingLLM, SnapKV and TOVA at 25/50/75% compression) into a run file, then "
        "its report. Open the run "
        "file in the KVLens app to explore it. Rerunning resumes."));
    parser.addHelpOption();
    const auto opt = [&](const char* name, const char* help, const char* value,
                         const QString& def = {}) {
        parser.addOption({QLatin1String(name), QLatin1String(help), QLatin1String(value), def});
    };
    opt("model", "model directory (default: the bundled model)", "DIR", QStringLiteral("bundled"));
    opt("out", "run file", "RUN.kvl", QStringLiteral("demo.kvl"));
    opt("n", "samples per suite", "N", QStringLiteral("10"));
    opt("tokens", "context length in tokens", "MIN:MAX", QStringLiteral("256:512"));
    // One thread: the bundled model is small, and libtorch's spinning threads slow it
    // down badly on a busy machine.
    opt("threads", "libtorch threads (0: all cores)", "N", QStringLiteral("1"));
    opt("format",
        "text: a one-screen summary; csv or json: the run's full report (as `report` prints it)",
        "FORMAT", QStringLiteral("text"));
    parser.process(args);
    const int n = intOption(parser, "n", 1);
    const int threads = intOption(parser, "threads", 0);
    const QString format = parser.value(QStringLiteral("format"));
    checkReportFormat(format);

    // Says clearly where the bundled model was looked for when it is not there.
    const QString modelArg = parser.value(QStringLiteral("model"));
    const QString modelDir = modelDirOption(modelArg);

    QJsonArray samples, presses, ratios;
    for (const DemoSuite& d : kDemoSuites)
        samples.append(
            QJsonObject{{QStringLiteral("suite"), QLatin1String(d.suite)},
                        {QStringLiteral("variant"), QLatin1String(d.variant)},
                        {QStringLiteral("n"), n},
                        {QStringLiteral("tokens"), parser.value(QStringLiteral("tokens"))},
                        {QStringLiteral("seed"), 1}});
    for (const char* press : kDemoPresses)
        presses.append(QLatin1String(press));
    for (double r : kDemoRatios)
        ratios.append(r);
    ExperimentSpec spec = ExperimentSpec::fromJson(
        {{QStringLiteral("model"), modelArg},
         {QStringLiteral("samples"), samples},
         {QStringLiteral("compressors"), presses},
         {QStringLiteral("ratios"), ratios},
         {QStringLiteral("interventions"),
          QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("both")},
                                 {QStringLiteral("on"), QStringLiteral("c_to_w")}}}}},
        QStringLiteral("demo"));
    spec.threads = threads;

    const QString out = parser.value(QStringLiteral("out"));
    printError(QStringLiteral("kvlens-cli demo: %1 samples x (FullCache + %2 presses x %3 ratios) "
                              "on %4 -> %5")
                   .arg(qsizetype(std::size(kDemoSuites)) * n)
                   .arg(std::size(kDemoPresses))
                   .arg(std::size(kDemoRatios))
                   .arg(QDir::toNativeSeparators(modelDir), out));
    SweepOptions options;
    options.modelDir = modelDir;
    options.toolVersion = QStringLiteral(KVLENS_VERSION);
    static std::atomic<bool> stop{false};
    installStopSignals(stop);
    options.cancel = &stop;
    // JSON progress lines when a program (the desktop app) reads stdout, a bar for people.
    SweepConsole console(!isatty(STDOUT_FILENO), true);
    options.progress = [&console](const SweepProgress& p) { console.report(p); };
    const SweepSummary summary = SweepRunner(spec, options).run(out);
    console.finish();
    if (stop.load()) {
        printError(QStringLiteral("kvlens-cli demo: interrupted; rerun to resume (%1)").arg(out));
        return 130;
    }

    RunReader reader(out);
    if (format != QLatin1String("text")) {
        printRunReport(reader, format);
        return 0;
    }
    DemoFacts facts;
    facts.model = reader.runInfo().modelName;
    if (facts.model.isEmpty())
        facts.model = QDir(modelDir).dirName();
    for (const DemoSuite& d : kDemoSuites)
        facts.suites << QLatin1String(d.suite);
    facts.perSuite = n;
    for (const char* press : kDemoPresses)
        facts.presses << QLatin1String(press);
    facts.ratios.assign(std::begin(kDemoRatios), std::end(kDemoRatios));
    facts.seconds = summary.seconds;
    facts.skipped = summary.skipped;
    facts.runFile = out;
    printLine(demoSummaryText(reader, facts).chopped(1));
    return 0;
}

const CommandRegistrar demoCommand("demo", "quick demo sweep on the bundled model, then its report",
                                   &runDemo);

} // namespace
} // namespace kvl::cli
