#include "diagnose/coveragetype.h"

namespace kvl {

QString coverageTypeName(CoverageType type)
{
    switch (type) {
    case CoverageType::MeasuredTokenCoverage:
        return QStringLiteral("measured_token_coverage");
    case CoverageType::ProjectedTokenCoverage:
        return QStringLiteral("projected_token_coverage");
    case CoverageType::StructuralPositionAddressability:
        return QStringLiteral("structural_position_addressability");
    case CoverageType::NotApplicable:
        return QStringLiteral("not_applicable");
    }
    return {};
}

std::optional<CoverageType> coverageTypeFromName(const QString& name)
{
    const QString n = name.trimmed();
    for (CoverageType t :
         {CoverageType::MeasuredTokenCoverage, CoverageType::ProjectedTokenCoverage,
          CoverageType::StructuralPositionAddressability, CoverageType::NotApplicable})
        if (n == coverageTypeName(t))
            return t;
    return std::nullopt;
}

bool isMappedCoverage(CoverageType type)
{
    return type == CoverageType::MeasuredTokenCoverage ||
           type == CoverageType::ProjectedTokenCoverage;
}

} // namespace kvl
