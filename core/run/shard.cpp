#include "run/shard.h"

#include "common/error.h"

#include <QStringList>

namespace kvl {

Shard Shard::parse(const QString& text)
{
    const QStringList parts = text.trimmed().split(QLatin1Char('/'));
    bool ok1 = false, ok2 = false;
    Shard s;
    if (parts.size() == 2) {
        s.index = parts[0].toInt(&ok1);
        s.count = parts[1].toInt(&ok2);
    }
    if (!ok1 || !ok2 || s.count < 1 || s.index < 1 || s.index > s.count)
        throw Error(QStringLiteral("--shard '%1' is not K/N with 1 <= K <= N").arg(text));
    return s;
}

} // namespace kvl
