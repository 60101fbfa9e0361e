#include "tasks/text2jsonscore.h"

#include "common/error.h"
#include "common/jsonloads.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace kvl {
namespace {

// ---- the published rule ------------------------------------------------------------

// The evaluator maps the right single quotation mark to an apostrophe in names and
// values (models write both).
QString normalizedQuotes(QString text)
{
    text.replace(QChar(0x2019), QLatin1Char('\''));
    return text;
}

struct GoldObject
{
    QString name;                                       // quotes normalized
    std::vector<std::pair<QString, QJsonValue>> fields; // every key but "name"
};

std::vector<GoldObject> publishedGold(const QJsonArray& gold)
{
    std::vector<GoldObject> objects;
    for (qsizetype i = 0; i < gold.size(); ++i) {
        const QString where = QStringLiteral("text2json gold object %1: ").arg(i);
        if (!gold.at(i).isObject())
            throw Error(where + QStringLiteral("expected an object"));
        const QJsonObject o = gold.at(i).toObject();
        if (!o.value(QStringLiteral("name")).isString())
            throw Error(where + QStringLiteral("field 'name': expected a string"));
        GoldObject g;
        g.name = normalizedQuotes(o.value(QStringLiteral("name")).toString());
        for (qsizetype j = 0; j < qsizetype(objects.size()); ++j)
            if (objects[size_t(j)].name == g.name)
                throw Error(where +
                            QStringLiteral("name '%1' repeats gold object %2; the published "
                                           "evaluator leaves such a sample out of its "
                                           "mean, KVLens refuses it (score --lenient "
                                           "matches repeated names one to one)")
                                .arg(g.name)
                                .arg(j));
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != QLatin1String("name"))
                g.fields.emplace_back(it.key(), it.value());
        objects.push_back(std::move(g));
    }
    return objects;
}

// The text a gold value compares by: a string (quotes normalized), or an integral
// number's decimal digits; nullopt (never equal) for anything else.
std::optional<QString> goldText(const QJsonValue& value)
{
    if (value.isString())
        return normalizedQuotes(value.toString());
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.007199254740992e15)
            return QString::number(qint64(d));
    }
    return std::nullopt;
}

// The text a predicted value compares by: the evaluator turns an int into str(int) and
// compares strings; other types make it raise, and count as a wrong value here.
std::optional<QString> predictedText(const JsonLoadsValue& value)
{
    if (value.type == JsonLoadsValue::Type::String)
        return normalizedQuotes(value.text);
    if (value.type == JsonLoadsValue::Type::Int)
        return value.text;
    return std::nullopt;
}

double publishedScore(const QString& prediction, const QJsonArray& goldArray)
{
    const std::vector<GoldObject> gold = publishedGold(goldArray);
    // One '[' and one ']', in that order: anything else (a bracket inside a value, a
    // nested list, a second list after the first) scores 0.
    if (prediction.count(QLatin1Char('[')) != 1 || prediction.count(QLatin1Char(']')) != 1)
        return 0.0;
    const qsizetype open = prediction.indexOf(QLatin1Char('['));
    const qsizetype close = prediction.indexOf(QLatin1Char(']'));
    if (open > close)
        return 0.0;
    const std::optional<JsonLoadsValue> parsed = jsonLoads(prediction.mid(open, close - open + 1));
    if (!parsed || parsed->type != JsonLoadsValue::Type::Array)
        return 0.0;

    std::vector<bool> matched(gold.size(), false);
    qsizetype denominator = qsizetype(gold.size());
    double total = 0.0;
    for (const JsonLoadsValue& element : parsed->items) {
        // Not an object, no string name, or a name no unmatched gold object has: it only
        // adds to the denominator.
        const JsonLoadsValue* name = element.type == JsonLoadsValue::Type::Object
                                         ? element.member(QStringLiteral("name"))
                                         : nullptr;
        if (!name || name->type != JsonLoadsValue::Type::String) {
            ++denominator;
            continue;
        }
        const QString wanted = normalizedQuotes(name->text);
        const auto it = std::find_if(gold.begin(), gold.end(),
                                     [&](const GoldObject& g) { return g.name == wanted; });
        const size_t g = size_t(it - gold.begin());
        if (it == gold.end() || matched[g]) {
            ++denominator;
            continue;
        }
        matched[g] = true;
        const int k = int(it->fields.size());
        int missing = 0;
        int wrong = 0;
        for (const auto& [key, value] : it->fields) {
            const JsonLoadsValue* got = element.member(key);
            if (!got || got->type == JsonLoadsValue::Type::Null)
                ++missing;
            else if (const std::optional<QString> want = goldText(value);
                     !want || predictedText(*got) != want)
                ++wrong;
        }
        // 1 - missing/k - wrong/(2k) as one division, exact for k = 2 (the evaluator's
        // 1 - 0.5 - 0.25 steps) and independent of the order of the fields.
        total += k == 0 ? 1.0 : double(2 * k - 2 * missing - wrong) / double(2 * k);
    }
    return denominator == 0 ? 1.0 : total / double(denominator);
}

// ---- the lenient rule (KVLens before the published rule became the default) --------

std::optional<QJsonArray> lenientArray(const QString& prediction)
{
    const qsizetype open = prediction.indexOf(QLatin1Char('['));
    const qsizetype close = prediction.lastIndexOf(QLatin1Char(']'));
    if (open < 0 || close < open)
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc =
        QJsonDocument::fromJson(prediction.mid(open, close - open + 1).toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return std::nullopt;
    return doc.array();
}

std::optional<QString> lenientValueText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    return std::nullopt; // objects, arrays, booleans, null never equal a gold string
}

double lenientScore(const QString& prediction, const QJsonArray& gold)
{
    const std::optional<QJsonArray> predicted = lenientArray(prediction);
    if (!predicted)
        return 0.0;

    std::vector<bool> matched(size_t(gold.size()), false);
    double total = 0.0;
    int extra = 0; // unmatched or nameless predicted elements
    for (const QJsonValue& element : *predicted) {
        const QJsonValue name = element.toObject().value(QStringLiteral("name"));
        if (!element.isObject() || !name.isString()) {
            ++extra;
            continue;
        }
        qsizetype g = 0;
        for (; g < gold.size(); ++g)
            if (!matched[size_t(g)] &&
                gold.at(g).toObject().value(QStringLiteral("name")).toString() == name.toString())
                break;
        if (g == gold.size()) {
            ++extra;
            continue;
        }
        matched[size_t(g)] = true;
        const QJsonObject want = gold.at(g).toObject();
        const QJsonObject got = element.toObject();
        double score = 1.0;
        for (auto it = want.begin(); it != want.end(); ++it) {
            if (it.key() == QLatin1String("name"))
                continue;
            if (!got.contains(it.key()))
                score -= 0.5;
            else if (lenientValueText(got.value(it.key())) != lenientValueText(it.value()))
                score -= 0.25;
        }
        total += std::max(score, 0.0);
    }
    const qsizetype denominator = gold.size() + extra;
    return denominator == 0 ? 1.0 : total / double(denominator);
}

} // namespace

QString text2jsonRuleName(Text2jsonRule rule)
{
    return rule == Text2jsonRule::Lenient ? QStringLiteral("lenient") : QStringLiteral("published");
}

double text2jsonScore(const QString& prediction, const QJsonArray& gold, Text2jsonRule rule)
{
    return rule == Text2jsonRule::Lenient ? lenientScore(prediction, gold)
                                          : publishedScore(prediction, gold);
}

} // namespace kvl
