#include "cache/pressparams.h"
#include <QStringList>

#include "common/error.h"

namespace kvl {

namespace {
thread_local PressParamsProbe* t_probe = nullptr;
} // namespace

QString paramTypeName(ParamRule::Type type)
{
    switch (type) {
    case ParamRule::Type::Integer:
        return QStringLiteral("int");
    case ParamRule::Type::Real:
        return QStringLiteral("float");
    case ParamRule::Type::Reals:
        return QStringLiteral("floats");
    case ParamRule::Type::Bool:
        return QStringLiteral("bool");
    case ParamRule::Type::Choice:
        return QStringLiteral("choice");
    case ParamRule::Type::Text:
        return QStringLiteral("text");
    }
    return {};
}

PressParamsProbe::PressParamsProbe(QString pressName)
    : m_name(std::move(pressName)), m_previous(t_probe)
{
    t_probe = this;
}

PressParamsProbe::~PressParamsProbe()
{
    t_probe = m_previous;
}

void PressParamsProbe::record(const QString& specName, ParamRule rule)
{
    if (specName.compare(m_name, Qt::CaseInsensitive) != 0)
        return;
    for (const ParamRule& r : m_rules)
        if (r.name == rule.name)
            return;
    m_rules.push_back(std::move(rule));
}

void PressParams::record(ParamRule rule) const
{
    if (t_probe)
        t_probe->record(m_spec.name, std::move(rule));
}

PressParams::PressParams(const PressSpec& spec) : m_spec(spec) {}

const QString* PressParams::given(const QString& key)
{
    m_read.insert(key);
    for (const auto& [k, v] : m_spec.params)
        if (k == key)
            return &v;
    return nullptr;
}

void PressParams::fail(const QString& key, const QString& problem) const
{
    throw Error(QStringLiteral("press spec '%1'").arg(m_spec.toString()),
                QStringLiteral("parameter '%1': %2").arg(key, problem));
}

double PressParams::real(const QString& key, double fallback, double min, double max)
{
    record({key, ParamRule::Type::Real, min, max, {}});
    double value = fallback;
    if (const QString* text = given(key)) {
        bool ok = false;
        value = text->toDouble(&ok);
        if (!ok)
            fail(key, QStringLiteral("'%1' is not a number").arg(*text));
    }
    if (!(value >= min && value <= max))
        fail(key, QStringLiteral("%1 is outside [%2, %3]").arg(value).arg(min).arg(max));
    m_used.emplace_back(key, QString::number(value));
    return value;
}

int PressParams::integer(const QString& key, int fallback, int min, int max)
{
    record({key, ParamRule::Type::Integer, double(min), double(max), {}});
    int value = fallback;
    if (const QString* text = given(key)) {
        bool ok = false;
        value = text->toInt(&ok);
        if (!ok)
            fail(key, QStringLiteral("'%1' is not an integer").arg(*text));
    }
    if (value < min || value > max)
        fail(key, QStringLiteral("%1 is outside [%2, %3]").arg(value).arg(min).arg(max));
    m_used.emplace_back(key, QString::number(value));
    return value;
}

bool PressParams::flag(const QString& key, bool fallback)
{
    record({key, ParamRule::Type::Bool, 0.0, 0.0, {}});
    bool value = fallback;
    if (const QString* text = given(key)) {
        const QString t = text->toLower();
        if (t == QLatin1String("true") || t == QLatin1String("1"))
            value = true;
        else if (t == QLatin1String("false") || t == QLatin1String("0"))
            value = false;
        else
            fail(key, QStringLiteral("'%1' is not true/false").arg(*text));
    }
    m_used.emplace_back(key, value ? QStringLiteral("true") : QStringLiteral("false"));
    return value;
}

QString PressParams::text(const QString& key, const QString& fallback)
{
    record({key, ParamRule::Type::Text, 0.0, 0.0, {}});
    const QString* text = given(key);
    const QString value = text ? *text : fallback;
    if (!value.isEmpty())
        m_used.emplace_back(key, value);
    return value;
}

QString PressParams::choice(const QString& key, const QString& fallback, const QStringList& values)
{
    record({key, ParamRule::Type::Choice, 0.0, 0.0, values});
    const QString* text = given(key);
    const QString value = text ? *text : fallback;
    if (!values.contains(value))
        fail(key,
             QStringLiteral("'%1' is not one of %2").arg(value, values.join(QStringLiteral(", "))));
    m_used.emplace_back(key, value);
    return value;
}

std::vector<double> PressParams::reals(const QString& key, double min, double max)
{
    record({key, ParamRule::Type::Reals, min, max, {}});
    std::vector<double> values;
    const QString* text = given(key);
    if (!text)
        return values;
    for (const QString& part : text->split(u';')) {
        bool ok = false;
        const double v = part.toDouble(&ok);
        if (!ok)
            fail(key, QStringLiteral("'%1' is not a number").arg(part));
        if (!(v >= min && v <= max))
            fail(key, QStringLiteral("%1 is outside [%2, %3]").arg(v).arg(min).arg(max));
        values.push_back(v);
    }
    m_used.emplace_back(key, *text);
    return values;
}

void PressParams::finish() const
{
    for (const auto& [k, v] : m_spec.params)
        if (!m_read.count(k)) {
            QStringList known(m_read.begin(), m_read.end());
            fail(k, QStringLiteral("unknown for '%1' (known: %2)")
                        .arg(m_spec.name, known.isEmpty() ? QStringLiteral("none")
                                                          : known.join(QStringLiteral(", "))));
        }
}

QString PressParams::canonical(const QString& innerSpecs) const
{
    QString out = m_spec.name;
    if (!innerSpecs.isEmpty())
        out += u'(' + innerSpecs + u')';
    if (!m_used.empty()) {
        QStringList parts;
        for (const auto& [k, v] : m_used)
            parts << k + u'=' + v;
        out += u':' + parts.join(u',');
    }
    return out;
}

} // namespace kvl
