#include "common/presslist.h"

namespace kvl {

QStringList splitPressList(const QString& text)
{
    QStringList specs;
    for (const QString& raw : text.split(QLatin1Char(','))) {
        const QString piece = raw.trimmed();
        if (piece.isEmpty())
            continue;
        const bool parameterOnly = piece.contains(QLatin1Char('=')) &&
                                   !piece.contains(QLatin1Char(':')) &&
                                   !piece.contains(QLatin1Char('('));
        if (parameterOnly && !specs.isEmpty())
            specs.back() += QLatin1Char(',') + piece;
        else
            specs << piece;
    }
    return specs;
}

} // namespace kvl
