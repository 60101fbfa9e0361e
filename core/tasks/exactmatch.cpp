#include "tasks/exactmatch.h"

namespace kvl {

QString normalizeAnswer(const QString& text)
{
    QString s = text.simplified();
    static const QString trailing = QStringLiteral(".,;:!?");
    while (!s.isEmpty() && (trailing.contains(s.back()) || s.back().isSpace()))
        s.chop(1);
    return s.toCaseFolded();
}

double exactMatch(const QString& prediction, const QString& gold)
{
    return normalizeAnswer(prediction) == normalizeAnswer(gold) ? 1.0 : 0.0;
}

} // namespace kvl
