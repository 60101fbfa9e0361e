#pragma once

#include "diagnose/diagnosticrow.h"
#include "diagnose/retentionmetrics.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <optional>

namespace kvl {

// The boost/sham intervention of KVDiagnosis (SCIENCE.md §1): re-answer with log β
// added to the attention logits of the evidence entries (boost), and, as a control,
// with the same boost on as many random non-evidence entries (sham). The engine
// applies the boost; this decides where.
inline constexpr double kDefaultBoostBeta = 4.0;

// The groups compressed rows fall into for the interventions, one per row. The
// study's question (does re-weighting attention toward evidence the cache still holds
// repair the failure?) is asked of the first group only: boosting evidence the
// compressor evicted cannot repair anything.
enum class InterventionGroup
{
    // C→W, evidence retained (mapped ECov_slot ≥ 0.90 or structurally addressable),
    // EAR < 0.50: the low_ear_candidate rule of KVDiagnosis (signature.h).
    Retained,
    // C→W, EAR < 0.50, evidence not retained (or its coverage unknown).
    EvictedLowEar,
    // C→W with EAR ≥ 0.50 or no EAR.
    OtherCToW,
    // Any other compressed row (C→C, W→C, W→W).
    NotCToW,
};

// "retained", "evicted_low_ear", "other_c_to_w", "not_c_to_w".
QString interventionGroupName(InterventionGroup group);
std::optional<InterventionGroup> interventionGroupFromName(const QString& name);
// What a group holds, in words, for reports.
QString interventionGroupRule(InterventionGroup group);
// The group of a compressed row: reads the row's ECov_slot, coverage_type and EAR.
InterventionGroup interventionGroupOf(bool cToW, const DiagnosticRow& row);

// Which rows an experiment re-answers (ExperimentSpec interventions[].on).
enum class InterventionTarget
{
    Retained, // KVDiagnosis's target, the default: the Retained group
    LowEar,   // every low-EAR C→W row: Retained + EvictedLowEar
    CToW,     // every C→W row
    All,      // every compressed row
};

// "retained", "low_ear", "c_to_w", "all".
QString interventionTargetName(InterventionTarget target);
std::optional<InterventionTarget> interventionTargetFromName(const QString& name);
QStringList interventionTargetNames();
bool targetIncludes(InterventionTarget target, InterventionGroup group);

// |evidence| distinct positions of [0, contextLen) outside the evidence, drawn
// uniformly with a generator seeded by `seed` (the same seed gives the same
// positions on every platform). Fewer when the context has fewer non-evidence
// positions. Sorted ascending.
Positions shamPositions(int contextLen, const Positions& evidence, quint64 seed);

} // namespace kvl
