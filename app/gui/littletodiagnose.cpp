#include "littletodiagnose.h"

#include "runviewdata.h"

#include <QCoreApplication>
#include <QStringList>

#include <cmath>

namespace kvl {

namespace {

bool low(const AccuracyData& a, double threshold)
{
    return a.fullCacheN > 0 && !std::isnan(a.fullCacheAccuracy) && a.fullCacheAccuracy < threshold;
}

QString counts(const AccuracyData& a)
{
    return QCoreApplication::translate("kvl::MainWindow", "%1 of %2")
        .arg(a.fullCacheCorrect)
        .arg(a.fullCacheN);
}

} // namespace

QString littleToDiagnose(const RunViewData& data, double threshold)
{
    QStringList parts;
    if (data.suites.size() > 1) {
        for (int i = 0; i < data.suites.size() && i < data.suiteAccuracy.size(); ++i)
            if (low(data.suiteAccuracy[i], threshold))
                parts << QStringLiteral("%1 (%2)").arg(counts(data.suiteAccuracy[i]),
                                                       data.suites[i]);
    } else if (low(data.accuracy, threshold)) {
        parts << counts(data.accuracy);
    }
    if (parts.isEmpty())
        return {};
    return QCoreApplication::translate(
               "kvl::MainWindow",
               "FullCache right on %1: little to diagnose, since a C→W row needs FullCache "
               "right first. Are the contexts past the model's trained length, or the task "
               "beyond it?")
        .arg(parts.join(QStringLiteral(", ")));
}

} // namespace kvl
