#include "store/retrievalrows.h"

#include "store/resultcolumns.h"
#include "store/runreader.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

namespace kvl {

std::vector<RetrievalRow> RunReader::retrievalRows()
{
    // LIKE first: json_extract parses every row's JSON, the LIKE skips the rows of other
    // presses (most of a run) on a substring test.
    const QString offloaded = QStringLiteral(
        "(r.extra_json LIKE '%\"retrieval\"%' AND json_extract(r.extra_json, '$.retrieval') "
        "IS NOT NULL)");
    const QString hasMap = m_hasRetrievalTable
                               ? QStringLiteral("EXISTS (SELECT 1 FROM retrieval t WHERE "
                                                "t.sample_id = r.sample_id AND t.config_id = "
                                                "r.config_id)")
                               : QStringLiteral("0");
    SqliteStatement st = m_db->prepare(
        QStringLiteral(
            "SELECT s.sample_key, s.suite, c.config_key, c.compressor, c.ratio, r.correct, "
            "r.score, CASE WHEN %1 THEN json_extract(r.extra_json, '$.retrieval') END, %2 "
            "FROM result r JOIN sample s ON s.id = r.sample_id "
            "JOIN config c ON c.id = r.config_id "
            "WHERE %1 OR (c.compressor = 'FullCache' AND r.sample_id IN (SELECT r.sample_id "
            "FROM result r WHERE %1)) "
            "ORDER BY c.compressor <> 'FullCache', c.compressor, c.ratio, r.sample_id")
            .arg(offloaded, hasMap));
    std::vector<RetrievalRow> rows;
    while (st.step()) {
        RetrievalRow row;
        row.sampleKey = st.columnText(0);
        row.suite = st.columnText(1);
        row.configKey = st.columnText(2);
        row.compressor = st.columnText(3);
        row.ratio = st.columnDouble(4);
        row.correct = st.columnInt(5) != 0;
        if (!st.isNull(6))
            row.score = st.columnDouble(6);
        if (!st.isNull(7))
            row.retrieval = jsonObjectFromText(st.columnText(7));
        row.hasMap = st.columnInt(8) != 0;
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace kvl
