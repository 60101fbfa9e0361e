#pragma once

#include "diagnose/interventionplan.h"

#include <QJsonArray>
#include <QString>
#include <optional>
#include <vector>

namespace kvl {

class RunReader;

// Repair rate of one intervention kind on the rows of one group (interventionplan.h)
// under one configuration. The group is read from the row's stored diagnostics
// (transition, ECov_slot, coverage_type, EAR), with the rule the sweep chose it by.
struct InterventionGroupCell
{
    QString compressor;
    double ratio = 0.0;
    InterventionGroup group = InterventionGroup::Retained;
    QString kind; // boost | sham
    std::optional<double> beta;
    qint64 n = 0;
    qint64 repaired = 0;
    double repairRate = 0.0;
};

// Compressed rows of one group over the whole run, and how many of them were
// re-answered (at least one intervention stored).
struct InterventionGroupCount
{
    InterventionGroup group = InterventionGroup::Retained;
    qint64 rows = 0;
    qint64 intervened = 0;
};

// What one intervention target of a run selects.
struct InterventionTargetCount
{
    InterventionTarget target = InterventionTarget::Retained;
    qint64 rows = 0;       // compressed rows in the target's groups
    qint64 cToWRows = 0;   // C→W rows of the whole run, for the "none qualifies" line
    qint64 intervened = 0; // of `rows`, those re-answered
    // "no row qualifies for target 'retained' (...)" when rows == 0, else empty.
    QString note() const;
};

// The targets of a run's spec (interventions[].on; the spec of an older run may say
// "low_ear"), each once, in spec order. Unknown names are skipped.
std::vector<InterventionTarget> interventionTargetsOfSpec(const QJsonObject& spec);

std::vector<InterventionTargetCount>
interventionTargetCounts(const std::vector<InterventionGroupCount>& groups,
                         const std::vector<InterventionTarget>& targets);

// [{"target", "rows", "intervened", "note"?}, ...] for run summaries.
QJsonArray interventionTargetsJson(const std::vector<InterventionTargetCount>& counts);

} // namespace kvl
