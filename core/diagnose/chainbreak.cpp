#include "diagnose/chainbreak.h"

#include <QStringList>

namespace kvl {
namespace {
QStringList chainSteps(const QString& text)
{
    QStringList steps = text.split(QLatin1Char('='));
    for (QString& s : steps) {
        s = s.simplified();
        while (s.endsWith(QLatin1Char('.')) || s.endsWith(QLatin1Char(',')))
            s.chop(1);
    }
    return steps;
}
} // namespace

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
