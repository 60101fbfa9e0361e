#include "diagnose/diagnosticrow.h"

#include "common/error.h"

#include <QJsonValue>
#include <cmath>

namespace kvl {

const std::vector<DiagnosticColumn>& diagnosticMetricColumns()
{
    static const std::vector<DiagnosticColumn> columns = {
        {"ERR_slot", &DiagnosticRow::errSlot}, {"ECov_slot", &DiagnosticRow::ecovSlot},
        {"DRR", &DiagnosticRow::drr},          {"delta_NLL", &DiagnosticRow::deltaNll},
        {"GPR", &DiagnosticRow::gpr},          {"KL", &DiagnosticRow::kl},
        {"TopK", &DiagnosticRow::topK},        {"gold_rank_shift", &DiagnosticRow::goldRankShift},
        {"EAR", &DiagnosticRow::ear},
    };
    return columns;
}

std::optional<double> parseMetricCell(const QString& text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t.compare(QLatin1String("null"), Qt::CaseInsensitive) == 0 ||
        t.compare(QLatin1String("nan"), Qt::CaseInsensitive) == 0 ||
        t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0 || t == QLatin1String("NA"))
        return std::nullopt;
    bool ok = false;
    const double value = t.toDouble(&ok);
    if (!ok)
        throw Error(QStringLiteral("'%1' is not a number").arg(t));
    if (std::isnan(value))
        return std::nullopt;
    return value;
}

QJsonObject diagnosticRowToJson(const DiagnosticRow& row)
{
    QJsonObject object;
    for (const DiagnosticColumn& c : diagnosticMetricColumns()) {
        const std::optional<double>& v = row.*(c.field);
        object.insert(QLatin1String(c.name), v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null));
    }
    object.insert(QLatin1String(kCoverageTypeColumn),
                  row.coverageType ? QJsonValue(coverageTypeName(*row.coverageType))
                                   : QJsonValue(QJsonValue::Null));
    return object;
}

DiagnosticRow diagnosticRowFromJson(const QJsonObject& object)
{
    DiagnosticRow row;
    for (const DiagnosticColumn& c : diagnosticMetricColumns()) {
        const QJsonValue v = object.value(QLatin1String(c.name));
        if (v.isDouble())
            row.*(c.field) =
                std::isnan(v.toDouble()) ? std::nullopt : std::optional<double>(v.toDouble());
        else if (v.isString()) {
            try {
                row.*(c.field) = parseMetricCell(v.toString());
            } catch (const Error& e) {
                throw Error(
                    QStringLiteral("column %1: %2").arg(QLatin1String(c.name), e.message()));
            }
        } else if (!v.isNull() && !v.isUndefined())
            throw Error(
                QStringLiteral("column %1: expected a number or null").arg(QLatin1String(c.name)));
    }
    const QJsonValue type = object.value(QLatin1String(kCoverageTypeColumn));
    if (type.isString() && !type.toString().trimmed().isEmpty() &&
        type.toString().trimmed() != QLatin1String("null")) {
        row.coverageType = coverageTypeFromName(type.toString());
        if (!row.coverageType)
            throw Error(
                QStringLiteral("column coverage_type: unknown value '%1'").arg(type.toString()));
    } else if (!type.isString() && !type.isNull() && !type.isUndefined())
        throw Error(QStringLiteral("column coverage_type: expected a string or null"));
    return row;
}

} // namespace kvl
