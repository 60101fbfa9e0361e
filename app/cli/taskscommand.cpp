// `kvlens-cli tasks generate|list|validate|corpus|import`: the task suites as JSONL files.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/corpus.h"
#include "tasks/datasetimporters.h"
#include "tasks/samplejsonl.h"
#include "tasks/spantokens.h"
#include "tasks/taskgenerator.h"
#include "tokenizer/tokenizer.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMap>

namespace kvl::cli {
namespace {

const QCommandLineOption kTokenizerOption(
    QStringLiteral("tokenizer"),
    QStringLiteral("tokenizer.json to count tokens with, or \"byte\" (the default: one token "
                   "per UTF-8 byte, until a bundled model exists)"),
    QStringLiteral("FILE"));
const QCommandLineOption kModelOption(QStringLiteral("model"),
                                      QStringLiteral("model directory whose tokenizer.json to use"),
                                      QStringLiteral("DIR"));

// --tokenizer FILE, --model DIR (its tokenizer.json) or the byte tokenizer.
std::pair<std::unique_ptr<Tokenizer>, QString> tokenizerFrom(const QCommandLineParser& parser)
{
    QString path = QStringLiteral("byte");
    if (parser.isSet(kTokenizerOption) && parser.isSet(kModelOption))
        throw Error(QStringLiteral("give --tokenizer or --model, not both"));
    if (parser.isSet(kTokenizerOption))
        path = parser.value(kTokenizerOption);
    else if (parser.isSet(kModelOption))
        path = QDir(modelDirOption(parser.value(kModelOption)))
                   .filePath(QStringLiteral("tokenizer.json"));
    return {loadTokenizer(path), path};
}

// "MIN:MAX", or "N" for exactly N tokens.
std::pair<int, int> tokenRange(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    bool ok1 = false, ok2 = false;
    const int lo = parts.value(0).toInt(&ok1);
    const int hi = parts.size() == 2 ? parts.value(1).toInt(&ok2) : lo;
    if (parts.size() == 1)
        ok2 = ok1;
    if (parts.size() > 2 || !ok1 || !ok2 || lo < 1 || lo > hi)
        throw Error(
            QStringLiteral("--tokens expects MIN:MAX with 1 <= MIN <= MAX, got '%1'").arg(text));
    return {lo, hi};
}

int runTasksGenerate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Generate a task suite as JSONL (schema: core/tasks/SCHEMA.md). Lengths "
                       "count context tokens of the chosen tokenizer."));
    parser.addHelpOption();
    const QCommandLineOption suite(QStringLiteral("suite"), QStringLiteral("suite name"),
                                   QStringLiteral("NAME"));
    const QCommandLineOption variant(QStringLiteral("variant"),
                                     QStringLiteral("one variant (default: each sample draws)"),
                                     QStringLiteral("NAME"));
    const QCommandLineOption n(QStringLiteral("n"),
                               QStringLiteral("number of samples (default 100)"),
                               QStringLiteral("N"), QStringLiteral("100"));
    const QCommandLineOption tokens(
        QStringLiteral("tokens"),
        QStringLiteral("context length range in tokens, or N for exactly N (default 256:512)"),
        QStringLiteral("MIN:MAX"), QStringLiteral("256:512"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("random seed (default 0)"),
                                  QStringLiteral("S"), QStringLiteral("0"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("output JSONL file"),
                                 QStringLiteral("F.jsonl"));
    parser.addOptions({suite, variant, n, tokens, seed, out, kTokenizerOption, kModelOption});
    parser.process(args);
    if (!parser.isSet(suite) || !parser.isSet(out))
        throw Error(QStringLiteral("tasks generate needs --suite and --out (--help for usage)"));

    const auto generator = makeTaskGenerator(parser.value(suite));
    const auto [tokenizer, tokenizerPath] = tokenizerFrom(parser);
    TaskOptions options;
    std::tie(options.minTokens, options.maxTokens) = tokenRange(parser.value(tokens));
    options.variant = parser.value(variant);
    const std::vector<Sample> samples =
        generator->generateMany(*tokenizer, options, seedOption(parser), intOption(parser, "n", 1));
    writeSamples(parser.value(out), samples);

    double total = 0;
    for (const Sample& s : samples)
        total += double(tokenizer->encode(s.context, false).size());
    printJson({{QStringLiteral("suite"), generator->suite()},
               {QStringLiteral("n"), int(samples.size())},
               {QStringLiteral("out"), parser.value(out)},
               {QStringLiteral("tokenizer"), tokenizerPath},
               {QStringLiteral("tokenizer_id"), tokenizer->identity()},
               {QStringLiteral("min_tokens"), options.minTokens},
               {QStringLiteral("max_tokens"), options.maxTokens},
               {QStringLiteral("mean_context_tokens"), total / double(samples.size())}});
    return 0;
}

int runList(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List the task suites and their variants."));
    parser.addHelpOption();
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print one JSON object"));
    parser.addOption(json);
    parser.process(args);

    QJsonArray suites;
    for (const auto& g : makeTaskGenerators()) {
        QJsonArray variants;
        for (const QString& v : g->variants())
            variants.append(QJsonObject{{QStringLiteral("name"), v},
                                        {QStringLiteral("description"), g->variantDescription(v)}});
        suites.append(QJsonObject{{QStringLiteral("name"), g->suite()},
                                  {QStringLiteral("description"), g->description()},
                                  {QStringLiteral("variants"), variants}});
        if (!parser.isSet(json)) {
            printLine(QStringLiteral("%1  %2").arg(g->suite(), g->description()));
            for (const QString& v : g->variants())
                printLine(QStringLiteral("    %1%2").arg(v, -18).arg(g->variantDescription(v)));
        }
    }
    if (parser.isSet(json))
        printJson({{QStringLiteral("suites"), suites}});
    return 0;
}

int runValidate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Check a JSONL sample file against the schema; with --tokenizer or "
                       "--model also check that every span covers at least one token."));
    parser.addHelpOption();
    parser.addOptions({kTokenizerOption, kModelOption});
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("JSONL file"));
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("tasks validate needs one JSONL file"));
    const QString path = parser.positionalArguments().first();
    const std::vector<SampleLine> lines = parseSampleLines(readFileBytes(path), path);

    QJsonObject result{{QStringLiteral("file"), path},
                       {QStringLiteral("samples"), int(lines.size())}};
    QMap<QString, int> bySuite;
    int spans = 0;
    for (const SampleLine& l : lines) {
        ++bySuite[l.sample.suite];
        spans += int(l.sample.spans.size());
    }
    QJsonObject suites;
    for (auto it = bySuite.begin(); it != bySuite.end(); ++it)
        suites.insert(it.key(), it.value());
    result.insert(QStringLiteral("suites"), suites);
    result.insert(QStringLiteral("spans"), spans);

    if (parser.isSet(kTokenizerOption) || parser.isSet(kModelOption)) {
        const auto [tokenizer, tokenizerPath] = tokenizerFrom(parser);
        qint64 contextTokens = 0;
        for (const SampleLine& l : lines) {
            const SpanTokens mapped = mapSpansToTokens(l.sample, *tokenizer);
            contextTokens += qint64(mapped.context.size());
            for (size_t i = 0; i < mapped.spans.size(); ++i)
                if (mapped.spans[i].size() == 0)
                    throw Error(path, QStringLiteral("line %1: field 'spans[%2]': covers no token")
                                          .arg(l.line)
                                          .arg(i));
        }
        result.insert(QStringLiteral("tokenizer"), tokenizerPath);
        result.insert(QStringLiteral("mean_context_tokens"),
                      lines.empty() ? 0.0 : double(contextTokens) / double(lines.size()));
    }
    result.insert(QStringLiteral("ok"), true);
    printJson(result);
    return 0;
}

int runCorpus(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Write plain-text lines of the suites' closed world (for training a "
                       "tokenizer): the word lists, then samples of every suite."));
    parser.addHelpOption();
    const QCommandLineOption n(QStringLiteral("n"),
                               QStringLiteral("samples per suite (default 200)"),
                               QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("random seed (default 0)"),
                                  QStringLiteral("S"), QStringLiteral("0"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("output text file"),
                                 QStringLiteral("F.txt"));
    parser.addOptions({n, seed, out});
    parser.process(args);
    if (!parser.isSet(out))
        throw Error(QStringLiteral("tasks corpus needs --out"));
    const QStringList lines = taskCorpusLines(intOption(parser, "n", 1), seedOption(parser));
    writeFileAtomically(parser.value(out),
                        (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    printJson(
        {{QStringLiteral("out"), parser.value(out)}, {QStringLiteral("lines"), int(lines.size())}});
    return 0;
}

int runImport(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Import a dataset file as KVLens samples (JSONL, core/tasks/SCHEMA.md, "
                       "\"Imported datasets\"). Formats: longbench, longbench-v2, ruler, "
                       "hotpotqa, qasper, kvdiagnosis, ifeval (--list describes them)."));
    parser.addHelpOption();
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("dataset format"),
                                    QStringLiteral("NAME"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("output JSONL file"),
                                 QStringLiteral("F.jsonl"));
    const QCommandLineOption source(
        QStringLiteral("source"),
        QStringLiteral("kvdiagnosis: the samples (KVLens JSONL) its rows were run on"),
        QStringLiteral("F.jsonl"));
    const QCommandLineOption list(QStringLiteral("list"), QStringLiteral("list the formats"));
    parser.addOptions({format, out, source, list});
    parser.addPositionalArgument(QStringLiteral("in"), QStringLiteral("dataset file"));
    parser.process(args);
    if (parser.isSet(list)) {
        for (const DatasetFormat& f : datasetFormats())
            printLine(QStringLiteral("%1  %2").arg(f.name, -13).arg(f.description));
        return 0;
    }
    if (!parser.isSet(format) || !parser.isSet(out) || parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral(
            "tasks import needs --format NAME, one input file and --out (--list for formats)"));
    const QString in = parser.positionalArguments().first();
    if (parser.isSet(source) && parser.value(format) != QLatin1String("kvdiagnosis"))
        throw Error(QStringLiteral("--source is for --format kvdiagnosis only"));
    ImportOptions options;
    options.sourcePath = parser.value(source);
    const std::vector<Sample> samples = importDataset(parser.value(format), in, options);
    writeSamples(parser.value(out), samples);

    QMap<QString, int> bySuite, byKind;
    for (const Sample& s : samples) {
        ++bySuite[s.suite];
        for (const Span& span : s.spans)
            ++byKind[spanKindName(span.kind)];
    }
    QJsonObject suites, spans;
    for (auto it = bySuite.begin(); it != bySuite.end(); ++it)
        suites.insert(it.key(), it.value());
    for (auto it = byKind.begin(); it != byKind.end(); ++it)
        spans.insert(it.key(), it.value());
    printJson({{QStringLiteral("format"), parser.value(format)},
               {QStringLiteral("in"), in},
               {QStringLiteral("out"), parser.value(out)},
               {QStringLiteral("samples"), int(samples.size())},
               {QStringLiteral("suites"), suites},
               {QStringLiteral("spans"), spans}});
    return 0;
}

int runTasks(const QStringList& args)
{
    const QString usage =
        QStringLiteral("usage: kvlens-cli tasks <generate|list|validate|corpus|import> [options]   "
                       "(kvlens-cli tasks <action> --help)");
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        printLine(usage);
        return args.size() < 2 ? 2 : 0;
    }
    QStringList sub = args.mid(2);
    sub.prepend(args[0] + QLatin1Char(' ') + args[1]);
    if (args[1] == QLatin1String("generate"))
        return runTasksGenerate(sub);
    if (args[1] == QLatin1String("list"))
        return runList(sub);
    if (args[1] == QLatin1String("validate"))
        return runValidate(sub);
    if (args[1] == QLatin1String("corpus"))
        return runCorpus(sub);
    if (args[1] == QLatin1String("import"))
        return runImport(sub);
    printError(QStringLiteral("kvlens-cli tasks: unknown action '%1'\n%2").arg(args[1], usage));
    return 2;
}

const CommandRegistrar
    tasksCommand("tasks", "generate, list, validate, import task-suite JSONL files", &runTasks);
} // namespace
} // namespace kvl::cli
