// RunReader's aggregate queries: one GROUP BY per picture of the views/report.
#include "diagnose/failureoverlap.h"
#include "store/resultcolumns.h"
#include "store/runreader.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace kvl {

namespace {
// FullCache first, then compressors alphabetically, then ratio.
const char* const kCellOrder = "c.compressor <> 'FullCache', c.compressor, c.ratio";

// One cell per row of `sql`, whose %1 is replaced by the cell order; `toCell` reads
// a row of the stepped statement.
template <typename Cell, typename ToCell>
std::vector<Cell> cellsInOrder(SqliteDatabase& db, const QString& sql, ToCell toCell)
{
    std::vector<Cell> cells;
    SqliteStatement st = db.prepare(sql.arg(QLatin1String(kCellOrder)));
    while (st.step())
        cells.push_back(toCell(st));
    return cells;
}
} // namespace

std::optional<double> TransitionCounts::failureRate() const
{
    const qint64 fullCorrect = correctToCorrect + correctToWrong;
    if (fullCorrect == 0)
        return std::nullopt;
    return double(correctToWrong) / double(fullCorrect);
}

std::vector<AccuracyCell> RunReader::accuracy()
{
    return cellsInOrder<AccuracyCell>(
        *m_db,
        // Grouped by configuration id first, then joined to the few configurations; the
        // samples' suites come from a materialized (id, suite) table: looking the suite up in
        // the sample table for each of 60,000 rows reads its contexts' pages too.
        QStringLiteral("WITH s AS MATERIALIZED (SELECT id, suite FROM sample), "
                       "g AS (SELECT r.config_id, s.suite, COUNT(*) AS n, SUM(r.correct) AS k, "
                       "SUM(r.kv_bytes) AS b, COUNT(r.kv_bytes) AS nb, "
                       "SUM(r.score) AS sc, COUNT(r.score) AS nsc "
                       "FROM result r JOIN s ON s.id = r.sample_id GROUP BY r.config_id, s.suite) "
                       "SELECT c.compressor, c.ratio, g.suite AS suite, SUM(g.n), SUM(g.k), "
                       "CAST(SUM(g.b) AS REAL) / NULLIF(SUM(g.nb), 0), "
                       "CAST(SUM(g.sc) AS REAL) / NULLIF(SUM(g.nsc), 0) "
                       "FROM g JOIN config c ON c.id = g.config_id "
                       "GROUP BY c.compressor, c.ratio, g.suite ORDER BY %1, suite"),
        [](const SqliteStatement& st) {
            AccuracyCell a{st.columnText(0), st.columnDouble(1), st.columnText(2), st.columnInt(3),
                           st.columnInt(4)};
            a.accuracy = a.n > 0 ? double(a.correct) / double(a.n) : 0.0;
            a.kvBytes = st.columnOptDouble(5);
            a.meanScore = st.columnOptDouble(6);
            return a;
        });
}

std::vector<TransitionCounts> RunReader::transitions()
{
    return cellsInOrder<TransitionCounts>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, "
                       "SUM(r.transition = 'C->C'), SUM(r.transition = 'C->W'), "
                       "SUM(r.transition = 'W->C'), SUM(r.transition = 'W->W') "
                       "FROM result r JOIN config c ON c.id = r.config_id "
                       "WHERE r.transition IS NOT NULL "
                       "GROUP BY c.compressor, c.ratio ORDER BY %1"),
        [](const SqliteStatement& st) {
            return TransitionCounts{st.columnText(0), st.columnDouble(1), st.columnInt(2),
                                    st.columnInt(3),  st.columnInt(4),    st.columnInt(5)};
        });
}

std::vector<SignatureCount> RunReader::signatures()
{
    return cellsInOrder<SignatureCount>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, r.signature, COUNT(*), "
                       "SUM(COUNT(*)) OVER (PARTITION BY c.compressor, c.ratio) "
                       "FROM result r JOIN config c ON c.id = r.config_id "
                       "WHERE r.transition = 'C->W' AND r.signature IS NOT NULL "
                       "GROUP BY c.compressor, c.ratio, r.signature ORDER BY %1, r.signature"),
        [](const SqliteStatement& st) {
            return SignatureCount{st.columnText(0), st.columnDouble(1), st.columnText(2),
                                  st.columnInt(3),
                                  double(st.columnInt(3)) / double(st.columnInt(4))};
        });
}

std::vector<SignatureCount> RunReader::signatureTotals()
{
    std::vector<SignatureCount> cells;
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT signature, COUNT(*), SUM(COUNT(*)) OVER () FROM result "
                       "WHERE transition = 'C->W' AND signature IS NOT NULL "
                       "GROUP BY signature ORDER BY signature"));
    while (st.step())
        cells.push_back({QString(), 0.0, st.columnText(0), st.columnInt(1),
                         double(st.columnInt(1)) / double(st.columnInt(2))});
    return cells;
}

std::vector<FailureSetCell> RunReader::failureSets()
{
    // Every compressed configuration takes part, also one with no failure at all.
    std::map<std::pair<double, QString>, std::set<qint64>> failures;
    SqliteStatement configsSt = m_db->prepare(
        QStringLiteral("SELECT DISTINCT compressor, ratio FROM config WHERE compressor <> ?"));
    configsSt.bind(1, kFullCacheCompressor);
    while (configsSt.step())
        failures[{configsSt.columnDouble(1), configsSt.columnText(0)}];
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT c.compressor, c.ratio, r.sample_id FROM result r "
                       "JOIN config c ON c.id = r.config_id WHERE r.transition = 'C->W'"));
    while (st.step())
        failures[{st.columnDouble(1), st.columnText(0)}].insert(st.columnInt(2));
    std::vector<FailureSetCell> cells;
    for (auto& [key, ids] : failures)
        cells.push_back({key.first, key.second, std::move(ids)});
    return cells;
}

std::vector<OverlapCell> RunReader::failureOverlaps()
{
    std::map<double, std::map<QString, std::set<qint64>>> failures;
    for (FailureSetCell& c : failureSets())
        failures[c.ratio][c.compressor] = std::move(c.sampleIds);

    std::vector<OverlapCell> cells;
    for (const auto& [ratio, byCompressor] : failures)
        for (auto a = byCompressor.begin(); a != byCompressor.end(); ++a)
            for (auto b = std::next(a); b != byCompressor.end(); ++b) {
                const FailureOverlap o = failureOverlap(a->second, b->second);
                cells.push_back({ratio, a->first, b->first, o.aOnly, o.bOnly, o.both, o.jaccard});
            }
    return cells;
}

const std::vector<const char*>& diagnosticProfileColumns()
{
    static const std::vector<const char*> columns = {"ERR_slot", "ECov_slot", "delta_NLL", "GPR",
                                                     "KL",       "TopK",      "EAR"};
    return columns;
}

std::vector<DiagnosticProfileCell> RunReader::diagnosticProfiles()
{
    QStringList aggregates;
    for (const char* c : diagnosticProfileColumns())
        aggregates << QStringLiteral("AVG(r.%1), COUNT(r.%1)").arg(QLatin1String(c));
    return cellsInOrder<DiagnosticProfileCell>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, COUNT(*), %2 FROM result r "
                       "JOIN config c ON c.id = r.config_id WHERE r.transition = 'C->W' "
                       "GROUP BY c.compressor, c.ratio ORDER BY %1")
            .replace(QLatin1String("%2"), aggregates.join(QLatin1String(", "))),
        [](const SqliteStatement& st) {
            DiagnosticProfileCell cell{st.columnText(0), st.columnDouble(1), st.columnInt(2), {}};
            for (int i = 0; i < int(diagnosticProfileColumns().size()); ++i)
                cell.means.push_back({st.columnOptDouble(3 + 2 * i), st.columnInt(4 + 2 * i)});
            return cell;
        });
}

std::vector<SpanKeepCell> RunReader::spanKeepByOrder()
{
    // The LIKE skips, without parsing, the rows whose spans hold no instruction (a
    // retrieval run's: json_each over them was most of the overview of a 60,000-row run);
    // the writer's compact JSON spells the kind "instruction" literally, and json_extract
    // still decides.
    return cellsInOrder<SpanKeepCell>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, json_extract(k.value, '$[2]') AS o, "
                       "COUNT(*), AVG(json_extract(k.value, '$[3]')), "
                       "AVG(json_extract(k.value, '$[3]') * json_extract(k.value, '$[3]')) "
                       "FROM result r JOIN config c ON c.id = r.config_id, "
                       "json_each(r.span_keep_json) k "
                       "WHERE r.span_keep_json LIKE '%\"instruction\"%' "
                       "AND json_extract(k.value, '$[1]') = 'instruction' AND o IS NOT NULL "
                       "AND json_extract(k.value, '$[3]') IS NOT NULL "
                       "GROUP BY c.compressor, c.ratio, o ORDER BY %1, o"),
        [](const SqliteStatement& st) {
            SpanKeepCell cell{st.columnText(0), st.columnDouble(1), int(st.columnInt(2)),
                              st.columnInt(3), st.columnDouble(4)};
            // From the mean square: var = n / (n - 1) · (E[x²] − E[x]²), never below 0.
            const double n = double(cell.n);
            if (cell.n > 1)
                cell.sdKeepRate = std::sqrt(std::max(
                    0.0,
                    n / (n - 1.0) * (st.columnDouble(5) - cell.meanKeepRate * cell.meanKeepRate)));
            return cell;
        });
}

std::vector<LeakageCell> RunReader::leakage()
{
    return cellsInOrder<LeakageCell>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, s.suite, COUNT(*), AVG(r.leakage), "
                       "SUM(r.leaked) FROM result r JOIN config c ON c.id = r.config_id "
                       "JOIN sample s ON s.id = r.sample_id WHERE r.leakage IS NOT NULL "
                       "GROUP BY c.compressor, c.ratio, s.suite ORDER BY %1, s.suite"),
        [](const SqliteStatement& st) {
            LeakageCell l{st.columnText(0), st.columnDouble(1), st.columnText(2),
                          st.columnInt(3),  st.columnDouble(4), st.columnInt(5)};
            l.leakRate = double(l.leaks) / double(l.n);
            return l;
        });
}

std::vector<LayerCell> RunReader::layerStatsByLayer(const std::optional<QString>& compressor)
{
    // Aggregated here rather than with json_each(): a 36-layer sweep has millions of
    // per-layer values, and SQLite's JSON functions re-parse each of them.
    struct Sums
    {
        qint64 n = 0, nGer = 0, nConsensus = 0;
        double ger = 0.0, consensus = 0.0;
    };
    // (not FullCache, compressor, ratio, layer): FullCache first, as everywhere.
    std::map<std::tuple<bool, QString, double, int>, Sums> sums;
    // One compressor's rows only when asked: the GER view shows the focus compressor, and
    // parsing every configuration's JSON to keep one's cost a large run most of its details.
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT c.compressor, c.ratio, r.layer_json FROM result r "
                       "JOIN config c ON c.id = r.config_id WHERE r.layer_json IS NOT NULL%1")
            .arg(compressor ? QStringLiteral(" AND c.compressor = ?") : QString()));
    if (compressor)
        st.bind(1, *compressor);
    while (st.step()) {
        const QString compressor = st.columnText(0);
        const double ratio = st.columnDouble(1);
        for (const LayerStat& l : layerStatsFromJsonUtf8(st.columnUtf8(2))) {
            Sums& s = sums[{compressor != kFullCacheCompressor, compressor, ratio, l.layer}];
            ++s.n;
            if (l.ger) {
                ++s.nGer;
                s.ger += *l.ger;
            }
            if (l.consensus) {
                ++s.nConsensus;
                s.consensus += *l.consensus;
            }
        }
    }
    std::vector<LayerCell> cells;
    for (const auto& [key, s] : sums) {
        LayerCell cell{std::get<1>(key), std::get<2>(key), std::get<3>(key), s.n, {}, {}};
        if (s.nGer > 0)
            cell.meanGer = s.ger / double(s.nGer);
        if (s.nConsensus > 0)
            cell.meanConsensus = s.consensus / double(s.nConsensus);
        cells.push_back(cell);
    }
    return cells;
}

std::vector<InterventionCell> RunReader::interventionRates()
{
    return cellsInOrder<InterventionCell>(
        *m_db,
        QStringLiteral("SELECT c.compressor, c.ratio, i.kind, AVG(i.beta), COUNT(*), "
                       "SUM(i.repaired) FROM intervention i JOIN config c ON c.id = i.config_id "
                       "GROUP BY c.compressor, c.ratio, i.kind ORDER BY %1, i.kind"),
        [](const SqliteStatement& st) {
            InterventionCell cell{st.columnText(0),      st.columnDouble(1), st.columnText(2),
                                  st.columnOptDouble(3), st.columnInt(4),    st.columnInt(5)};
            cell.repairRate = double(cell.repaired) / double(cell.n);
            return cell;
        });
}

} // namespace kvl
