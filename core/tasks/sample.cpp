#include "tasks/sample.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonArray>
#include <cmath>

namespace kvl {
namespace {

[[noreturn]] void fieldError(const QString& field, const QString& problem)
{
    throw Error(QStringLiteral("field '%1': %2").arg(field, problem));
}

QString requiredString(const QJsonObject& object, const QString& key, const QString& path)
{
    if (!object.contains(key))
        fieldError(path, QStringLiteral("missing"));
    const QJsonValue value = object.value(key);
    if (!value.isString())
        fieldError(path, QStringLiteral("expected a string, got %1").arg(jsonTypeName(value)));
    return value.toString();
}

QString optionalString(const QJsonObject& object, const QString& key, const QString& path)
{
    if (!object.contains(key))
        return {};
    return requiredString(object, key, path);
}

int requiredOffset(const QJsonObject& object, const QString& key, const QString& path)
{
    if (!object.contains(key))
        fieldError(path, QStringLiteral("missing"));
    const QJsonValue value = object.value(key);
    const double d = value.toDouble(-1.0);
    if (!value.isDouble() || d != std::floor(d))
        fieldError(path, QStringLiteral("expected an integer, got %1").arg(jsonTypeName(value)));
    if (d < 0 || d > 1e9)
        fieldError(path, QStringLiteral("%1 is out of range").arg(d));
    return int(d);
}

Span spanFromJson(const QJsonValue& value, const QString& path, const Sample& sample)
{
    if (!value.isObject())
        fieldError(path, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
    const QJsonObject o = value.toObject();
    Span span;

    const QString kind = requiredString(o, QStringLiteral("kind"), path + QStringLiteral(".kind"));
    const auto k = spanKindFromName(kind);
    if (!k)
        fieldError(
            path + QStringLiteral(".kind"),
            QStringLiteral("unknown kind '%1' (evidence, distractor or instruction)").arg(kind));
    span.kind = *k;

    const QString rolePath = path + QStringLiteral(".role");
    if (span.kind == SpanKind::Instruction) {
        const QString role = requiredString(o, QStringLiteral("role"), rolePath);
        const auto r = instructionRoleFromName(role);
        if (!r)
            fieldError(rolePath, QStringLiteral("unknown role '%1' (system_rule, format_rule, "
                                                "secret, request or defense)")
                                     .arg(role));
        span.role = *r;
    } else if (o.contains(QStringLiteral("role"))) {
        fieldError(rolePath, QStringLiteral("only instruction spans have a role"));
    }

    span.label = optionalString(o, QStringLiteral("label"), path + QStringLiteral(".label"));

    const QString fieldPath = path + QStringLiteral(".field");
    if (o.contains(QStringLiteral("field"))) {
        const QString field = requiredString(o, QStringLiteral("field"), fieldPath);
        const auto f = spanFieldFromName(field);
        if (!f)
            fieldError(
                fieldPath,
                QStringLiteral("unknown field '%1' (context, question or system)").arg(field));
        span.field = *f;
    }

    span.begin = requiredOffset(o, QStringLiteral("begin"), path + QStringLiteral(".begin"));
    span.end = requiredOffset(o, QStringLiteral("end"), path + QStringLiteral(".end"));
    if (span.begin >= span.end)
        fieldError(
            path + QStringLiteral(".begin"),
            QStringLiteral("begin (%1) must be less than end (%2)").arg(span.begin).arg(span.end));
    const qsizetype length = sample.fieldText(span.field).size();
    if (span.end > length)
        fieldError(path + QStringLiteral(".end"),
                   QStringLiteral("%1 is past the end of the %2 (%3 characters)")
                       .arg(span.end)
                       .arg(spanFieldName(span.field))
                       .arg(length));
    return span;
}

} // namespace

const QString& Sample::fieldText(SpanField field) const
{
    return field == SpanField::Context ? context : field == SpanField::Question ? question : system;
}

QString Sample::spanText(const Span& span) const
{
    return fieldText(span.field).mid(span.begin, span.end - span.begin);
}

QJsonObject sampleToJson(const Sample& sample)
{
    QJsonArray spans;
    for (const Span& s : sample.spans) {
        QJsonObject o{{QStringLiteral("kind"), spanKindName(s.kind)},
                      {QStringLiteral("field"), spanFieldName(s.field)},
                      {QStringLiteral("begin"), s.begin},
                      {QStringLiteral("end"), s.end}};
        if (s.kind == SpanKind::Instruction)
            o.insert(QStringLiteral("role"), instructionRoleName(s.role));
        if (!s.label.isEmpty())
            o.insert(QStringLiteral("label"), s.label);
        spans.append(o);
    }
    QJsonObject out{{QStringLiteral("id"), sample.id},
                    {QStringLiteral("suite"), sample.suite},
                    {QStringLiteral("variant"), sample.variant},
                    {QStringLiteral("context"), sample.context},
                    {QStringLiteral("question"), sample.question},
                    {QStringLiteral("answer"), sample.answer},
                    {QStringLiteral("spans"), spans},
                    {QStringLiteral("meta"), sample.meta}};
    // Written only when there is one: files of samples without it stay as they were.
    if (!sample.system.isEmpty())
        out.insert(QStringLiteral("system"), sample.system);
    return out;
}

Sample sampleFromJson(const QJsonObject& object)
{
    Sample sample;
    sample.id = requiredString(object, QStringLiteral("id"), QStringLiteral("id"));
    sample.suite = optionalString(object, QStringLiteral("suite"), QStringLiteral("suite"));
    sample.variant = optionalString(object, QStringLiteral("variant"), QStringLiteral("variant"));
    sample.system = optionalString(object, QStringLiteral("system"), QStringLiteral("system"));
    sample.context = requiredString(object, QStringLiteral("context"), QStringLiteral("context"));
    sample.question =
        requiredString(object, QStringLiteral("question"), QStringLiteral("question"));
    sample.answer = requiredString(object, QStringLiteral("answer"), QStringLiteral("answer"));

    if (object.contains(QStringLiteral("meta"))) {
        const QJsonValue meta = object.value(QStringLiteral("meta"));
        if (!meta.isObject())
            fieldError(QStringLiteral("meta"),
                       QStringLiteral("expected an object, got %1").arg(jsonTypeName(meta)));
        sample.meta = meta.toObject();
    }

    if (object.contains(QStringLiteral("spans"))) {
        const QJsonValue spans = object.value(QStringLiteral("spans"));
        if (!spans.isArray())
            fieldError(QStringLiteral("spans"),
                       QStringLiteral("expected an array, got %1").arg(jsonTypeName(spans)));
        const QJsonArray array = spans.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            sample.spans.push_back(
                spanFromJson(array.at(i), QStringLiteral("spans[%1]").arg(i), sample));
    }
    return sample;
}

} // namespace kvl
