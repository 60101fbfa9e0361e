#include "common/runprogress.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace kvl {

std::optional<RunProgress> RunProgress::parse(const QByteArray& line)
{
    using namespace progresskeys;
    const QByteArray trimmed = line.trimmed();
    if (!trimmed.startsWith('{'))
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    if (!o.value(kDone).isDouble() || !o.value(kTotal).isDouble())
        return std::nullopt;
    RunProgress p;
    p.done = o.value(kDone).toInt();
    p.total = o.value(kTotal).toInt();
    if (p.done < 0 || p.total < 0)
        return std::nullopt;
    const auto number = [&o](QLatin1String key, double fallback) {
        const QJsonValue v = o.value(key);
        return v.isDouble() ? v.toDouble() : fallback;
    };
    p.elapsedS = number(kElapsedS, 0.0);
    p.etaS = number(kEtaS, p.etaS);
    p.accuracy = number(kAccuracy, p.accuracy);
    return p;
}

} // namespace kvl
