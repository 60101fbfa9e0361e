#include "runprogress.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace kvl {

std::optional<RunProgress> RunProgress::parse(const QByteArray& line)
{
    const QByteArray trimmed = line.trimmed();
    if (!trimmed.startsWith('{'))
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    if (!o.value(QLatin1String("done")).isDouble() || !o.value(QLatin1String("total")).isDouble())
        return std::nullopt;
    RunProgress p;
    p.done = o.value(QLatin1String("done")).toInt();
    p.total = o.value(QLatin1String("total")).toInt();
    if (p.done < 0 || p.total < 0)
        return std::nullopt;
    const auto number = [&o](const char* key, double fallback) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : fallback;
    };
    p.elapsedS = number("elapsed_s", 0.0);
    p.etaS = number("eta_s", p.etaS);
    p.accuracy = number("accuracy", p.accuracy);
    return p;
}

} // namespace kvl
