// `kvlens-cli chat-render`: a conversation through a model's chat template, rendered as
// transformers' apply_chat_template(tokenize=False) renders it.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "chattemplate/chattemplate.h"
#include "chattemplate/jinjajson.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/chatpromptids.h"
#include "tasks/samplejsonl.h"
#include "tokenizer/tokenizer.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace kvl::cli {
namespace {

// A conversation: a JSON list of messages, or an object with "messages" (and, as in
// a JSONL record, anything else, which is ignored).
jinja::Value messagesOf(const jinja::Value& v, const QString& where)
{
    if (v.isList())
        return v;
    if (v.isDict())
        if (const jinja::Value* m = v.dict->find(QStringLiteral("messages")); m && m->isList())
            return *m;
    throw Error(where, QStringLiteral("expected a list of messages or {\"messages\": [...]}"));
}

// --sample: the instruct layout of one sample (the compressed prefix, the uncompressed
// tail) with each span's place in it, and token positions when a tokenizer is given.
QJsonObject sampleLayout(const ChatTemplate& tmpl, const Sample& sample, const QString& system,
                         const ChatTemplate::Options& options, const Tokenizer* tokenizer)
{
    std::optional<ChatPromptIds> ids;
    ChatPromptLayout layout;
    if (tokenizer) {
        ids = chatPromptIds(*tokenizer, tmpl, sample, system, options);
        layout = ids->layout;
    } else {
        layout = layoutChatPrompt(tmpl, {system, sample.context, sample.question}, options);
    }
    QJsonObject out{{QStringLiteral("prefix"), layout.prefix},
                    {QStringLiteral("tail"), layout.tail}};
    QJsonArray spans;
    for (const Span& span : sample.spans) {
        const bool inContext = span.field != SpanField::Question; // context or system: prefix
        const auto field = span.field == SpanField::System    ? ChatPromptLayout::Field::System
                           : span.field == SpanField::Context ? ChatPromptLayout::Field::Context
                                                              : ChatPromptLayout::Field::Question;
        const auto [b, e] = layout.map(field, span.begin, span.end);
        QJsonObject o{
            {QStringLiteral("kind"), spanKindName(span.kind)},
            {QStringLiteral("field"), spanFieldName(span.field)},
            {QStringLiteral("label"), span.label},
            {QStringLiteral("part"), inContext ? QStringLiteral("prefix") : QStringLiteral("tail")},
            {QStringLiteral("chars"), QJsonArray{b, e}},
            {QStringLiteral("text"),
             b < 0 ? QString() : (inContext ? layout.prefix : layout.tail).mid(b, e - b)}};
        if (ids) {
            const TokenRange r = ids->tokens(field, span.begin, span.end);
            o.insert(QStringLiteral("tokens"), QJsonArray{r.begin, r.end});
        }
        spans.append(o);
    }
    out.insert(QStringLiteral("spans"), spans);
    if (ids) {
        out.insert(QStringLiteral("context_tokens"), qint64(ids->ids.context.size()));
        out.insert(QStringLiteral("question_tokens"), qint64(ids->ids.question.size()));
        out.insert(QStringLiteral("context_offset"), ids->ids.contextOffset);
    }
    return out;
}

int runChatRender(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Render a conversation with a model's chat template ({\"prompt\": ...}); "
                       "the template is the chat_template of tokenizer_config.json unless "
                       "--chat-template gives a file."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("model"), QStringLiteral("model directory (DIR/tokenizer_config.json)"),
         QStringLiteral("DIR")},
        {QStringLiteral("tokenizer-config"), QStringLiteral("a tokenizer_config.json"),
         QStringLiteral("FILE")},
        {QStringLiteral("chat-template"),
         QStringLiteral("a Jinja template file instead of the config's, or none (a base model)"),
         QStringLiteral("FILE")},
        {QStringLiteral("messages"),
         QStringLiteral(
             "a JSON list of {\"role\", \"content\"} messages (or {\"messages\": [...]})"),
         QStringLiteral("F")},
        {QStringLiteral("jsonl"), QStringLiteral("one {\"messages\": [...]} per line"),
         QStringLiteral("F")},
        {QStringLiteral("add-generation-prompt"),
         QStringLiteral("end with the assistant's turn header")},
        {QStringLiteral("var"),
         QStringLiteral("a template variable, its value as JSON (enable_thinking=false); "
                        "repeatable"),
         QStringLiteral("NAME=JSON")},
        {QStringLiteral("text"), QStringLiteral("print the prompt as plain text, not JSON")},
        {QStringLiteral("sample"),
         QStringLiteral("instead of messages: the instruct layout of a sample of this JSONL file "
                        "(prefix compressed, tail not), spans placed in it"),
         QStringLiteral("F")},
        {QStringLiteral("index"), QStringLiteral("with --sample: which sample (default 0)"),
         QStringLiteral("I")},
        {QStringLiteral("system"),
         QStringLiteral("with --sample: a system turn's text (default: the sample's system)"),
         QStringLiteral("TEXT")},
        {QStringLiteral("tokenizer"),
         QStringLiteral("with --sample: token positions too (default DIR/tokenizer.json)"),
         QStringLiteral("FILE")},
    });
    p.process(args);

    QString config = p.value(QStringLiteral("tokenizer-config"));
    if (p.isSet(QStringLiteral("model"))) {
        if (!config.isEmpty())
            throw Error(
                QStringLiteral("give at most one of --model DIR or --tokenizer-config FILE"));
        config = modelDirOption(p.value(QStringLiteral("model"))) +
                 QStringLiteral("/tokenizer_config.json");
    }
    const QString templateFile = p.value(QStringLiteral("chat-template"));
    if (templateFile == QLatin1String("none"))
        throw Error(QStringLiteral("--chat-template none: a base model has no chat template, so "
                                   "there is nothing to render"));
    if (config.isEmpty() && templateFile.isEmpty())
        throw Error(QStringLiteral("give --model DIR, --tokenizer-config FILE or --chat-template "
                                   "FILE"));
    const QString single = p.value(QStringLiteral("messages"));
    const QString jsonl = p.value(QStringLiteral("jsonl"));
    const QString samplePath = p.value(QStringLiteral("sample"));
    if (int(!single.isEmpty()) + int(!jsonl.isEmpty()) + int(!samplePath.isEmpty()) != 1)
        throw Error(QStringLiteral("give exactly one of --messages F, --jsonl F or --sample F"));

    // Special tokens come from the config when there is one (a --model directory may lack
    // it when --chat-template is given).
    const bool haveConfig = !config.isEmpty() && QFileInfo::exists(config);
    const ChatTemplate tmpl =
        templateFile.isEmpty()
            ? ChatTemplate::fromTokenizerConfig(config)
            : ChatTemplate::fromFile(templateFile, haveConfig ? config : QString());

    ChatTemplate::Options options;
    options.addGenerationPrompt = p.isSet(QStringLiteral("add-generation-prompt"));
    for (const QString& v : p.values(QStringLiteral("var"))) {
        const qsizetype eq = v.indexOf(QLatin1Char('='));
        if (eq <= 0)
            throw Error(QStringLiteral("--var %1: expected NAME=JSON").arg(v));
        options.extra.set(v.left(eq),
                          jinja::parseJson(v.mid(eq + 1).toUtf8(), QStringLiteral("--var ") + v));
    }
    if (!samplePath.isEmpty()) {
        const std::vector<Sample> samples = readSamples(samplePath);
        bool ok = false;
        const int index = p.isSet(QStringLiteral("index"))
                              ? p.value(QStringLiteral("index")).toInt(&ok)
                              : (ok = true, 0);
        if (!ok || index < 0 || index >= int(samples.size()))
            throw Error(samplePath, QStringLiteral("--index %1 is not in [0, %2)")
                                        .arg(p.value(QStringLiteral("index")))
                                        .arg(samples.size()));
        QString tokPath = p.value(QStringLiteral("tokenizer"));
        if (tokPath.isEmpty() && p.isSet(QStringLiteral("model")) &&
            QFileInfo::exists(modelDirOption(p.value(QStringLiteral("model"))) +
                              QStringLiteral("/tokenizer.json")))
            tokPath = modelDirOption(p.value(QStringLiteral("model"))) +
                      QStringLiteral("/tokenizer.json");
        const std::unique_ptr<Tokenizer> tok = tokPath.isEmpty() ? nullptr : loadTokenizer(tokPath);
        try {
            const Sample& sample = samples[size_t(index)];
            printJson(sampleLayout(tmpl, sample,
                                   p.isSet(QStringLiteral("system"))
                                       ? p.value(QStringLiteral("system"))
                                       : sample.system,
                                   options, tok.get()));
        } catch (const Error& e) {
            throw Error(QStringLiteral("%1 sample %2").arg(samplePath).arg(index), e.message());
        }
        return 0;
    }
    const bool plain = p.isSet(QStringLiteral("text"));
    const auto renderOne = [&](const jinja::Value& messages, const QString& where) {
        QString prompt;
        try {
            prompt = tmpl.render(messages, options);
        } catch (const Error& e) {
            throw Error(where, e.message());
        }
        if (plain)
            printLine(prompt);
        else
            printJson({{QStringLiteral("prompt"), prompt}});
    };

    if (!single.isEmpty()) {
        renderOne(messagesOf(jinja::parseJson(readFileBytes(single), single), single), single);
        return 0;
    }
    forEachLine(jsonl, [&](const QByteArray& line, const QString& where) {
        renderOne(messagesOf(jinja::parseJson(line, where), where), where);
    });
    return 0;
}

const CommandRegistrar chatRenderCommand("chat-render",
                                         "render a conversation with a model's chat template",
                                         &runChatRender);
} // namespace
} // namespace kvl::cli
