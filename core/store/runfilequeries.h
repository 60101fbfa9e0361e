#pragma once

#include "store/runrecords.h"

#include <QSet>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

namespace kvl {

class SqliteDatabase;

// The queries RunReader and RunWriter both make of a run file, written once so
// that what a resume skips and what a view shows cannot drift apart.

// The run's metadata row; nullopt until a writer has written it.
std::optional<RunInfo> queryRunInfo(SqliteDatabase& db);
// Every configuration, in `orderBy` (an SQL ORDER BY list over the config table).
std::vector<ConfigRecord> queryConfigs(SqliteDatabase& db, const char* orderBy);
// Keys of the samples with at least one stored row.
QSet<QString> queryCompletedSampleKeys(SqliteDatabase& db);
// (sample key, config key) of every stored row, by sample, then configuration id.
std::vector<std::pair<QString, QString>> queryCompletedResults(SqliteDatabase& db);

} // namespace kvl
