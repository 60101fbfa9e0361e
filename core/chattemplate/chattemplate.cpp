#include "chattemplate/chattemplate.h"

#include "chattemplate/jinjabuiltins.h"
#include "chattemplate/jinjajson.h"
#include "chattemplate/jinjalexer.h"
#include "chattemplate/jinjaparser.h"
#include "chattemplate/jinjarenderer.h"
#include "common/error.h"
#include "common/jsonio.h"

namespace kvl {

using jinja::Value;

ChatTemplate::ChatTemplate(const QString& source, const QString& origin)
    : m_source(source), m_origin(origin)
{
    try {
        m_body = std::make_shared<const jinja::Body>(jinja::parseTemplate(jinja::tokenize(source)));
    } catch (const Error& e) {
        throw Error(origin, e.message());
    }
}

namespace {

Value configValue(const QString& path)
{
    return jinja::parseJson(readFileBytes(path), path);
}

} // namespace

jinja::Dict ChatTemplate::specialTokens(const QString& path)
{
    const Value config = configValue(path);
    jinja::Dict tokens;
    if (!config.isDict())
        throw Error(path, QStringLiteral("expected a JSON object"));
    for (const char* name : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                             "cls_token", "mask_token"}) {
        const Value* v = config.dict->find(QLatin1String(name));
        if (!v || v->isNone())
            continue;
        if (v->isString()) {
            tokens.set(QLatin1String(name), *v);
        } else if (v->isDict() && v->dict->find(QStringLiteral("content")) &&
                   v->dict->find(QStringLiteral("content"))->isString()) {
            tokens.set(QLatin1String(name), *v->dict->find(QStringLiteral("content")));
        } else {
            throw Error(path, QStringLiteral("%1 is neither a string nor {\"content\": ...}")
                                  .arg(QLatin1String(name)));
        }
    }
    return tokens;
}

ChatTemplate ChatTemplate::fromTokenizerConfig(const QString& path)
{
    const Value config = configValue(path);
    const Value* t = config.isDict() ? config.dict->find(QStringLiteral("chat_template")) : nullptr;
    QString source;
    if (t && t->isString()) {
        source = t->s;
    } else if (t && t->isList()) {
        for (const Value& named : *t->list) {
            const Value* name = named.isDict() ? named.dict->find(QStringLiteral("name")) : nullptr;
            const Value* body =
                named.isDict() ? named.dict->find(QStringLiteral("template")) : nullptr;
            if (name && body && name->isString() && body->isString() &&
                name->s == QLatin1String("default"))
                source = body->s;
        }
        if (source.isNull())
            throw Error(path, QStringLiteral("chat_template lists no template named \"default\""));
    } else {
        throw Error(path, QStringLiteral("has no chat_template (a base model? give the template "
                                         "with --chat-template FILE, or none)"));
    }
    ChatTemplate tmpl(source, path);
    tmpl.m_specialTokens = specialTokens(path);
    return tmpl;
}

ChatTemplate ChatTemplate::fromFile(const QString& path, const QString& tokenizerConfigPath)
{
    ChatTemplate tmpl(QString::fromUtf8(readFileBytes(path)), path);
    if (!tokenizerConfigPath.isEmpty())
        tmpl.m_specialTokens = specialTokens(tokenizerConfigPath);
    return tmpl;
}

QString ChatTemplate::render(const Value& messages, const Options& options) const
{
    jinja::Dict context = jinja::globalFunctions(
        options.now ? options.now
                    : std::function<QDateTime()>([] { return QDateTime::currentDateTime(); }));
    for (const auto& [k, v] : m_specialTokens.items)
        context.set(k, v);
    context.set(QStringLiteral("messages"), messages);
    context.set(QStringLiteral("tools"), Value::none());
    context.set(QStringLiteral("documents"), Value::none());
    context.set(QStringLiteral("add_generation_prompt"),
                Value::boolean(options.addGenerationPrompt));
    for (const auto& [k, v] : options.extra.items)
        context.set(k, v);
    try {
        return jinja::Renderer(context).render(*m_body);
    } catch (const Error& e) {
        throw Error(m_origin, e.message());
    }
}

QString ChatTemplate::render(const std::vector<ChatMessage>& messages, const Options& options) const
{
    jinja::List list;
    for (const ChatMessage& m : messages) {
        jinja::Dict d;
        d.set(QStringLiteral("role"), Value::string(m.role));
        d.set(QStringLiteral("content"), Value::string(m.content));
        list.push_back(Value::makeDict(std::move(d)));
    }
    return render(Value::makeList(std::move(list)), options);
}

} // namespace kvl
