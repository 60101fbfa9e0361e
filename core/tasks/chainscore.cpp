#include "tasks/chainscore.h"

#include "tasks/exactmatch.h"

namespace kvl {

QString finalValue(const QString& answer)
{
    return answer.mid(answer.lastIndexOf(QLatin1Char('=')) + 1).trimmed();
}

double chainValueMatch(const QString& prediction, const QString& goldValue)
{
    return exactMatch(finalValue(prediction), finalValue(goldValue));
}

} // namespace kvl
