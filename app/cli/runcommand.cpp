// `kvlens-cli run`: a sweep (samples × FullCache + compressors × ratios) into a run file,
// from a spec file or from flags; resumable, shardable, one JSON progress line per sample.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/modellocator.h"
#include "common/error.h"
#include "common/sweepwords.h"
#include "model/blassumorder.h"
#include "run/experimentspec.h"
#include "run/sweepconsole.h"
#include "run/sweeprunner.h"
#include "store/interventiongroups.h"
#include "store/runreader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace kvl::cli {
namespace {

// The spec the flags describe; it goes through ExperimentSpec::fromJson so a quick
// run and a spec file are validated (and recorded) the same way.
QJsonObject quickSpec(const QCommandLineParser& parser)
{
    QJsonObject spec;
    if (!parser.isSet(QStringLiteral("model")))
        throw Error(QStringLiteral("missing --model DIR|bundled (or --spec FILE)"));
    spec.insert(QStringLiteral("model"), parser.value(QStringLiteral("model")));
    QJsonArray samples;
    const QString tokens = parser.value(QStringLiteral("tokens"));
    const double seed = double(seedOption(parser));
    if (parser.isSet(QStringLiteral("suite"))) {
        if (!parser.isSet(QStringLiteral("n")))
            throw Error(QStringLiteral("--suite needs --n N (samples per suite)"));
        const int n = intOption(parser, "n", 1);
        for (const QString& suite :
             parser.value(QStringLiteral("suite")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            QJsonObject s{{QStringLiteral("suite"), suite.trimmed()},
                          {QStringLiteral("n"), n},
                          {QStringLiteral("tokens"), tokens},
                          {QStringLiteral("seed"), seed}};
            if (parser.isSet(QStringLiteral("variant")))
                s.insert(QStringLiteral("variant"), parser.value(QStringLiteral("variant")));
            samples.append(s);
        }
    }
    for (const QString& file : parser.values(QStringLiteral("dataset")))
        for (const QString& f : file.split(QLatin1Char(','), Qt::SkipEmptyParts))
            samples.append(QJsonObject{{QStringLiteral("jsonl"), f.trimmed()}});
    if (samples.isEmpty())
        throw Error(QStringLiteral("no samples: give --suite NAME --n N and/or --dataset F.jsonl"));
    spec.insert(QStringLiteral("samples"), samples);

    QJsonArray compressors;
    for (const QString& list : parser.values(QStringLiteral("press")))
        for (const QString& p : splitPressList(list))
            compressors.append(p);
    spec.insert(QStringLiteral("compressors"), compressors);
    QJsonArray ratios;
    for (const QString& r :
         parser.value(QStringLiteral("ratios")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double x = r.trimmed().toDouble(&ok);
        if (!ok)
            throw Error(QStringLiteral("--ratios: %1").arg(sweepwords::notANumber(r)));
        ratios.append(x);
    }
    spec.insert(QStringLiteral("ratios"), ratios);
    spec.insert(QStringLiteral("seed"), seed);
    if (parser.isSet(QStringLiteral("interventions"))) {
        const QString on = parser.value(QStringLiteral("interventions"));
        QJsonArray list;
        if (on != QLatin1String("none"))
            list.append(QJsonObject{
                {QStringLiteral("kind"), QStringLiteral("both")},
                {QStringLiteral("on"), on},
                {QStringLiteral("beta"), parser.value(QStringLiteral("beta")).toDouble()}});
        spec.insert(QStringLiteral("interventions"), list);
    }
    if (parser.isSet(QStringLiteral("max-new-tokens")))
        spec.insert(QStringLiteral("max_new_tokens"), intOption(parser, "max-new-tokens", 1));
    QJsonObject store;
    if (parser.isSet(QStringLiteral("store-attention")))
        store.insert(QStringLiteral("attention"), parser.value(QStringLiteral("store-attention")));
    if (parser.isSet(QStringLiteral("attention-positions")))
        store.insert(QStringLiteral("attention_positions"),
                     intOption(parser, "attention-positions", 0));
    if (!store.isEmpty())
        spec.insert(QStringLiteral("store"), store);
    return spec;
}

int runRun(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run a sweep: every sample under FullCache and under each compressor x ratio (one "
        "prefill per sample), with per-row diagnostics, into a run file. Rerunning on an "
        "existing run file resumes it. Prints one JSON progress line per sample."));
    parser.addHelpOption();
    const auto opt = [&](const char* name, const char* help, const char* value = nullptr,
                         const QString& def = {}) {
        if (value)
            parser.addOption({QLatin1String(name), QLatin1String(help), QLatin1String(value), def});
        else
            parser.addOption({QLatin1String(name), QLatin1String(help)});
    };
    opt("spec", "experiment spec (JSON); flags below build one instead", "FILE");
    opt("out", "run file to write or resume (.kvl)", "RUN.kvl");
    opt("model", "model directory or \"bundled\" (overrides the spec's)", "DIR");
    opt("suite", "task suites to generate, comma-separated", "NAME[,NAME]");
    opt("n", "samples per suite", "N");
    opt("tokens", "context length in tokens, MIN:MAX or N", "MIN:MAX", QStringLiteral("256:512"));
    opt("variant", "suite variant (default: each sample draws one)", "NAME");
    opt("dataset", "samples from a JSONL file (repeatable)", "F.jsonl");
    opt("press", "press specs, comma-separated (see `kvlens-cli presses`)", "SPEC[,SPEC]");
    opt("ratios", "compression ratios (fraction removed)", "R[,R]");
    opt("seed", "seed of the generators and sham interventions", "S", QStringLiteral("1"));
    opt("interventions",
        "boost+sham on: retained (default: C->W rows whose evidence is retained, EAR < 0.5), "
        "low_ear (any C->W row with EAR < 0.5), c_to_w, all or none",
        "ON");
    opt("beta", "intervention boost factor", "B", QStringLiteral("4"));
    opt("max-new-tokens", "decode limit (default: gold length + 16)", "N");
    opt("store-attention",
        "rows that keep their question attention: failures (default: FullCache rows and rows "
        "answered wrong), all, none",
        "WHICH");
    opt("attention-positions",
        "stored attention pooled to at most N context columns per layer and kv-head (sums of "
        "consecutive positions; default 4096, 0: every position)",
        "N");
    opt("skip-too-long",
        "record samples longer than the model allows as skipped and run the rest (default: "
        "refuse the run before it starts; recorded in the run's spec)");
    opt("shard", "run shard K of N (1-based) of the samples", "K/N", QStringLiteral("1/1"));
    opt("threads", "libtorch threads (default: the spec's, else all cores)", "N");
    opt("max-samples", "stop after running N samples (resume later)", "N");
    opt("quiet", "no progress lines on stdout");
    opt("force-new",
        "discard the run file at --out and start a new one (default: resume it, refused when "
        "it was run with another spec, model, template or other sample texts)");
    addChatTemplateOptions(parser);
    parser.process(args);
    if (!parser.positionalArguments().isEmpty())
        throw Error(QStringLiteral("unexpected argument '%1' (see --help)")
                        .arg(parser.positionalArguments().first()));
    if (!parser.isSet(QStringLiteral("out")))
        throw Error(QStringLiteral("missing --out RUN.kvl (see --help)"));

    ExperimentSpec spec;
    if (parser.isSet(QStringLiteral("spec"))) {
        for (const char* flag :
             {"suite", "n", "dataset", "press", "ratios", "store-attention", "attention-positions"})
            if (parser.isSet(QLatin1String(flag)))
                throw Error(QStringLiteral("--%1 cannot be combined with --spec (edit the spec)")
                                .arg(QLatin1String(flag)));
        spec = ExperimentSpec::fromFile(parser.value(QStringLiteral("spec")));
        if (parser.isSet(QStringLiteral("model")))
            spec.model = parser.value(QStringLiteral("model"));
    } else {
        spec = ExperimentSpec::fromJson(quickSpec(parser), QStringLiteral("command line"),
                                        QDir::currentPath());
    }
    if (parser.isSet(QStringLiteral("threads")))
        spec.threads = intOption(parser, "threads", 1);
    if (parser.isSet(QStringLiteral("skip-too-long")))
        spec.skipTooLong = true;
    // Like --model, the template flags override a spec file's.
    if (parser.isSet(QStringLiteral("chat-template"))) {
        spec.chatTemplate = spec.chatTemplatePath = parser.value(QStringLiteral("chat-template"));
        if (!QFileInfo(spec.chatTemplatePath).isAbsolute() &&
            spec.chatTemplate != QLatin1String("auto") &&
            spec.chatTemplate != QLatin1String("none"))
            spec.chatTemplatePath = QDir::current().absoluteFilePath(spec.chatTemplate);
    }
    if (parser.isSet(QStringLiteral("chat-var")))
        spec.chatVars = chatVarsOption(parser);

    SweepOptions options;
    options.modelDir = resolveModelDir(spec.model, QStringLiteral(KVLENS_SOURCE_RESOURCES));
    options.shard = Shard::parse(parser.value(QStringLiteral("shard")));
    if (parser.isSet(QStringLiteral("max-samples")))
        options.maxSamples = intOption(parser, "max-samples", 1);
    options.toolVersion = QStringLiteral(KVLENS_VERSION);
    options.forceNew = parser.isSet(QStringLiteral("force-new"));
    static std::atomic<bool> stop{false};
    installStopSignals(stop);
    options.cancel = &stop;
    SweepConsole console(!parser.isSet(QStringLiteral("quiet")), true);
    options.progress = [&console](const SweepProgress& p) { console.report(p); };

    SweepRunner runner(spec, options);
    const SweepSummary summary = runner.run(parser.value(QStringLiteral("out")));
    console.finish();
    QJsonObject result = summary.toJson();
    result.insert(QStringLiteral("shard"), options.shard.toString());
    // Whether the decode steps' products ran as exactGemv (issue 36); the rows are the
    // same bits either way.
    result.insert(QStringLiteral("exact_gemv"), BlasSumOrders::instance().summary());
    // What the interventions' targets selected in the run file, and a line when one
    // selected nothing: boost and sham repairing 0 of 0 rows must not read as "no effect".
    std::vector<InterventionTargetCount> targets;
    if (!spec.interventions.empty()) {
        RunReader reader(summary.out);
        targets = interventionTargetCounts(reader.interventionGroupCounts(),
                                           interventionTargetsOfSpec(spec.toJson()));
        result.insert(QStringLiteral("intervention_targets"), interventionTargetsJson(targets));
    }
    printJson(result);
    for (const InterventionTargetCount& t : targets)
        if (!t.note().isEmpty())
            printError(QStringLiteral("kvlens-cli run: ") + t.note());
    if (stop.load()) {
        printError(QStringLiteral("kvlens-cli run: interrupted; %1 of %2 samples are in %3, rerun "
                                  "the same command to resume")
                       .arg(summary.done)
                       .arg(summary.total)
                       .arg(summary.out));
        return 130;
    }
    // Every sample skipped (all too long, say): the run file records them and why, but a
    // sweep with no row is no result, and a script or a job array must see that.
    if (summary.finished && summary.total > 0 && !summary.fullAccuracy) {
        printError(QStringLiteral("kvlens-cli run: no sample ran: all %1 were skipped (%2 "
                                  "records why; `kvlens-cli report` lists the reasons)")
                       .arg(summary.total)
                       .arg(summary.out));
        return 3;
    }
    return 0;
}

const CommandRegistrar
    runCommand("run", "run a sweep (FullCache + compressors x ratios) into a run file", &runRun);

} // namespace
} // namespace kvl::cli
