#include "storepolicy.h"

#include "diagnose/transition.h"
#include "store/runreader.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace kvl {

QString storePolicyText(RunReader& reader, const char* blob)
{
    // The writer's defaults (run/experimentspec.h) when the spec does not say.
    const QString name = QLatin1String(blob);
    const QString policy =
        reader.runInfo()
            .spec.value(QStringLiteral("store"))
            .toObject()
            .value(name)
            .toString(name == QLatin1String("masks") ? QStringLiteral("all")
                                                     : QStringLiteral("failures"));
    if (policy == QLatin1String("all"))
        return QCoreApplication::translate("kvl::StorePolicy", "for every row");
    if (policy == QLatin1String("none"))
        return QCoreApplication::translate("kvl::StorePolicy", "for no row");
    return QCoreApplication::translate("kvl::StorePolicy",
                                       "only for FullCache rows and rows answered wrong");
}

QString notReleasedText(const QString& importedFrom, const QString& notReleased)
{
    if (importedFrom.isEmpty())
        return {};
    return QCoreApplication::translate("kvl::StoreRunLoader", "Imported from %1: %2.")
        .arg(importedFrom, notReleased.isEmpty()
                               ? QCoreApplication::translate("kvl::StoreRunLoader",
                                                             "no masks or attention were released")
                               : notReleased);
}

QString missingAttentionText(const QString& config, const QString& sampleKey,
                             const ResultRecord& row, const QString& attentionPolicy)
{
    const QString transition = row.transition ? transitionName(*row.transition) : QString();
    return QCoreApplication::translate(
               "kvl::StorePolicy",
               "%1's own attention is not stored for sample %2 (%3, answered %4): the run "
               "stores compressed attention %5. To store it for every row, start a run with "
               "\"Store attention for every row\" (New run) or --store-attention all.")
        .arg(config, sampleKey, transition,
             row.correct ? QCoreApplication::translate("kvl::StorePolicy", "right")
                         : QCoreApplication::translate("kvl::StorePolicy", "wrong"),
             attentionPolicy);
}

} // namespace kvl
