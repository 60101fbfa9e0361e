#pragma once

#include "diagnose/diagnosticrow.h"

#include <QString>
#include <optional>
#include <vector>

namespace kvl {

// Failure signatures of C→W rows (KVDiagnosis, SCIENCE.md §1), in table order.
enum class Signature
{
    LowMappedCoverage,
    PartialMappedCoverage,
    HighMappedCoverageLikelihoodDrift,
    StructuralPositionLikelihoodDrift,
    LowEarCandidate,
    DecodeScorerCandidate,
    ConflictingDiagnosticSignals,
    Ambiguous,
};

// The frozen thresholds of the published rules.
namespace signature_thresholds {
inline constexpr double kLowCoverage = 0.50;    // ECov_slot < 0.50
inline constexpr double kHighCoverage = 0.90;   // ECov_slot ≥ 0.90
inline constexpr double kLikelihoodDrift = 1.0; // delta_NLL ≥ 1
inline constexpr double kLowEar = 0.50;         // EAR < 0.50
inline constexpr double kDecodeDeltaNll = 0.10; // |delta_NLL| ≤ 0.10
inline constexpr double kDecodeTopK = 0.90;     // TopK ≥ 0.90 when available
} // namespace signature_thresholds

// The snake_case names of SCIENCE.md, e.g. "low_mapped_coverage".
QString signatureName(Signature signature);
std::optional<Signature> signatureFromName(const QString& name);
// What the signature says in a few plain words, for text reports ("the evidence was
// evicted"); the app's glossary gives the full rule.
QString signatureGist(Signature signature);
// All eight, in table order.
const std::vector<Signature>& allSignatures();

// The six base rules that fire for a row, in table order. A rule whose inputs are
// null does not fire.
std::vector<Signature> firedSignatureRules(const DiagnosticRow& row);

// The row's signature: the one base rule that fires, conflicting_diagnostic_signals
// when more than one fires, ambiguous when none.
Signature classifySignature(const DiagnosticRow& row);

} // namespace kvl
