#include "tasks/importrecords.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <cmath>

namespace kvl {

std::vector<ImportRecord> readImportRecords(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    std::vector<ImportRecord> records;
    // A whole-file JSON array (HotpotQA's release, LongBench-v2's data.json).
    if (bytes.trimmed().startsWith('[')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            throw Error(path, QStringLiteral("malformed JSON array at byte %1: %2")
                                  .arg(parseError.offset)
                                  .arg(parseError.errorString()));
        const QJsonArray array = doc.array();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString where = QStringLiteral("record %1").arg(i + 1);
            if (!array.at(i).isObject())
                throw Error(path, where + QStringLiteral(": expected a JSON object, got %1")
                                              .arg(jsonTypeName(array.at(i))));
            records.push_back({array.at(i).toObject(), where});
        }
        return records;
    }
    int lineNumber = 0;
    for (const QByteArray& rawLine : bytes.split('\n')) {
        ++lineNumber;
        const QByteArray text = rawLine.trimmed();
        if (text.isEmpty())
            continue;
        const QString where = QStringLiteral("line %1").arg(lineNumber);
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            throw Error(path, where + QStringLiteral(": malformed JSON at column %1: %2")
                                          .arg(parseError.offset + 1)
                                          .arg(parseError.errorString()));
        if (!doc.isObject())
            throw Error(path, where + QStringLiteral(": expected a JSON object"));
        records.push_back({doc.object(), where});
    }
    return records;
}

RecordReader::RecordReader(QString path, QString where, QJsonObject object)
    : m_path(std::move(path)), m_where(std::move(where)), m_object(std::move(object))
{}

void RecordReader::fail(const QString& field, const QString& problem) const
{
    QString where = m_where;
    if (!m_id.isEmpty())
        where += QStringLiteral(" (id '%1')").arg(m_id);
    throw Error(m_path, QStringLiteral("%1: field '%2': %3").arg(where, field, problem));
}

QJsonValue RecordReader::value(const QString& key) const
{
    if (!m_object.contains(key))
        fail(key, QStringLiteral("missing"));
    const QJsonValue v = m_object.value(key);
    if (v.isNull())
        fail(key, QStringLiteral("is null"));
    return v;
}

QString RecordReader::string(const QString& key) const
{
    if (!m_object.contains(key))
        fail(key, QStringLiteral("missing"));
    return stringAt(m_object.value(key), key);
}

QString RecordReader::optionalString(const QString& key) const
{
    const QJsonValue v = m_object.value(key);
    return v.isUndefined() || v.isNull() ? QString() : stringAt(v, key);
}

QJsonArray RecordReader::array(const QString& key) const
{
    if (!m_object.contains(key))
        fail(key, QStringLiteral("missing"));
    return arrayAt(m_object.value(key), key);
}

qint64 RecordReader::integer(const QString& key) const
{
    if (!m_object.contains(key))
        fail(key, QStringLiteral("missing"));
    return integerAt(m_object.value(key), key);
}

QString RecordReader::idText(const QString& key) const
{
    const QJsonValue v = value(key);
    if (v.isDouble())
        return QString::number(integerAt(v, key));
    const QString s = stringAt(v, key);
    if (s.isEmpty())
        fail(key, QStringLiteral("is empty"));
    return s;
}

QStringList RecordReader::strings(const QString& key, bool allowEmpty) const
{
    const QJsonArray a = array(key);
    if (a.isEmpty() && !allowEmpty)
        fail(key, QStringLiteral("is an empty array"));
    QStringList out;
    for (qsizetype i = 0; i < a.size(); ++i)
        out << stringAt(a.at(i), QStringLiteral("%1[%2]").arg(key).arg(i));
    return out;
}

QString RecordReader::stringAt(const QJsonValue& v, const QString& path) const
{
    if (!v.isString())
        fail(path, QStringLiteral("expected a string, got %1").arg(jsonTypeName(v)));
    return v.toString();
}

QJsonArray RecordReader::arrayAt(const QJsonValue& v, const QString& path) const
{
    if (!v.isArray())
        fail(path, QStringLiteral("expected an array, got %1").arg(jsonTypeName(v)));
    return v.toArray();
}

QJsonObject RecordReader::objectAt(const QJsonValue& v, const QString& path) const
{
    if (!v.isObject())
        fail(path, QStringLiteral("expected an object, got %1").arg(jsonTypeName(v)));
    return v.toObject();
}

qint64 RecordReader::integerAt(const QJsonValue& v, const QString& path) const
{
    const double d = v.toDouble(0.5);
    if (!v.isDouble() || d != std::floor(d) || std::abs(d) > 9e15)
        fail(path, QStringLiteral("expected an integer, got %1").arg(jsonTypeName(v)));
    return qint64(d);
}

QString importQuestion(const QString& question)
{
    return QStringLiteral("\nQuestion: ") + question + QStringLiteral("\nAnswer:");
}

std::pair<int, int> trimRange(const QString& text, int begin, int end)
{
    while (begin < end && text.at(begin).isSpace())
        ++begin;
    while (end > begin && text.at(end - 1).isSpace())
        --end;
    return {begin, end};
}

Span contextSpan(const QString& context, SpanKind kind, int begin, int end, const QString& label)
{
    const auto [b, e] = trimRange(context, begin, end);
    Span span;
    span.kind = kind;
    span.field = SpanField::Context;
    span.begin = b;
    span.end = e;
    span.label = label;
    return span;
}

QString quoteForError(const QString& text)
{
    const QString simple = text.simplified();
    return QLatin1Char('\'') +
           (simple.size() > 60 ? simple.left(57) + QStringLiteral("...") : simple) +
           QLatin1Char('\'');
}

void copyPresentMembers(const QJsonObject& from, std::initializer_list<const char*> keys,
                        QJsonObject& meta)
{
    for (const char* key : keys) {
        const QJsonValue v = from.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isNull())
            meta.insert(QLatin1String(key), v);
    }
}

} // namespace kvl
