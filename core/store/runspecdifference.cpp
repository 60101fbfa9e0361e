#include "store/runspecdifference.h"

#include "store/runmerge.h"

#include <QStringList>

namespace kvl {

QString runSpecDifference(const QJsonObject& recorded, const QJsonObject& wanted)
{
    QJsonObject a = specForComparison(recorded), b = specForComparison(wanted);
    for (const char* key : {"model", "chat_template", "chat_vars", "chat_template_used"}) {
        a.remove(QLatin1String(key));
        b.remove(QLatin1String(key));
    }
    QStringList keys = a.keys() + b.keys();
    keys.sort();
    keys.removeDuplicates();
    for (const QString& key : keys)
        if (a.value(key) != b.value(key))
            return key;
    return {};
}

} // namespace kvl
