#include "tasks/text2jsonscore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <algorithm>
#include <optional>
#include <vector>

namespace kvl {
namespace {

std::optional<QJsonArray> parsePrediction(const QString& prediction)
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

std::optional<QString> valueText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    return std::nullopt; // objects, arrays, booleans, null never equal a gold string
}

} // namespace

double text2jsonScore(const QString& prediction, const QJsonArray& gold)
{
    const std::optional<QJsonArray> predicted = parsePrediction(prediction);
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
            else if (valueText(got.value(it.key())) != valueText(it.value()))
                score -= 0.25;
        }
        total += std::max(score, 0.0);
    }
    const qsizetype denominator = gold.size() + extra;
    return denominator == 0 ? 1.0 : total / double(denominator);
}

} // namespace kvl
