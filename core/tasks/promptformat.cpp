#include "tasks/promptformat.h"

#include "chattemplate/jinjajson.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace kvl {
namespace {

bool hasChatTemplate(const QString& configPath)
{
    // Parsed the way ChatTemplate reads it, so a malformed file is named the same way.
    const jinja::Value config = jinja::parseJson(readFileBytes(configPath), configPath);
    if (!config.isDict())
        throw Error(configPath, QStringLiteral("expected a JSON object"));
    const jinja::Value* t = config.dict->find(QStringLiteral("chat_template"));
    return t && !t->isNone();
}

jinja::Value jinjaValue(const QJsonValue& v, const QString& origin)
{
    // Through JSON text: one conversion of JSON into Jinja values (jinja::parseJson).
    const QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    const jinja::Value list = jinja::parseJson(text, origin);
    return list.list->front();
}

} // namespace

PromptFormat PromptFormat::resolve(const QString& choiceIn, const QString& modelDir,
                                   const QJsonObject& vars, const QString& baseDir)
{
    PromptFormat format;
    const QString choice = choiceIn.isEmpty() ? QStringLiteral("auto") : choiceIn;
    const QString config = QDir(modelDir).filePath(QStringLiteral("tokenizer_config.json"));
    const bool haveConfig = !modelDir.isEmpty() && QFileInfo::exists(config);
    if (choice == QLatin1String("none") ||
        (choice == QLatin1String("auto") && (!haveConfig || !hasChatTemplate(config)))) {
        if (!vars.isEmpty())
            throw Error(QStringLiteral("chat template variables (%1) given, but the prompt has no "
                                       "chat template (%2)")
                            .arg(vars.keys().join(QLatin1String(", ")),
                                 choice == QLatin1String("none")
                                     ? QStringLiteral("none")
                                     : QStringLiteral("auto: %1 has none").arg(config)));
        return format;
    }
    if (choice == QLatin1String("auto")) {
        format.m_template = std::make_shared<const ChatTemplate>(
            ChatTemplate::fromTokenizerConfig(QFileInfo(config).absoluteFilePath()));
    } else {
        const QString file = QFileInfo(choice).isAbsolute() || baseDir.isEmpty()
                                 ? choice
                                 : QDir(baseDir).filePath(choice);
        if (!QFileInfo(file).isFile())
            throw Error(file, QStringLiteral("chat template file not found (give auto, none or "
                                             "a Jinja template file)"));
        format.m_template = std::make_shared<const ChatTemplate>(ChatTemplate::fromFile(
            QFileInfo(file).absoluteFilePath(), haveConfig ? config : QString()));
    }
    for (auto it = vars.begin(); it != vars.end(); ++it)
        format.m_options.extra.set(
            it.key(), jinjaValue(it.value(), QStringLiteral("chat template variable ") + it.key()));
    format.m_options.addGenerationPrompt = true;
    format.m_vars = vars;
    format.m_sha256 = QString::fromLatin1(
        QCryptographicHash::hash(format.m_template->source().toUtf8(), QCryptographicHash::Sha256)
            .toHex());
    return format;
}

QJsonObject PromptFormat::identity() const
{
    if (!m_template)
        return {{QStringLiteral("template"), QStringLiteral("none")}};
    return {{QStringLiteral("template"), m_template->origin()},
            {QStringLiteral("sha256"), m_sha256},
            {QStringLiteral("vars"), m_vars}};
}

QString PromptFormat::describe() const
{
    if (!m_template)
        return QStringLiteral("none");
    return QStringLiteral("%1 (sha256 %2)").arg(m_template->origin(), m_sha256.left(12));
}

} // namespace kvl
