// `kvlens-cli chat-render`: a conversation through a model's chat template, rendered as
// transformers' apply_chat_template(tokenize=False) renders it.
#include "clicommand.h"
#include "clioutput.h"

#include "chattemplate/chattemplate.h"
#include "chattemplate/jinjajson.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QCommandLineParser>
#include <QFileInfo>
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
    });
    p.process(args);

    QString config = p.value(QStringLiteral("tokenizer-config"));
    if (p.isSet(QStringLiteral("model"))) {
        if (!config.isEmpty())
            throw Error(
                QStringLiteral("give at most one of --model DIR or --tokenizer-config FILE"));
        config = p.value(QStringLiteral("model")) + QStringLiteral("/tokenizer_config.json");
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
    if (single.isEmpty() == jsonl.isEmpty())
        throw Error(QStringLiteral("give exactly one of --messages F or --jsonl F"));

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
    const QList<QByteArray> lines = readFileBytes(jsonl).split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().isEmpty())
            continue;
        const QString where = QStringLiteral("%1:%2").arg(jsonl).arg(i + 1);
        renderOne(messagesOf(jinja::parseJson(lines[i], where), where), where);
    }
    return 0;
}

const CommandRegistrar
    registrar("chat-render", "render a conversation with a model's chat template", &runChatRender);
} // namespace
} // namespace kvl::cli
