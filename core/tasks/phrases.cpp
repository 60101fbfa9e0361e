#include "tasks/phrases.h"

#include "tasks/rng.h"

#include <QSet>

namespace kvl::phrases {

QString codeRecord(const QString& name, int code)
{
    return QStringLiteral("The access code of %1 is %2.").arg(name).arg(code);
}

QString namedCode(const QString& name, int code)
{
    return QStringLiteral("%1 is %2").arg(name).arg(code);
}

QString codeRequest(const QString& name)
{
    return QStringLiteral("What is the access code of %1?").arg(name);
}

QString codeOfRecord(const QString& text)
{
    const qsizetype is = text.lastIndexOf(QLatin1String(" is "));
    if (!text.startsWith(QLatin1String("The access code of ")) || is < 0 ||
        !text.endsWith(QLatin1Char('.')))
        return {};
    return text.mid(is + 4, text.size() - is - 5);
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
