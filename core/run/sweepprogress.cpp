#include "run/sweepprogress.h"

#include "common/runprogress.h"

#include <cmath>

namespace kvl {

namespace {
QJsonValue optional(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString duration(double seconds)
{
    const auto s = qint64(std::llround(seconds));
    if (s >= 3600)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (s >= 60)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(s);
}
} // namespace

QJsonObject SweepProgress::toJson() const
{
    using namespace progresskeys;
    QJsonObject o{{kDone, done},
                  {kTotal, total},
                  {kElapsedS, std::round(elapsedS * 1000.0) / 1000.0},
                  {kEtaS, optional(etaS)},
                  {kAccuracy, optional(compressedAccuracy ? compressedAccuracy : fullAccuracy)},
                  {kAccuracyFull, optional(fullAccuracy)},
                  {kAccuracyCompressed, optional(compressedAccuracy)},
                  {kSample, sampleKey}};
    if (!skipReason.isEmpty())
        o.insert(kSkipped, skipReason);
    return o;
}

QString SweepProgress::toBar(int width) const
{
    const int filled = total > 0 ? int(double(width) * done / total) : width;
    QString bar =
        QStringLiteral("[%1%2] %3/%4")
            .arg(QString(filled, QLatin1Char('#')), QString(width - filled, QLatin1Char('-')))
            .arg(done)
            .arg(total);
    if (fullAccuracy)
        bar += QStringLiteral("  acc full %1").arg(*fullAccuracy, 0, 'f', 2);
    if (compressedAccuracy)
        bar += QStringLiteral(" compressed %1").arg(*compressedAccuracy, 0, 'f', 2);
    bar += QStringLiteral("  %1").arg(duration(elapsedS));
    if (etaS)
        bar += QStringLiteral(" eta %1").arg(duration(*etaS));
    if (skipped > 0)
        bar += QStringLiteral("  skipped %1").arg(skipped);
    return bar;
}

} // namespace kvl
