// `kvlens-cli eval`: a model's FullCache score on fresh samples of a suite (the table of
// the bundled model's card), overall and per context-length bucket; --predictions keeps
// every answer for a look at how the model fails.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "model/transformer.h"
#include "run/answerrun.h"
#include "run/cardtables.h"
#include "run/experimentspec.h"
#include "run/suiteevaluation.h"
#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

#include <ATen/Parallel.h>

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <cstdio>
#include <memory>
#include <tuple>
#include <unistd.h>

namespace kvl::cli {
namespace {

// eval --predictions: one line per scored sample, written as it is scored, so an
// interrupted evaluation keeps the lines it finished.
class PredictionsFile
{
  public:
    explicit PredictionsFile(const QString& path) : m_file(path)
    {
        if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            throw Error(
                path,
                QStringLiteral("cannot write the predictions file: %1").arg(m_file.errorString()));
    }

    void write(const Sample& sample, const AnswerRun& run)
    {
        QJsonObject line = sampleToJson(sample);
        line.insert(QStringLiteral("prediction"), run.answer);
        line.insert(QStringLiteral("score"), run.score);
        const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
        if (m_file.write(bytes) != bytes.size() || !m_file.flush())
            throw Error(
                m_file.fileName(),
                QStringLiteral("cannot write the predictions file: %1").arg(m_file.errorString()));
    }

  private:
    QFile m_file;
};

int runEval(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Score a model under FullCache (greedy decoding) on N freshly generated samples of a "
        "suite: the mean score, and the score per context-length bucket."));
    parser.addHelpOption();
    const auto opt = [&](const char* name, const char* help, const char* value,
                         const QString& def = {}) {
        parser.addOption({QLatin1String(name), QLatin1String(help), QLatin1String(value), def});
    };
    opt("model", "model directory or \"bundled\"", "DIR");
    opt("suite", "task suites, comma-separated (one result each)", "NAME[,NAME]");
    opt("n", "samples per suite", "N");
    opt("seed", "generator seed", "S", QStringLiteral("1"));
    opt("tokens",
        "context length in tokens, MIN:MAX or N; several ranges comma-separated (N samples "
        "each, e.g. one per length bucket of the model card)",
        "MIN:MAX[,MIN:MAX]", QStringLiteral("256:512"));
    opt("variant", "suite variant (default: each sample draws one)", "NAME");
    opt("max-new-tokens", "decode limit (default: gold length + 16)", "N", QStringLiteral("0"));
    opt("threads", "libtorch threads (default: all cores)", "N", QStringLiteral("0"));
    opt("predictions",
        "also write each scored sample with its greedy \"prediction\" and \"score\" to FILE "
        "(JSONL that `kvlens-cli score` reads back)",
        "FILE");
    parser.addOption({QStringLiteral("json"), QStringLiteral("print one JSON object per suite")});
    parser.addOption({QStringLiteral("markdown"),
                      QStringLiteral("print a model card's table: a row per suite, a column per "
                                     "length bucket, then each suite's other scorer fields")});
    addChatTemplateOptions(parser);
    parser.process(args);
    if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("markdown")))
        throw Error(QStringLiteral("--json and --markdown: choose one output"));
    for (const char* required : {"model", "suite", "n"})
        if (!parser.isSet(QLatin1String(required)))
            throw Error(QStringLiteral("missing --%1 (see --help)").arg(QLatin1String(required)));
    const int n = intOption(parser, "n", 1);
    const quint64 seed = seedOption(parser);
    const int maxNew = intOption(parser, "max-new-tokens", 0);
    const int threads = intOption(parser, "threads", 0);
    std::vector<TaskOptions> lengths;
    for (const QString& range :
         parser.value(QStringLiteral("tokens")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        TaskOptions options;
        std::tie(options.minTokens, options.maxTokens) =
            parseTokenRange(range.trimmed(), QStringLiteral("--tokens"));
        options.variant = parser.value(QStringLiteral("variant"));
        for (const TaskOptions& other : lengths)
            if (other.minTokens == options.minTokens && other.maxTokens == options.maxTokens)
                throw Error(QStringLiteral("--tokens: the range %1:%2 is given twice (it would "
                                           "draw the same samples again)")
                                .arg(options.minTokens)
                                .arg(options.maxTokens));
        lengths.push_back(options);
    }
    if (lengths.empty())
        throw Error(QStringLiteral("--tokens needs at least one MIN:MAX range"));
    const QStringList suites =
        parser.value(QStringLiteral("suite")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& suite : suites)
        makeTaskGenerator(suite.trimmed()); // unknown names fail before the model loads

    const QString dir = modelDirOption(parser.value(QStringLiteral("model")));
    const auto model = Transformer::load(dir);
    const auto tokenizer = loadTokenizer(model->checkpoint()->requireTokenizerPath());
    const PromptFormat format =
        PromptFormat::resolve(parser.value(QStringLiteral("chat-template")), dir,
                              chatVarsOption(parser), QDir::currentPath());
    if (threads > 0)
        at::set_num_threads(threads);

    std::unique_ptr<PredictionsFile> predictions;
    if (parser.isSet(QStringLiteral("predictions")))
        predictions =
            std::make_unique<PredictionsFile>(parser.value(QStringLiteral("predictions")));

    const bool json = parser.isSet(QStringLiteral("json"));
    const bool markdown = parser.isSet(QStringLiteral("markdown"));
    std::vector<SuiteEvaluation> evaluations;
    const bool bar = isatty(fileno(stderr)) != 0;
    for (const QString& suite : suites) {
        const SuiteEvaluation eval = evaluateSuite(
            *model, *tokenizer, suite.trimmed(), n, lengths, seed, maxNew,
            [&](int done, int total) {
                if (bar)
                    std::fprintf(stderr, "\r\033[K%s %d/%d", qPrintable(suite), done, total);
            },
            predictions ? SampleAnswerSink([&](const Sample& sample, const AnswerRun& run) {
                predictions->write(sample, run);
            })
                        : SampleAnswerSink(),
            format);
        if (bar)
            std::fprintf(stderr, "\r\033[K");
        if (json) {
            printJson(eval.toJson());
            continue;
        }
        if (markdown) {
            evaluations.push_back(eval);
            continue;
        }
        printLine(
            QStringLiteral("%1: score %2 (n=%3%4)")
                .arg(eval.suite)
                .arg(eval.score, 0, 'f', 3)
                .arg(eval.n)
                .arg(eval.skipped ? QStringLiteral(", %1 too long").arg(eval.skipped) : QString()));
        for (const LengthBucketScore& b : eval.buckets)
            printLine(QStringLiteral("  %1-%2 tokens: %3 (n=%4)")
                          .arg(b.minTokens)
                          .arg(b.maxTokens)
                          .arg(b.score, 0, 'f', 3)
                          .arg(b.n));
        if (eval.variants.size() > 1)
            for (const VariantScore& v : eval.variants)
                printLine(QStringLiteral("  variant %1: %2 (n=%3)")
                              .arg(v.variant)
                              .arg(v.score, 0, 'f', 3)
                              .arg(v.n));
        for (const auto& [name, value] : eval.scorerFields())
            printLine(QStringLiteral("  %1: %2").arg(name).arg(value, 0, 'f', 3));
    }
    if (markdown)
        std::fputs(qPrintable(evaluationTableMarkdown(evaluations)), stdout);
    return 0;
}

const CommandRegistrar evalCommand("eval", "FullCache score of a model on fresh samples of a suite",
                                   &runEval);

} // namespace
} // namespace kvl::cli
