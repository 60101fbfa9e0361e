#include "common/jsonio.h"

#include "common/atomicfile.h"
#include "common/error.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace kvl {

QByteArray readFileBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path, QStringLiteral("cannot open for reading (%1)").arg(file.errorString()));
    return file.readAll();
}

QJsonObject readJsonObject(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        throw Error(path, QStringLiteral("malformed JSON at offset %1: %2")
                              .arg(parseError.offset)
                              .arg(parseError.errorString()));
    if (!doc.isObject())
        throw Error(path, QStringLiteral("expected a JSON object at the top level"));
    return doc.object();
}

void writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

namespace {
// The length of the bare NaN / Infinity / -Infinity at `i`, or 0.
qsizetype bareNonFiniteAt(const QByteArray& text, qsizetype i)
{
    for (const char* word : {"-Infinity", "Infinity", "NaN"}) {
        const qsizetype n = qsizetype(qstrlen(word));
        if (text.mid(i, n) == word)
            return n;
    }
    return 0;
}
} // namespace

QByteArray nullifyBareNonFinite(const QByteArray& text)
{
    if (!text.contains("NaN") && !text.contains("Infinity"))
        return text;
    QByteArray out;
    out.reserve(text.size());
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < text.size())
                out.append(text[++i]);
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        const qsizetype bare = bareNonFiniteAt(text, i);
        if (bare > 0) {
            out.append("null");
            i += bare - 1;
        } else {
            out.append(c);
        }
    }
    return out;
}

QByteArray toJsonLine(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

std::optional<qint64> jsonWholeNumber(const QJsonValue& value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double x = value.toDouble();
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (!(std::abs(x) <= kExact) || x != std::trunc(x))
        return std::nullopt;
    return qint64(x);
}

QString jsonTypeName(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

} // namespace kvl
