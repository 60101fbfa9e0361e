#include "compressors/presscatalog.h"

#include "common/error.h"
#include "compressors/scorerpress.h"

#include <QJsonObject>
#include <QStringList>

namespace kvl {

QString pressKindName(PressEntry::Kind kind)
{
    switch (kind) {
    case PressEntry::Kind::Scorer:
        return QStringLiteral("scorer");
    case PressEntry::Kind::Selector:
        return QStringLiteral("selector");
    case PressEntry::Kind::Wrapper:
        return QStringLiteral("wrapper");
    case PressEntry::Kind::Transform:
        return QStringLiteral("transform");
    }
    return {};
}

PressCatalog::PressCatalog()
{
    // An explicit list (presslist.h): a static registrar in each file would be dropped
    // by the static-library link.
    m_entries = {
#define KVL_PRESS(entry) entry(),
#include "compressors/presslist.h"
#undef KVL_PRESS
    };
    for (PressEntry& e : unavailableEntries())
        m_entries.push_back(std::move(e));
}

const PressEntry* PressCatalog::find(const QString& name) const
{
    // The names kvpress users know these presses by.
    static const std::pair<const char*, const char*> aliases[] = {
        {"h2o", "observed"},
        {"observed_attention", "observed"},
        {"expected_attention", "expected"},
        {"quantized_cache", "quantized"},
        {"chunk", "chunkkv"},
        {"per_layer", "perlayer"},
        {"key_rerotation", "keyrerotation"},
        {"non_causal_attn", "non_causal_attention"},
        {"leverage_score", "leverage"},
        {"capkv", "cap"},
        {"duo", "duo_attention"},
        {"decoding_press", "decoding"},
        {"prefill_decoding_press", "prefill_decoding"}};
    QString canonical = name;
    for (const auto& [alias, target] : aliases)
        if (name == QLatin1String(alias))
            canonical = QLatin1String(target);
    for (const PressEntry& e : m_entries)
        if (e.name == canonical)
            return &e;
    return nullptr;
}

const PressEntry& PressCatalog::entry(const PressSpec& spec) const
{
    if (const PressEntry* e = find(spec.name)) {
        if (!e->unavailable.isEmpty())
            throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                        QStringLiteral("'%1' is not available: %2").arg(e->name, e->unavailable));
        return *e;
    }
    QStringList names;
    for (const PressEntry& e : m_entries)
        names << e.name;
    throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                QStringLiteral("unknown press '%1' (known: %2)")
                    .arg(spec.name, names.join(QStringLiteral(", "))));
}

std::unique_ptr<Press> PressCatalog::press(const QString& spec) const
{
    return press(PressSpec::parse(spec));
}

std::unique_ptr<Press> PressCatalog::press(const PressSpec& spec) const
{
    const PressEntry& e = entry(spec);
    if (e.makePress)
        return e.makePress(spec, *this);
    // A scorer on its own: kvpress's ScorerPress, uniform top-k per kv-head.
    return std::make_unique<ScorerPress>(e.makeScorer(spec, *this));
}

std::unique_ptr<Scorer> PressCatalog::scorer(const PressSpec& spec) const
{
    const PressEntry& e = entry(spec);
    if (!e.makeScorer)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("'%1' is a %2, not a scorer; it cannot go inside another "
                                   "selector (write e.g. adakv(snapkv), chunkkv(knorm))")
                        .arg(spec.name, pressKindName(e.kind)));
    return e.makeScorer(spec, *this);
}

std::unique_ptr<Scorer> PressCatalog::innerScorer(const PressSpec& spec,
                                                  const QString& fallback) const
{
    if (spec.inner.empty() && !fallback.isEmpty())
        return scorer(PressSpec::parse(fallback));
    if (spec.inner.size() != 1)
        throw Error(
            QStringLiteral("press spec '%1'").arg(spec.toString()),
            QStringLiteral("'%1' takes one scorer in parentheses, e.g. %1(snapkv)").arg(spec.name));
    return scorer(spec.inner[0]);
}

QString PressCatalog::exampleSpec(const PressEntry& e) const
{
    if (e.name == QLatin1String("finch")) // its window comes from a delimiter span otherwise
        return QStringLiteral("finch:window=64");
    if (e.inner.isEmpty() || e.inner.endsWith(QLatin1String("(optional)")))
        return e.name;
    if (e.name == QLatin1String("composed"))
        return QStringLiteral("composed(streamingllm+knorm)");
    if (e.name == QLatin1String("prefill_decoding"))
        return QStringLiteral("prefill_decoding(snapkv+decoding(knorm))");
    if (e.inner.startsWith(QLatin1String("press")))
        return e.name + QStringLiteral("(snapkv)");
    return e.name + QStringLiteral("(knorm)");
}

std::vector<QString> PressCatalog::exampleSpecs() const
{
    std::vector<QString> specs;
    for (const PressEntry& e : m_entries) {
        if (e.name == QLatin1String("qfilter") || e.name == QLatin1String("kvzap"))
            continue; // needs a weights file
        if (!e.unavailable.isEmpty())
            continue;
        specs.push_back(exampleSpec(e));
    }
    return specs;
}

std::vector<ParamRule> PressCatalog::paramRules(const PressEntry& e) const
{
    if (!e.unavailable.isEmpty())
        return {};
    PressParamsProbe probe(e.name);
    const PressSpec example = PressSpec::parse(exampleSpec(e));
    const auto build = [this](const PressSpec& spec) {
        try {
            press(spec);
        } catch (const std::exception&) {
            // A press that needs a file (qfilter, kvzap) refuses after reading its
            // parameters: what it read is recorded all the same.
        }
    };
    build(example);
    const std::vector<ParamRule> first = probe.rules();
    for (const ParamRule& r : first) {
        if (r.type != ParamRule::Type::Bool)
            continue;
        PressSpec flipped = example;
        const PressEntry::Param* declared = nullptr;
        for (const PressEntry::Param& p : e.params)
            if (p.name == r.name)
                declared = &p;
        const bool on = declared && declared->defaultValue == QLatin1String("true");
        flipped.params.emplace_back(r.name, on ? QStringLiteral("false") : QStringLiteral("true"));
        build(flipped);
    }
    return probe.rules();
}

QJsonArray PressCatalog::toJson() const
{
    // What may go in parentheses: a scorer (any entry that builds one) or presses.
    QJsonArray scorers;
    for (const PressEntry& e : m_entries)
        if (e.makeScorer && e.unavailable.isEmpty())
            scorers.append(e.name);
    QJsonArray out;
    for (const PressEntry& e : m_entries) {
        const std::vector<ParamRule> rules = paramRules(e);
        QJsonArray params;
        for (const PressEntry::Param& p : e.params) {
            QJsonObject param{{QStringLiteral("name"), p.name},
                              {QStringLiteral("default"), p.defaultValue},
                              {QStringLiteral("help"), p.help}};
            for (const ParamRule& r : rules) {
                if (r.name != p.name)
                    continue;
                param[QStringLiteral("type")] = paramTypeName(r.type);
                if (r.type == ParamRule::Type::Integer || r.type == ParamRule::Type::Real ||
                    r.type == ParamRule::Type::Reals) {
                    param[QStringLiteral("min")] = r.min;
                    param[QStringLiteral("max")] = r.max;
                }
                if (r.type == ParamRule::Type::Choice)
                    param[QStringLiteral("choices")] = QJsonArray::fromStringList(r.choices);
            }
            params.append(param);
        }
        const QString innerType = e.inner.startsWith(QLatin1String("scorer"))
                                      ? QStringLiteral("scorer")
                                  : e.inner.isEmpty() ? QString()
                                                      : QStringLiteral("press");
        QJsonObject press{{QStringLiteral("name"), e.name},
                          {QStringLiteral("kind"), pressKindName(e.kind)},
                          {QStringLiteral("inner"), e.inner},
                          {QStringLiteral("inner_type"), innerType},
                          {QStringLiteral("rule"), e.rule},
                          {QStringLiteral("params"), params},
                          {QStringLiteral("available"), e.unavailable.isEmpty()},
                          {QStringLiteral("unavailable_reason"), e.unavailable}};
        if (innerType == QLatin1String("scorer"))
            press[QStringLiteral("inner_choices")] = scorers;
        out.append(press);
    }
    return out;
}

} // namespace kvl
