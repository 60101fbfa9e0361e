// RunReader's intervention aggregates by target group (interventionplan.h): the group
// of each row is recomputed from its stored diagnostics, so run files written before
// the groups existed report them too.
#include "store/interventiongroups.h"

#include "diagnose/transition.h"
#include "store/runreader.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <map>
#include <tuple>

namespace kvl {

namespace {

// The group of the stored row whose transition, ECov_slot, coverage_type and EAR are
// columns `first` .. `first + 3` of `st`.
InterventionGroup groupOfStoredRow(const SqliteStatement& st, int first)
{
    DiagnosticRow row;
    row.ecovSlot = st.columnOptDouble(first + 1);
    row.coverageType = coverageTypeFromName(st.columnText(first + 2));
    row.ear = st.columnOptDouble(first + 3);
    return interventionGroupOf(st.columnText(first) == transitionName(Transition::CorrectToWrong),
                               row);
}

} // namespace

std::vector<InterventionGroupCell> RunReader::interventionRatesByGroup()
{
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT c.compressor, c.ratio, i.kind, i.beta, i.repaired, "
                       "r.transition, r.ECov_slot, r.coverage_type, r.EAR "
                       "FROM intervention i JOIN result r ON r.sample_id = i.sample_id "
                       "AND r.config_id = i.config_id JOIN config c ON c.id = i.config_id"));
    using Key = std::tuple<QString, double, int, QString>;
    struct Sums
    {
        qint64 n = 0;
        qint64 repaired = 0;
        double beta = 0.0;
        qint64 betas = 0;
    };
    std::map<Key, Sums> sums;
    while (st.step()) {
        Sums& s = sums[Key{st.columnText(0), st.columnDouble(1), int(groupOfStoredRow(st, 5)),
                           st.columnText(2)}];
        ++s.n;
        s.repaired += st.columnInt(4) != 0 ? 1 : 0;
        if (const std::optional<double> beta = st.columnOptDouble(3)) {
            s.beta += *beta;
            ++s.betas;
        }
    }
    std::vector<InterventionGroupCell> cells;
    for (const auto& [key, s] : sums) {
        InterventionGroupCell cell;
        cell.compressor = std::get<0>(key);
        cell.ratio = std::get<1>(key);
        cell.group = InterventionGroup(std::get<2>(key));
        cell.kind = std::get<3>(key);
        if (s.betas > 0)
            cell.beta = s.beta / double(s.betas);
        cell.n = s.n;
        cell.repaired = s.repaired;
        cell.repairRate = double(s.repaired) / double(s.n);
        cells.push_back(cell);
    }
    return cells;
}

std::vector<InterventionGroupCount> RunReader::interventionGroupCounts()
{
    // Compressed rows only: FullCache rows have no transition.
    SqliteStatement st = m_db->prepare(QStringLiteral(
        "SELECT r.transition, r.ECov_slot, r.coverage_type, r.EAR, "
        "EXISTS (SELECT 1 FROM intervention i WHERE i.sample_id = r.sample_id "
        "AND i.config_id = r.config_id) FROM result r WHERE r.transition IS NOT NULL"));
    std::vector<InterventionGroupCount> counts;
    for (InterventionGroup g : {InterventionGroup::Retained, InterventionGroup::EvictedLowEar,
                                InterventionGroup::OtherCToW, InterventionGroup::NotCToW})
        counts.push_back({g, 0, 0});
    while (st.step()) {
        InterventionGroupCount& c = counts[size_t(groupOfStoredRow(st, 0))];
        ++c.rows;
        c.intervened += st.columnInt(4) != 0 ? 1 : 0;
    }
    return counts;
}

QString InterventionTargetCount::note() const
{
    if (rows > 0)
        return {};
    QStringList groups;
    for (InterventionGroup g : {InterventionGroup::Retained, InterventionGroup::EvictedLowEar,
                                InterventionGroup::OtherCToW, InterventionGroup::NotCToW})
        if (targetIncludes(target, g))
            groups << interventionGroupRule(g);
    return QStringLiteral("no row qualifies for target '%1' (%2): 0 of %3 C->W rows; no "
                          "boost or sham ran on it")
        .arg(interventionTargetName(target), groups.join(QLatin1String("; or ")))
        .arg(cToWRows);
}

std::vector<InterventionTarget> interventionTargetsOfSpec(const QJsonObject& spec)
{
    std::vector<InterventionTarget> targets;
    for (const QJsonValue& v : spec.value(QStringLiteral("interventions")).toArray()) {
        const std::optional<InterventionTarget> t =
            interventionTargetFromName(v.toObject().value(QStringLiteral("on")).toString());
        if (t && std::find(targets.begin(), targets.end(), *t) == targets.end())
            targets.push_back(*t);
    }
    return targets;
}

std::vector<InterventionTargetCount>
interventionTargetCounts(const std::vector<InterventionGroupCount>& groups,
                         const std::vector<InterventionTarget>& targets)
{
    qint64 cToW = 0;
    for (const InterventionGroupCount& g : groups)
        if (g.group != InterventionGroup::NotCToW)
            cToW += g.rows;
    std::vector<InterventionTargetCount> counts;
    for (InterventionTarget t : targets) {
        InterventionTargetCount c;
        c.target = t;
        c.cToWRows = cToW;
        for (const InterventionGroupCount& g : groups)
            if (targetIncludes(t, g.group)) {
                c.rows += g.rows;
                c.intervened += g.intervened;
            }
        counts.push_back(c);
    }
    return counts;
}

QJsonArray interventionTargetsJson(const std::vector<InterventionTargetCount>& counts)
{
    QJsonArray out;
    for (const InterventionTargetCount& c : counts) {
        QJsonObject o{{QStringLiteral("target"), interventionTargetName(c.target)},
                      {QStringLiteral("rows"), c.rows},
                      {QStringLiteral("intervened"), c.intervened}};
        if (!c.note().isEmpty())
            o.insert(QStringLiteral("note"), c.note());
        out.append(o);
    }
    return out;
}

} // namespace kvl
