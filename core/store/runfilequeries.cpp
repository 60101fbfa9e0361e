#include "store/runfilequeries.h"

#include "store/resultcolumns.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

namespace kvl {

std::optional<RunInfo> queryRunInfo(SqliteDatabase& db)
{
    SqliteStatement st =
        db.prepare(QStringLiteral("SELECT spec_json, model_name, model_hash, tool_version, status, "
                                  "created_at, updated_at FROM run WHERE id = 1"));
    if (!st.step())
        return std::nullopt;
    RunInfo info;
    info.spec = jsonObjectFromText(st.columnText(0));
    info.modelName = st.columnText(1);
    info.modelHash = st.columnText(2);
    info.toolVersion = st.columnText(3);
    info.status = st.columnText(4);
    info.createdAt = st.columnText(5);
    info.updatedAt = st.columnText(6);
    return info;
}

std::vector<ConfigRecord> queryConfigs(SqliteDatabase& db, const char* orderBy)
{
    std::vector<ConfigRecord> list;
    SqliteStatement st =
        db.prepare(QStringLiteral("SELECT %1 FROM config ORDER BY %2")
                       .arg(QLatin1String(kConfigSelectColumns), QLatin1String(orderBy)));
    while (st.step())
        list.push_back(readConfigRecord(st));
    return list;
}

QSet<QString> queryCompletedSampleKeys(SqliteDatabase& db)
{
    QSet<QString> keys;
    SqliteStatement st =
        db.prepare(QStringLiteral("SELECT sample_key FROM sample WHERE EXISTS (SELECT 1 FROM "
                                  "result WHERE sample_id = sample.id)"));
    while (st.step())
        keys.insert(st.columnText(0));
    return keys;
}

std::vector<std::pair<QString, QString>> queryCompletedResults(SqliteDatabase& db)
{
    std::vector<std::pair<QString, QString>> done;
    SqliteStatement st = db.prepare(QStringLiteral(
        "SELECT sample_key, config_key FROM result JOIN sample ON sample.id = result.sample_id "
        "JOIN config ON config.id = result.config_id ORDER BY sample.id, config.id"));
    while (st.step())
        done.emplace_back(st.columnText(0), st.columnText(1));
    return done;
}

} // namespace kvl
