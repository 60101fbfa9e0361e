#include "run/experimentspec.h"

#include "common/error.h"
#include "common/jsonio.h"
#include "common/sweepwords.h"
#include "diagnose/interventionplan.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace kvl {

namespace {

// Reads fields of one JSON object, naming the field path in errors.
class Fields
{
  public:
    Fields(const QJsonObject& object, QString origin, QString prefix)
        : m_object(object), m_origin(std::move(origin)), m_prefix(std::move(prefix))
    {}

    [[noreturn]] void fail(const QString& key, const QString& problem) const
    {
        throw Error(m_origin, QStringLiteral("field '%1%2': %3").arg(m_prefix, key, problem));
    }
    bool has(const char* key) const { return m_object.contains(QLatin1String(key)); }
    QJsonValue value(const char* key) const { return m_object.value(QLatin1String(key)); }

    QString text(const char* key, const QString& fallback, bool required = false) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                fail(QLatin1String(key), QStringLiteral("missing"));
            return fallback;
        }
        if (!v.isString())
            fail(QLatin1String(key), QStringLiteral("expected a string"));
        return v.toString();
    }
    double number(const char* key, double fallback, double min, double max) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            fail(QLatin1String(key), QStringLiteral("expected a number"));
        const double x = v.toDouble();
        if (x < min || x > max)
            fail(QLatin1String(key),
                 QStringLiteral("%1 is outside [%2, %3]").arg(x).arg(min).arg(max));
        return x;
    }
    int integer(const char* key, int fallback, int min, int max) const
    {
        const double x = number(key, fallback, min, max);
        if (x != std::floor(x))
            fail(QLatin1String(key), QStringLiteral("expected an integer"));
        return int(x);
    }
    void rejectUnknown(std::initializer_list<const char*> known) const
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it) {
            bool ok = false;
            for (const char* k : known)
                ok = ok || it.key() == QLatin1String(k);
            if (!ok)
                fail(it.key(), QStringLiteral("unknown key"));
        }
    }

  private:
    QJsonObject m_object;
    QString m_origin;
    QString m_prefix;
};

QString oneOf(const Fields& f, const char* key, const QString& fallback, const QStringList& allowed)
{
    const QString v = f.text(key, fallback);
    if (!allowed.contains(v))
        f.fail(QLatin1String(key),
               QStringLiteral("'%1' is not one of %2").arg(v, allowed.join(QLatin1String(", "))));
    return v;
}

SampleSource sourceFromJson(const QJsonValue& value, const QString& origin, int index,
                            std::uint64_t seed, const QString& baseDir)
{
    const QString prefix = QStringLiteral("samples[%1].").arg(index);
    if (!value.isObject())
        throw Error(origin, QStringLiteral("field 'samples[%1]': expected an object").arg(index));
    const Fields f(value.toObject(), origin, prefix);
    SampleSource s;
    if (f.has("jsonl") || f.has("dataset")) {
        f.rejectUnknown({"jsonl", "dataset"});
        s.kind = SampleSource::Kind::Jsonl;
        s.path = f.text(f.has("jsonl") ? "jsonl" : "dataset", {}, true);
        s.resolvedPath = QFileInfo(s.path).isAbsolute() || baseDir.isEmpty()
                             ? s.path
                             : QDir(baseDir).filePath(s.path);
        return s;
    }
    f.rejectUnknown({"suite", "n", "tokens", "seed", "variant"});
    s.suite = f.text("suite", {}, true);
    s.n = f.integer("n", 0, 1, 10'000'000);
    if (!f.has("n"))
        f.fail(QStringLiteral("n"), QStringLiteral("missing"));
    const QJsonValue tokens = f.value("tokens");
    if (tokens.isString()) {
        std::tie(s.minTokens, s.maxTokens) = parseTokenRange(tokens.toString(), origin);
    } else if (tokens.isDouble()) {
        const std::optional<qint64> whole = jsonWholeNumber(tokens);
        if (!whole || *whole < 1 || *whole > std::numeric_limits<int>::max())
            f.fail(QStringLiteral("tokens"), QStringLiteral("expected a whole number of tokens"));
        s.minTokens = s.maxTokens = int(*whole);
    } else if (tokens.isArray() && tokens.toArray().size() == 2) {
        s.minTokens = tokens.toArray()[0].toInt(-1);
        s.maxTokens = tokens.toArray()[1].toInt(-1);
    } else if (!tokens.isUndefined() && !tokens.isNull()) {
        f.fail(QStringLiteral("tokens"), QStringLiteral("expected \"MIN:MAX\", N or [MIN, MAX]"));
    }
    if (s.minTokens < 1 || s.maxTokens < s.minTokens)
        f.fail(
            QStringLiteral("tokens"),
            QStringLiteral("needs 1 <= MIN <= MAX (got %1:%2)").arg(s.minTokens).arg(s.maxTokens));
    s.seed = std::uint64_t(f.number("seed", double(seed), 0, 9.0e15));
    s.variant = f.text("variant", {});
    return s;
}

CompressorConfig compressorFromJson(const QJsonValue& value, const QString& origin, int index)
{
    if (value.isString()) {
        const QString spec = value.toString().trimmed();
        if (spec.isEmpty())
            throw Error(origin, QStringLiteral("field 'compressors[%1]': empty spec").arg(index));
        return {spec, spec};
    }
    if (!value.isObject())
        throw Error(origin,
                    QStringLiteral("field 'compressors[%1]': expected a spec string or an object")
                        .arg(index));
    const Fields f(value.toObject(), origin, QStringLiteral("compressors[%1].").arg(index));
    f.rejectUnknown({"spec", "press", "name"});
    const QString spec = f.text(f.has("press") ? "press" : "spec", {}, true).trimmed();
    const QString name = f.text("name", spec).trimmed();
    return {name.isEmpty() ? spec : name, spec};
}

} // namespace

std::pair<int, int> parseTokenRange(const QString& text, const QString& what)
{
    const QStringList parts = text.trimmed().split(QLatin1Char(':'));
    bool ok1 = false, ok2 = false;
    const int a = parts.value(0).toInt(&ok1);
    const int b = parts.size() == 2 ? parts[1].toInt(&ok2) : a;
    if (parts.size() > 2 || !ok1 || (parts.size() == 2 && !ok2) || a < 1 || b < a)
        throw Error(what, sweepwords::badTokenRange(text));
    return {a, b};
}

std::vector<InterventionSpec> ExperimentSpec::defaultInterventions()
{
    const QString on = interventionTargetName(InterventionTarget::Retained);
    return {{QStringLiteral("boost"), kDefaultBoostBeta, on},
            {QStringLiteral("sham"), kDefaultBoostBeta, on}};
}

ExperimentSpec ExperimentSpec::fromJson(const QJsonObject& object, const QString& origin,
                                        const QString& baseDir)
{
    const Fields f(object, origin, {});
    f.rejectUnknown({"model", "samples", "compressors", "ratios", "interventions", "seed",
                     "threads", "max_new_tokens", "store", "shard", "out", "chat_template",
                     "chat_vars", "chat_template_used", "skip_too_long"});
    ExperimentSpec spec;
    spec.model = f.text("model", {}, true);
    spec.seed = std::uint64_t(f.number("seed", 1, 0, 9.0e15));
    spec.threads = f.integer("threads", 0, 0, 1024);
    spec.maxNewTokens = f.integer("max_new_tokens", 0, 0, 100000);
    spec.chatTemplate = f.text("chat_template", spec.chatTemplate).trimmed();
    if (spec.chatTemplate.isEmpty())
        f.fail(QStringLiteral("chat_template"), QStringLiteral("expected auto, none or a file"));
    spec.chatTemplatePath = spec.chatTemplate;
    if (spec.chatTemplate != QLatin1String("auto") && spec.chatTemplate != QLatin1String("none") &&
        !QFileInfo(spec.chatTemplate).isAbsolute() && !baseDir.isEmpty())
        spec.chatTemplatePath = QDir(baseDir).filePath(spec.chatTemplate);
    const QJsonValue vars = f.value("chat_vars");
    if (!vars.isUndefined() && !vars.isNull() && !vars.isObject())
        f.fail(QStringLiteral("chat_vars"),
               QStringLiteral("expected an object of template variables"));
    spec.chatVars = vars.toObject();
    const QJsonValue skip = f.value("skip_too_long");
    if (!skip.isUndefined() && !skip.isNull() && !skip.isBool())
        f.fail(QStringLiteral("skip_too_long"), QStringLiteral("expected true or false"));
    spec.skipTooLong = skip.toBool(false);

    const QJsonValue samples = f.value("samples");
    if (!samples.isArray() || samples.toArray().isEmpty())
        f.fail(QStringLiteral("samples"), QStringLiteral("expected a non-empty array"));
    for (qsizetype i = 0; i < samples.toArray().size(); ++i)
        spec.samples.push_back(
            sourceFromJson(samples.toArray()[i], origin, int(i), spec.seed, baseDir));

    const QJsonValue compressors = f.value("compressors");
    if (!compressors.isUndefined() && !compressors.isArray())
        f.fail(QStringLiteral("compressors"), QStringLiteral("expected an array"));
    for (qsizetype i = 0; i < compressors.toArray().size(); ++i)
        spec.compressors.push_back(compressorFromJson(compressors.toArray()[i], origin, int(i)));
    for (size_t i = 0; i < spec.compressors.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (spec.compressors[i].name == spec.compressors[j].name)
                f.fail(QStringLiteral("compressors[%1]").arg(i),
                       sweepwords::listedTwice(spec.compressors[i].name));

    const QJsonValue ratios = f.value("ratios");
    if (!ratios.isUndefined() && !ratios.isArray())
        f.fail(QStringLiteral("ratios"), QStringLiteral("expected an array of numbers"));
    for (qsizetype i = 0; i < ratios.toArray().size(); ++i) {
        const QJsonValue r = ratios.toArray()[i];
        // As the flag or the file wrote it, for the message.
        const QString text =
            r.isDouble() ? QString::number(r.toDouble()) : r.toVariant().toString();
        if (!r.isDouble())
            f.fail(QStringLiteral("ratios[%1]").arg(i), sweepwords::notANumber(text));
        if (r.toDouble() < 0.0 || r.toDouble() >= 1.0)
            f.fail(QStringLiteral("ratios[%1]").arg(i), sweepwords::ratioOutOfRange(text));
        if (std::find(spec.ratios.begin(), spec.ratios.end(), r.toDouble()) != spec.ratios.end())
            f.fail(QStringLiteral("ratios[%1]").arg(i), sweepwords::listedTwice(text));
        spec.ratios.push_back(r.toDouble());
    }
    if (!spec.compressors.empty() && spec.ratios.empty())
        f.fail(QStringLiteral("ratios"), sweepwords::pressesNeedRatios());

    const QJsonValue interventions = f.value("interventions");
    if (interventions.isUndefined() || interventions.isNull()) {
        spec.interventions = defaultInterventions();
    } else if (!interventions.isArray()) {
        f.fail(QStringLiteral("interventions"), QStringLiteral("expected an array"));
    } else {
        for (qsizetype i = 0; i < interventions.toArray().size(); ++i) {
            const QJsonValue v = interventions.toArray()[i];
            if (!v.isObject())
                f.fail(QStringLiteral("interventions[%1]").arg(i),
                       QStringLiteral("expected an object"));
            const Fields g(v.toObject(), origin, QStringLiteral("interventions[%1].").arg(i));
            g.rejectUnknown({"kind", "beta", "on"});
            InterventionSpec s;
            s.beta = g.number("beta", 4.0, 1e-6, 1e6);
            s.on = oneOf(g, "on", s.on, interventionTargetNames());
            const QString kind =
                oneOf(g, "kind", QStringLiteral("both"), {"boost", "sham", "both"});
            for (const QString& k :
                 kind == QLatin1String("both")
                     ? QStringList{QStringLiteral("boost"), QStringLiteral("sham")}
                     : QStringList{kind}) {
                s.kind = k;
                spec.interventions.push_back(s);
            }
        }
    }

    const QJsonValue store = f.value("store");
    if (!store.isUndefined() && !store.isNull()) {
        if (!store.isObject())
            f.fail(QStringLiteral("store"), QStringLiteral("expected an object"));
        const Fields g(store.toObject(), origin, QStringLiteral("store."));
        g.rejectUnknown({"masks", "attention", "attention_positions"});
        const QStringList allowed{QStringLiteral("all"), QStringLiteral("failures"),
                                  QStringLiteral("none")};
        spec.store.masks = oneOf(g, "masks", spec.store.masks, allowed);
        spec.store.attention = oneOf(g, "attention", spec.store.attention, allowed);
        spec.store.attentionPositions =
            g.integer("attention_positions", spec.store.attentionPositions, 0, 1 << 30);
    }
    return spec;
}

ExperimentSpec ExperimentSpec::fromFile(const QString& path)
{
    return fromJson(readJsonObject(path), path, QFileInfo(path).absolutePath());
}

QJsonObject ExperimentSpec::toJson() const
{
    QJsonArray samplesJson;
    for (const SampleSource& s : samples) {
        if (s.kind == SampleSource::Kind::Jsonl) {
            samplesJson.append(QJsonObject{{QStringLiteral("jsonl"), s.path}});
            continue;
        }
        samplesJson.append(QJsonObject{
            {QStringLiteral("suite"), s.suite},
            {QStringLiteral("n"), s.n},
            {QStringLiteral("tokens"), QStringLiteral("%1:%2").arg(s.minTokens).arg(s.maxTokens)},
            {QStringLiteral("seed"), double(s.seed)},
            {QStringLiteral("variant"), s.variant}});
    }
    QJsonArray compressorsJson;
    for (const CompressorConfig& c : compressors)
        compressorsJson.append(
            QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("spec"), c.spec}});
    QJsonArray ratiosJson;
    for (double r : ratios)
        ratiosJson.append(r);
    QJsonArray interventionsJson;
    for (const InterventionSpec& i : interventions)
        interventionsJson.append(QJsonObject{{QStringLiteral("kind"), i.kind},
                                             {QStringLiteral("beta"), i.beta},
                                             {QStringLiteral("on"), i.on}});
    QJsonObject storeJson{{QStringLiteral("masks"), store.masks},
                          {QStringLiteral("attention"), store.attention}};
    if (store.attentionPositions != StoreOptions::kDefaultAttentionPositions)
        storeJson.insert(QStringLiteral("attention_positions"), store.attentionPositions);
    QJsonObject out{{QStringLiteral("model"), model},
                    {QStringLiteral("samples"), samplesJson},
                    {QStringLiteral("compressors"), compressorsJson},
                    {QStringLiteral("ratios"), ratiosJson},
                    {QStringLiteral("interventions"), interventionsJson},
                    {QStringLiteral("seed"), double(seed)},
                    {QStringLiteral("threads"), threads},
                    {QStringLiteral("max_new_tokens"), maxNewTokens},
                    {QStringLiteral("store"), storeJson}};
    if (chatTemplate != QLatin1String("auto"))
        out.insert(QStringLiteral("chat_template"), chatTemplate);
    if (!chatVars.isEmpty())
        out.insert(QStringLiteral("chat_vars"), chatVars);
    if (skipTooLong)
        out.insert(QStringLiteral("skip_too_long"), true);
    return out;
}

} // namespace kvl
