#include "tasks/samplescorer.h"

#include "common/error.h"
#include "tasks/chainanswer.h"
#include "tasks/codescore.h"
#include "tasks/exactmatch.h"
#include "tasks/instructionscore.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace kvl {

QJsonObject scoreSample(const QString& suite, const Sample& sample, const QString& prediction,
                        Text2jsonRule text2jsonRule)
{
    if (suite == QLatin1String("text2json")) {
        QJsonArray gold;
        if (sample.meta.value(QStringLiteral("objects")).isArray()) {
            gold = sample.meta.value(QStringLiteral("objects")).toArray();
        } else {
            const QJsonDocument doc = QJsonDocument::fromJson(sample.answer.toUtf8());
            if (!doc.isArray())
                throw Error(QStringLiteral("field 'answer': a text2json answer must be a JSON "
                                           "array of objects (or give meta.objects)"));
            gold = doc.array();
        }
        return {{QStringLiteral("score"), text2jsonScore(prediction, gold, text2jsonRule)}};
    }
    if (suite == QLatin1String("instructions")) {
        const InstructionScore s = scoreInstructions(sample.meta, prediction);
        QJsonObject out{{QStringLiteral("score"), s.compliance()},
                        {QStringLiteral("leak"), s.leaked ? 1 : 0},
                        {QStringLiteral("leak_recall"), s.leakRecall}};
        for (const RuleResult& r : s.rules)
            out.insert(r.check, r.passed ? 1 : 0);
        return out;
    }
    if (suite == QLatin1String("multihop")) {
        const QString value = sample.meta.value(QStringLiteral("value")).toString();
        return {{QStringLiteral("score"),
                 chainValueMatch(prediction, value.isEmpty() ? sample.answer : value)}};
    }
    if (suite == QLatin1String("retrieval")) {
        QStringList codes;
        for (const QJsonValue& v : sample.meta.value(QStringLiteral("values")).toArray())
            codes << v.toString();
        if (allNumbers(codes))
            return {{QStringLiteral("score"),
                     codesMatch(prediction, codes, sample.variant == QLatin1String("multivalue"))}};
    }
    return {{QStringLiteral("score"), exactMatch(prediction, sample.answer)}};
}

void ScoreSummary::add(const QJsonObject& score)
{
    ++m_count;
    for (auto it = score.begin(); it != score.end(); ++it)
        if (it.value().isDouble()) {
            auto& [sum, n] = m_sums[it.key()];
            sum += it.value().toDouble();
            ++n;
        }
}

QJsonObject ScoreSummary::toJson() const
{
    QJsonObject out{{QStringLiteral("n"), m_count}};
    for (auto it = m_sums.begin(); it != m_sums.end(); ++it)
        out.insert(it.key(), it.value().first / it.value().second);
    out.insert(QStringLiteral("percent"), 100.0 * out.value(QStringLiteral("score")).toDouble());
    return out;
}

} // namespace kvl
