// RunReader::suiteOutcomes: per (compressor, ratio, suite), the counts and C→W samples
// of the outcome grids.
#include "store/runreader.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

#include <map>
#include <tuple>

namespace kvl {

std::vector<SuiteOutcomeCell> RunReader::suiteOutcomes()
{
    // The suites come from a materialized (id, suite) table, FullCache's correctness from
    // one (sample, correct) table: looking either up per row reads a 60,000-row run's
    // contexts and rows again (see accuracy()).
    const QString suites = QStringLiteral(
        "WITH s AS MATERIALIZED (SELECT id, COALESCE(suite, '') AS suite FROM sample)");
    std::map<std::tuple<QString, double, QString>, SuiteOutcomeCell> cells;
    SqliteStatement counts = m_db->prepare(
        suites +
        QStringLiteral(", f AS MATERIALIZED (SELECT r.sample_id, MAX(r.correct) AS correct "
                       "FROM result r JOIN config c ON c.id = r.config_id WHERE c.compressor = ?1 "
                       "GROUP BY r.sample_id) "
                       "SELECT c.compressor, c.ratio, s.suite, COUNT(*), COUNT(r.score), "
                       "TOTAL(r.score), SUM(COALESCE(f.correct, 0) <> 0) "
                       "FROM result r JOIN config c ON c.id = r.config_id "
                       "JOIN s ON s.id = r.sample_id LEFT JOIN f ON f.sample_id = r.sample_id "
                       "WHERE c.compressor <> ?1 GROUP BY c.compressor, c.ratio, s.suite"));
    counts.bind(1, kFullCacheCompressor);
    while (counts.step()) {
        SuiteOutcomeCell cell;
        cell.compressor = counts.columnText(0);
        cell.ratio = counts.columnDouble(1);
        cell.suite = counts.columnText(2);
        cell.rows = counts.columnInt(3);
        cell.scoredRows = counts.columnInt(4);
        cell.scoreSum = counts.columnDouble(5);
        cell.fullCacheCorrect = counts.columnInt(6);
        cells[{cell.compressor, cell.ratio, cell.suite}] = std::move(cell);
    }
    SqliteStatement failures = m_db->prepare(
        suites + QStringLiteral(" SELECT c.compressor, c.ratio, s.suite, r.sample_id "
                                "FROM result r JOIN config c ON c.id = r.config_id "
                                "JOIN s ON s.id = r.sample_id "
                                "WHERE r.transition = 'C->W' AND c.compressor <> ?1"));
    failures.bind(1, kFullCacheCompressor);
    while (failures.step())
        cells[{failures.columnText(0), failures.columnDouble(1), failures.columnText(2)}]
            .correctToWrong.insert(failures.columnInt(3));
    std::vector<SuiteOutcomeCell> out;
    out.reserve(cells.size());
    for (auto& [key, cell] : cells)
        out.push_back(std::move(cell));
    return out;
}

} // namespace kvl
