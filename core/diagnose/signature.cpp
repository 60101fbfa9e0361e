#include "diagnose/signature.h"

#include <cmath>

namespace kvl {

using namespace signature_thresholds;

QString signatureName(Signature signature)
{
    switch (signature) {
    case Signature::LowMappedCoverage:
        return QStringLiteral("low_mapped_coverage");
    case Signature::PartialMappedCoverage:
        return QStringLiteral("partial_mapped_coverage");
    case Signature::HighMappedCoverageLikelihoodDrift:
        return QStringLiteral("high_mapped_coverage_likelihood_drift");
    case Signature::StructuralPositionLikelihoodDrift:
        return QStringLiteral("structural_position_likelihood_drift");
    case Signature::LowEarCandidate:
        return QStringLiteral("low_ear_candidate");
    case Signature::DecodeScorerCandidate:
        return QStringLiteral("decode_scorer_candidate");
    case Signature::ConflictingDiagnosticSignals:
        return QStringLiteral("conflicting_diagnostic_signals");
    case Signature::Ambiguous:
        return QStringLiteral("ambiguous");
    }
    return {};
}

QString signatureGist(Signature signature)
{
    switch (signature) {
    case Signature::LowMappedCoverage:
        return QStringLiteral("the evidence was evicted");
    case Signature::PartialMappedCoverage:
        return QStringLiteral("part of the evidence was evicted");
    case Signature::HighMappedCoverageLikelihoodDrift:
        return QStringLiteral("the evidence was kept, yet the gold answer became unlikely");
    case Signature::StructuralPositionLikelihoodDrift:
        return QStringLiteral("every position kept, yet the gold answer became unlikely");
    case Signature::LowEarCandidate:
        return QStringLiteral("the evidence was kept but not attended to");
    case Signature::DecodeScorerCandidate:
        return QStringLiteral("the cache looks intact: the answer went wrong while decoding");
    case Signature::ConflictingDiagnosticSignals:
        return QStringLiteral("more than one rule fires");
    case Signature::Ambiguous:
        return QStringLiteral("no rule fires");
    }
    return {};
}

const std::vector<Signature>& allSignatures()
{
    static const std::vector<Signature> all = {
        Signature::LowMappedCoverage,
        Signature::PartialMappedCoverage,
        Signature::HighMappedCoverageLikelihoodDrift,
        Signature::StructuralPositionLikelihoodDrift,
        Signature::LowEarCandidate,
        Signature::DecodeScorerCandidate,
        Signature::ConflictingDiagnosticSignals,
        Signature::Ambiguous,
    };
    return all;
}

std::optional<Signature> signatureFromName(const QString& name)
{
    for (Signature s : allSignatures())
        if (name.trimmed() == signatureName(s))
            return s;
    return std::nullopt;
}

std::vector<Signature> firedSignatureRules(const DiagnosticRow& row)
{
    const bool mapped = row.coverageType && isMappedCoverage(*row.coverageType);
    const bool structural = row.coverageType == CoverageType::StructuralPositionAddressability;
    const std::optional<double>& ecov = row.ecovSlot;
    const std::optional<double>& dnll = row.deltaNll;
    // "ECov_slot ≥ 0.90 or structurally addressable": the rows whose evidence is
    // still addressable, so the failure is not explained by eviction.
    const bool addressable = (ecov && *ecov >= kHighCoverage) || structural;

    std::vector<Signature> fired;
    if (mapped && ecov && *ecov < kLowCoverage)
        fired.push_back(Signature::LowMappedCoverage);
    if (mapped && ecov && *ecov >= kLowCoverage && *ecov < kHighCoverage)
        fired.push_back(Signature::PartialMappedCoverage);
    if (mapped && ecov && *ecov >= kHighCoverage && dnll && *dnll >= kLikelihoodDrift)
        fired.push_back(Signature::HighMappedCoverageLikelihoodDrift);
    if (structural && dnll && *dnll >= kLikelihoodDrift)
        fired.push_back(Signature::StructuralPositionLikelihoodDrift);
    if (addressable && row.ear && *row.ear < kLowEar)
        fired.push_back(Signature::LowEarCandidate);
    if (addressable && dnll && std::abs(*dnll) <= kDecodeDeltaNll &&
        (!row.topK || *row.topK >= kDecodeTopK))
        fired.push_back(Signature::DecodeScorerCandidate);
    return fired;
}

Signature classifySignature(const DiagnosticRow& row)
{
    const std::vector<Signature> fired = firedSignatureRules(row);
    if (fired.empty())
        return Signature::Ambiguous;
    if (fired.size() > 1)
        return Signature::ConflictingDiagnosticSignals;
    return fired.front();
}

} // namespace kvl
