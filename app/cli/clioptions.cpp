#include "clioptions.h"

#include "common/jsonio.h"

#include "checkpoint/modellocator.h"
#include "common/error.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace kvl::cli {

QString modelDirOption(const QString& value)
{
    return resolveModelDir(value, QStringLiteral(KVLENS_SOURCE_RESOURCES));
}

int intOption(const QCommandLineParser& parser, const char* name, int min)
{
    bool ok = false;
    const int v = parser.value(QLatin1String(name)).toInt(&ok);
    if (ok && v >= min)
        return v;
    const QString what = min == 1   ? QStringLiteral("a positive integer")
                         : min == 0 ? QStringLiteral("a non-negative integer")
                                    : QStringLiteral("an integer >= %1").arg(min);
    throw Error(QStringLiteral("--%1 must be %2").arg(QLatin1String(name), what));
}

quint64 seedOption(const QCommandLineParser& parser, const char* name)
{
    bool ok = false;
    const quint64 v = parser.value(QLatin1String(name)).toULongLong(&ok);
    if (!ok)
        throw Error(QStringLiteral("--%1 must be a non-negative integer").arg(QLatin1String(name)));
    return v;
}

void addChatTemplateOptions(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("chat-template"),
                      QStringLiteral("prompt layout: auto (the model's tokenizer_config.json "
                                     "chat_template, else none), none (base model) or a Jinja "
                                     "template file"),
                      QStringLiteral("auto|none|FILE"), QStringLiteral("auto")});
    parser.addOption({QStringLiteral("chat-var"),
                      QStringLiteral("a chat template variable, its value as JSON "
                                     "(enable_thinking=false); repeatable"),
                      QStringLiteral("NAME=JSON")});
}

QJsonObject chatVarsOption(const QCommandLineParser& parser)
{
    QJsonObject vars;
    for (const QString& v : parser.values(QStringLiteral("chat-var"))) {
        const qsizetype eq = v.indexOf(QLatin1Char('='));
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson("[" + v.mid(eq + 1).toUtf8() + "]", &err);
        if (eq <= 0 || err.error != QJsonParseError::NoError || doc.array().size() != 1)
            throw Error(QStringLiteral("--chat-var %1: expected NAME=JSON (enable_thinking=false, "
                                       "name=\"text\")")
                            .arg(v));
        vars.insert(v.left(eq), doc.array().first());
    }
    return vars;
}

void forEachLine(const QString& file,
                 const std::function<void(const QByteArray& line, const QString& where)>& line)
{
    const QList<QByteArray> lines = readFileBytes(file).split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (!lines[i].trimmed().isEmpty())
            line(lines[i], QStringLiteral("%1:%2").arg(file).arg(i + 1));
}

} // namespace kvl::cli
