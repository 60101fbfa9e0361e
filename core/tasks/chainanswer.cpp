#include "tasks/chainanswer.h"

#include "tasks/exactmatch.h"

namespace kvl {

QString chainAnswer(const QStringList& walk)
{
    return walk.join(QStringLiteral(" = "));
}

QStringList chainSteps(const QString& answer)
{
    QStringList steps = answer.split(QLatin1Char('='));
    for (QString& s : steps) {
        s = s.simplified();
        while (s.endsWith(QLatin1Char('.')) || s.endsWith(QLatin1Char(',')))
            s.chop(1);
    }
    return steps;
}

QString finalValue(const QString& answer)
{
    return chainSteps(answer).constLast();
}

double chainValueMatch(const QString& prediction, const QString& goldValue)
{
    return exactMatch(finalValue(prediction), finalValue(goldValue));
}

int chainLinks(const QString& gold)
{
    return int(gold.count(QLatin1Char('=')));
}

int chainBreakStep(const QString& answer, const QString& gold)
{
    if (chainLinks(gold) == 0 || !answer.contains(QLatin1Char('=')))
        return -1;
    const QStringList want = chainSteps(gold);
    const QStringList got = chainSteps(answer);
    for (qsizetype i = 0; i < want.size(); ++i)
        if (i >= got.size() || got.at(i).compare(want.at(i), Qt::CaseInsensitive) != 0)
            return int(i);
    return -1;
}

} // namespace kvl
