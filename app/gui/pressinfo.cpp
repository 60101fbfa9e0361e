#include "pressinfo.h"

#include "common/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>

namespace kvl {

namespace {

PressParam::Type typeOfDefault(const QString& value)
{
    if (value == QLatin1String("true") || value == QLatin1String("false"))
        return PressParam::Type::Bool;
    bool ok = false;
    value.toLongLong(&ok);
    if (ok)
        return PressParam::Type::Integer;
    value.toDouble(&ok);
    return ok ? PressParam::Type::Real : PressParam::Type::Text;
}

} // namespace

static PressParam::Type typeNamed(const QString& name, const QString& defaultValue)
{
    if (name == QLatin1String("int"))
        return PressParam::Type::Integer;
    if (name == QLatin1String("float"))
        return PressParam::Type::Real;
    if (name == QLatin1String("floats"))
        return PressParam::Type::Reals;
    if (name == QLatin1String("bool"))
        return PressParam::Type::Bool;
    if (name == QLatin1String("choice"))
        return PressParam::Type::Choice;
    if (name == QLatin1String("text"))
        return PressParam::Type::Text;
    return typeOfDefault(defaultValue); // an older CLI
}

QString PressParam::check(const QString& raw) const
{
    const QString value = raw.trimmed();
    if (value.isEmpty())
        return {}; // the default
    static const QRegularExpression separators(QStringLiteral("[,+():=\\s]"));
    const auto inRange = [this](double x) -> QString {
        if (bounded && !(x >= min && x <= max))
            return QObject::tr("%1: %2 is outside [%3, %4]")
                .arg(name, QString::number(x, 'g', 10), QString::number(min, 'g', 10),
                     QString::number(max, 'g', 10));
        if (!bounded && x < 0)
            return QObject::tr("%1: must not be negative").arg(name);
        return {};
    };
    switch (type) {
    case Type::Bool:
        if (value != QLatin1String("true") && value != QLatin1String("false"))
            return QObject::tr("%1: true or false").arg(name);
        return {};
    case Type::Integer:
    case Type::Real: {
        bool ok = false;
        const double x = value.toDouble(&ok);
        if (!ok)
            return QObject::tr("%1: '%2' is not a number").arg(name, value);
        // Without a printed type an integer default does not make the parameter an
        // integer (epsilon's is 0), so any number passes there.
        if (type == Type::Integer && bounded) {
            value.toLongLong(&ok);
            if (!ok)
                return QObject::tr("%1: '%2' is not a whole number").arg(name, value);
        }
        return inRange(x);
    }
    case Type::Reals:
        for (const QString& part : value.split(QLatin1Char(';'))) {
            bool ok = false;
            const double x = part.toDouble(&ok);
            if (!ok)
                return QObject::tr("%1: '%2' is not a number").arg(name, part);
            if (const QString why = inRange(x); !why.isEmpty())
                return why;
        }
        return {};
    case Type::Choice:
        if (!choices.contains(value))
            return QObject::tr("%1: '%2' is not one of %3")
                .arg(name, value, choices.join(QStringLiteral(", ")));
        return {};
    case Type::Text:
        if (value.contains(separators))
            return QObject::tr("%1: no spaces or , + ( ) : = in a value (lists use ';')").arg(name);
        return {};
    }
    return {};
}

const PressParam* PressInfo::param(const QString& paramName) const
{
    for (const PressParam& p : params)
        if (p.name == paramName)
            return &p;
    return nullptr;
}

QString PressInfo::spec(const QString& innerSpec, const QMap<QString, QString>& values) const
{
    QString text = name;
    if (!innerSpec.trimmed().isEmpty())
        text += QLatin1Char('(') + innerSpec.trimmed() + QLatin1Char(')');
    QStringList set;
    for (const PressParam& p : params) {
        const QString v = values.value(p.name).trimmed();
        if (!v.isEmpty() && v != p.defaultValue)
            set << p.name + QLatin1Char('=') + v;
    }
    if (!set.isEmpty())
        text += QLatin1Char(':') + set.join(QLatin1Char(','));
    return text;
}

QVector<PressInfo> parsePressesJson(const QByteArray& json, const QString& origin)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(origin, QStringLiteral("not JSON: %1").arg(error.errorString()));
    const QJsonValue list = doc.object().value(QLatin1String("presses"));
    if (!list.isArray())
        throw Error(origin, QStringLiteral("no \"presses\" array"));
    QVector<PressInfo> presses;
    for (const QJsonValue& v : list.toArray()) {
        const QJsonObject o = v.toObject();
        PressInfo p;
        p.name = o.value(QLatin1String("name")).toString();
        if (p.name.isEmpty())
            throw Error(origin, QStringLiteral("a press without a name"));
        p.kind = o.value(QLatin1String("kind")).toString();
        p.inner = o.value(QLatin1String("inner")).toString();
        p.rule = o.value(QLatin1String("rule")).toString();
        for (const QJsonValue& c : o.value(QLatin1String("inner_choices")).toArray())
            p.innerChoices << c.toString();
        for (const QJsonValue& pv : o.value(QLatin1String("params")).toArray()) {
            const QJsonObject po = pv.toObject();
            PressParam param;
            param.name = po.value(QLatin1String("name")).toString();
            param.defaultValue = po.value(QLatin1String("default")).toString();
            param.help = po.value(QLatin1String("help")).toString();
            param.type = typeNamed(po.value(QLatin1String("type")).toString(), param.defaultValue);
            param.bounded = po.value(QLatin1String("min")).isDouble() &&
                            po.value(QLatin1String("max")).isDouble();
            param.min = po.value(QLatin1String("min")).toDouble();
            param.max = po.value(QLatin1String("max")).toDouble();
            for (const QJsonValue& c : po.value(QLatin1String("choices")).toArray())
                param.choices << c.toString();
            if (param.type == PressParam::Type::Choice && param.choices.isEmpty())
                throw Error(origin, QStringLiteral("press '%1': parameter '%2' is a choice "
                                                   "without choices")
                                        .arg(p.name, param.name));
            if (param.name.isEmpty())
                throw Error(origin,
                            QStringLiteral("press '%1': a parameter without a name").arg(p.name));
            p.params << param;
        }
        presses << p;
    }
    return presses;
}

PressSpecParts splitPressSpec(const QString& spec)
{
    PressSpecParts parts;
    QString text = spec.trimmed();
    QString params;
    // Parameters follow the first ':' outside parentheses.
    int depth = 0;
    qsizetype colon = -1;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        else if (c == QLatin1Char(':') && depth == 0) {
            colon = i;
            break;
        }
    }
    if (colon >= 0) {
        params = text.mid(colon + 1);
        text = text.left(colon);
    }
    const qsizetype open = text.indexOf(QLatin1Char('('));
    if (open >= 0) {
        if (!text.endsWith(QLatin1Char(')')))
            return {};
        parts.inner = text.mid(open + 1, text.size() - open - 2).trimmed();
        text = text.left(open);
    }
    parts.name = text.trimmed().toLower();
    for (const QString& kv : params.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return {};
        const QString key = kv.left(eq).trimmed();
        parts.values.insert(key, kv.mid(eq + 1).trimmed());
        parts.order << key;
    }
    return parts;
}

} // namespace kvl
