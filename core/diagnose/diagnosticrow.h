#pragma once

#include "diagnose/coveragetype.h"

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace kvl {

// The per-row diagnostics the signature rules read, named in files and in the store
// exactly as KVDiagnosis names its columns. A missing value stays nullopt: it is
// never imputed, and a rule that needs it does not fire.
struct DiagnosticRow
{
    std::optional<double> errSlot;            // ERR_slot
    std::optional<double> ecovSlot;           // ECov_slot
    std::optional<double> drr;                // DRR
    std::optional<double> deltaNll;           // delta_NLL
    std::optional<double> gpr;                // GPR
    std::optional<double> kl;                 // KL
    std::optional<double> topK;               // TopK
    std::optional<double> goldRankShift;      // gold_rank_shift
    std::optional<double> ear;                // EAR
    std::optional<CoverageType> coverageType; // coverage_type

    bool operator==(const DiagnosticRow&) const = default;
};

struct DiagnosticColumn
{
    const char* name;
    std::optional<double> DiagnosticRow::*field;
};

// The numeric columns in KVDiagnosis order: ERR_slot, ECov_slot, DRR, delta_NLL, GPR,
// KL, TopK, gold_rank_shift, EAR.
const std::vector<DiagnosticColumn>& diagnosticMetricColumns();
inline constexpr const char* kCoverageTypeColumn = "coverage_type";

// Reads one cell of a metrics column: empty, "null", "NaN", "None", "NA" and NaN
// are null. Throws kvl::Error (without a path: the caller adds it) when the text is
// not a number.
std::optional<double> parseMetricCell(const QString& text);

// JSON object with every column; nulls as JSON null.
QJsonObject diagnosticRowToJson(const DiagnosticRow& row);
// Reads the columns present (numbers, numeric strings or nulls); absent = null.
// Throws kvl::Error naming the column for a malformed value.
DiagnosticRow diagnosticRowFromJson(const QJsonObject& object);

} // namespace kvl
