#pragma once

#include "store/runrecords.h"

#include <QString>
#include <QStringList>

namespace kvl {

class SqliteStatement;

// The scalar columns of the result table, in one order shared by the writer (INSERT)
// and the reader (SELECT), so the mapping between ResultRecord and SQL lives here
// only. Metric columns carry the KVDiagnosis names (ERR_slot, ECov_slot, delta_NLL...).
QStringList resultValueColumns();
// kvl_checksum() over the value columns of the result row aliased `alias` (e.g. "r"):
// what the writer stores in result.row_checksum and a reader compares it with.
QString resultChecksumSql(const QString& alias);

// Binds the value columns starting at parameter firstIndex.
void bindResultValues(SqliteStatement& st, int firstIndex, const ResultRecord& r);
// Reads the value columns starting at column firstColumn (config key not touched).
void readResultValues(const SqliteStatement& st, int firstColumn, ResultRecord& r);

// The config table's columns as both the reader and the writer select them, and the
// record of one selected row.
inline constexpr const char* kConfigSelectColumns =
    "id, config_key, compressor, ratio, params_json";
ConfigRecord readConfigRecord(const SqliteStatement& st);

// The per-layer and per-span JSON columns (see RunSchema): empty text for no values.
QString layerStatsJson(const std::vector<LayerStat>& layers);
std::vector<LayerStat> layerStatsFromJson(const QString& text);
// The same from UTF-8 bytes with a small parser for the exact shape the writer
// produces ([[int, number|null, number|null], ...]), for aggregating millions of
// values; falls back to the JSON parser for anything else.
std::vector<LayerStat> layerStatsFromJsonUtf8(const QByteArray& text);
QString spanKeepsJson(const std::vector<SpanKeep>& spans);
std::vector<SpanKeep> spanKeepsFromJson(const QString& text);

// Compact JSON text of an object, null for an empty one; and back.
QString jsonText(const QJsonObject& object);
QJsonObject jsonObjectFromText(const QString& text);
QJsonArray jsonArrayFromText(const QString& text);

} // namespace kvl
