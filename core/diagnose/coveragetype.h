#pragma once

#include <QString>
#include <optional>

namespace kvl {

// How a row's coverage was obtained (KVDiagnosis `coverage_type`).
enum class CoverageType
{
    MeasuredTokenCoverage,            // kept original positions observed
    ProjectedTokenCoverage,           // kept chunks projected to their tokens
    StructuralPositionAddressability, // positions kept by construction (ThinK, quantization)
    NotApplicable,
};

// The KVDiagnosis names: measured_token_coverage, projected_token_coverage,
// structural_position_addressability, not_applicable.
QString coverageTypeName(CoverageType type);
std::optional<CoverageType> coverageTypeFromName(const QString& name);

// Measured or projected: the rows whose ECov_slot is a mapped coverage.
bool isMappedCoverage(CoverageType type);

} // namespace kvl
