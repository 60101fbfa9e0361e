// `kvlens-cli generate`: FullCache greedy answer to a question after a context.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "common/utf8text.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"
#include "tokenizer/tokenizer.h"

#include <c10/core/InferenceMode.h>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runGenerate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Prefills the context, then greedily answers the question (FullCache)."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("model"), QStringLiteral("model directory"), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("context-file"), QStringLiteral("context text (UTF-8)"),
                      QStringLiteral("C")});
    parser.addOption({QStringLiteral("question-file"), QStringLiteral("question text (UTF-8)"),
                      QStringLiteral("Q")});
    parser.addOption({QStringLiteral("max-new-tokens"), QStringLiteral("answer length limit"),
                      QStringLiteral("N"), QStringLiteral("64")});
    parser.addOption({QStringLiteral("tokenizer"),
                      QStringLiteral("tokenizer.json or \"byte\" (default: the model's)"),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("print JSON")});
    parser.process(args);
    for (const char* required : {"model", "context-file", "question-file"})
        if (!parser.isSet(QLatin1String(required)))
            throw Error(QStringLiteral("missing --%1 (see --help)").arg(QLatin1String(required)));
    const int maxNew = intOption(parser, "max-new-tokens", 1);

    const auto model = Transformer::load(modelDirOption(parser.value(QStringLiteral("model"))));
    const auto tokenizer = loadTokenizer(
        model->checkpoint()->requireTokenizerPath(parser.value(QStringLiteral("tokenizer"))));

    const QString context = readUtf8File(parser.value(QStringLiteral("context-file")));
    const QString question = readUtf8File(parser.value(QStringLiteral("question-file")));
    const std::vector<int> contextIds = tokenizer->encode(context, true);
    const std::vector<int> questionIds = tokenizer->encode(question, false);

    GenerateOptions options;
    options.maxNewTokens = maxNew;
    options.stopIds = tokenizer->stopIds();
    for (int id : model->config().eosTokenIds)
        if (std::find(options.stopIds.begin(), options.stopIds.end(), id) == options.stopIds.end())
            options.stopIds.push_back(id);

    c10::InferenceMode guard;
    const ContextCache cache = model->prefill(contextIds);
    const Generation gen = generateAnswer(*model, cache, {}, questionIds, options);
    const QString answer = tokenizer->decode(gen.ids);
    if (!parser.isSet(QStringLiteral("json"))) {
        printLine(answer);
        return 0;
    }
    QJsonArray ids;
    for (int id : gen.ids)
        ids.append(id);
    printJson({{QStringLiteral("answer"), answer},
               {QStringLiteral("ids"), ids},
               {QStringLiteral("stop"), stopName(gen.stop)},
               {QStringLiteral("context_tokens"), qint64(contextIds.size())},
               {QStringLiteral("question_tokens"), qint64(questionIds.size())}});
    return 0;
}

const CommandRegistrar generateCommand("generate",
                                       "greedy FullCache answer to a question after a context",
                                       &runGenerate);
} // namespace
} // namespace kvl::cli
