#include "diagnose/interventionplan.h"

#include "diagnose/signature.h"

#include <algorithm>
#include <random>

namespace kvl {

namespace {
constexpr InterventionGroup kGroups[] = {InterventionGroup::Retained,
                                         InterventionGroup::EvictedLowEar,
                                         InterventionGroup::OtherCToW, InterventionGroup::NotCToW};
constexpr InterventionTarget kTargets[] = {InterventionTarget::Retained, InterventionTarget::LowEar,
                                           InterventionTarget::CToW, InterventionTarget::All};
} // namespace

QString interventionGroupName(InterventionGroup group)
{
    switch (group) {
    case InterventionGroup::Retained:
        return QStringLiteral("retained");
    case InterventionGroup::EvictedLowEar:
        return QStringLiteral("evicted_low_ear");
    case InterventionGroup::OtherCToW:
        return QStringLiteral("other_c_to_w");
    case InterventionGroup::NotCToW:
        break;
    }
    return QStringLiteral("not_c_to_w");
}

std::optional<InterventionGroup> interventionGroupFromName(const QString& name)
{
    for (InterventionGroup g : kGroups)
        if (interventionGroupName(g) == name)
            return g;
    return std::nullopt;
}

QString interventionGroupRule(InterventionGroup group)
{
    switch (group) {
    case InterventionGroup::Retained:
        return QStringLiteral("C->W, evidence retained (ECov_slot >= 0.90 or structurally "
                              "addressable), EAR < 0.50");
    case InterventionGroup::EvictedLowEar:
        return QStringLiteral("C->W, EAR < 0.50, evidence not retained");
    case InterventionGroup::OtherCToW:
        return QStringLiteral("C->W, EAR >= 0.50 or unmeasured");
    case InterventionGroup::NotCToW:
        break;
    }
    return QStringLiteral("not C->W");
}

InterventionGroup interventionGroupOf(bool cToW, const DiagnosticRow& row)
{
    if (!cToW)
        return InterventionGroup::NotCToW;
    // The low_ear_candidate rule of the signature classifier, so that the rows
    // intervened on are the rows the taxonomy calls low-EAR candidates.
    const std::vector<Signature> fired = firedSignatureRules(row);
    if (std::find(fired.begin(), fired.end(), Signature::LowEarCandidate) != fired.end())
        return InterventionGroup::Retained;
    if (row.ear && *row.ear < signature_thresholds::kLowEar)
        return InterventionGroup::EvictedLowEar;
    return InterventionGroup::OtherCToW;
}

QString interventionTargetName(InterventionTarget target)
{
    switch (target) {
    case InterventionTarget::Retained:
        return QStringLiteral("retained");
    case InterventionTarget::LowEar:
        return QStringLiteral("low_ear");
    case InterventionTarget::CToW:
        return QStringLiteral("c_to_w");
    case InterventionTarget::All:
        break;
    }
    return QStringLiteral("all");
}

std::optional<InterventionTarget> interventionTargetFromName(const QString& name)
{
    for (InterventionTarget t : kTargets)
        if (interventionTargetName(t) == name)
            return t;
    return std::nullopt;
}

QStringList interventionTargetNames()
{
    QStringList names;
    for (InterventionTarget t : kTargets)
        names << interventionTargetName(t);
    return names;
}

bool targetIncludes(InterventionTarget target, InterventionGroup group)
{
    switch (target) {
    case InterventionTarget::Retained:
        return group == InterventionGroup::Retained;
    case InterventionTarget::LowEar:
        return group == InterventionGroup::Retained || group == InterventionGroup::EvictedLowEar;
    case InterventionTarget::CToW:
        return group != InterventionGroup::NotCToW;
    case InterventionTarget::All:
        break;
    }
    return true;
}

Positions shamPositions(int contextLen, const Positions& evidence, quint64 seed)
{
    const Positions e = unionOfSpans({evidence});
    Positions candidates;
    for (int t = 0; t < contextLen; ++t)
        if (!std::binary_search(e.begin(), e.end(), t))
            candidates.push_back(t);
    const std::size_t n = std::min(e.size(), candidates.size());
    // Partial Fisher-Yates with mt19937_64, whose output is fixed by the standard
    // (std::uniform_int_distribution is not, so the index is drawn by hand).
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t span = candidates.size() - i;
        const std::size_t j = i + std::size_t(rng() % span);
        std::swap(candidates[i], candidates[j]);
    }
    candidates.resize(n);
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

} // namespace kvl
