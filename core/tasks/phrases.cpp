#include "tasks/phrases.h"

#include "tasks/rng.h"

#include <QSet>

namespace kvl::phrases {

QString codeRecord(const QString& name, int code)
{
    return QStringLiteral("The access code of %1 is %2.").arg(name).arg(code);
}

QString question(const QString& request, int* requestOffset)
{
    const QString head = QStringLiteral("\nQuestion: ");
    if (requestOffset)
        *requestOffset = int(head.size());
    return head + request + QStringLiteral("\nAnswer:");
}

QString joinAnd(const QStringList& items)
{
    if (items.size() <= 1)
        return items.value(0);
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") +
           items.last();
}

QList<int> distinctCodes(Rng& rng, int count)
{
    QList<int> codes;
    QSet<int> seen;
    while (codes.size() < count) {
        const int code = rng.range(0, 9999);
        if (!seen.contains(code)) {
            seen.insert(code);
            codes << code;
        }
    }
    return codes;
}

} // namespace kvl::phrases
