#include "store/runschema.h"

#include "common/error.h"
#include "store/sqlitedatabase.h"

#include <vector>

namespace kvl {

namespace {
struct Migration
{
    int toVersion;
    const char* sql;
};

const char* const kVersionOne = R"sql(
CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  spec_json TEXT NOT NULL,
  model_name TEXT,
  model_hash TEXT,
  tool_version TEXT,
  status TEXT NOT NULL DEFAULT 'running',
  created_at TEXT,
  updated_at TEXT);
CREATE TABLE sample (
  id INTEGER PRIMARY KEY,
  sample_key TEXT NOT NULL UNIQUE,
  suite TEXT,
  source_id TEXT,
  context_len INTEGER,
  question_len INTEGER,
  spans_json TEXT,
  gold TEXT,
  meta_json TEXT);
CREATE TABLE config (
  id INTEGER PRIMARY KEY,
  config_key TEXT NOT NULL UNIQUE,
  compressor TEXT NOT NULL,
  ratio REAL NOT NULL,
  params_json TEXT);
CREATE TABLE result (
  sample_id INTEGER NOT NULL REFERENCES sample(id),
  config_id INTEGER NOT NULL REFERENCES config(id),
  answer TEXT,
  correct INTEGER,
  score REAL,
  transition TEXT,
  ERR_slot REAL, ECov_slot REAL, DRR REAL, delta_NLL REAL, GPR REAL, KL REAL, TopK REAL,
  gold_rank_shift REAL, EAR REAL,
  coverage_type TEXT,
  signature TEXT,
  PRIMARY KEY (sample_id, config_id)) WITHOUT ROWID;
CREATE INDEX result_by_config ON result(config_id, transition);
CREATE INDEX sample_by_suite ON sample(suite);
CREATE TABLE mask (
  sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  layers INTEGER NOT NULL, kv_heads INTEGER NOT NULL, context_len INTEGER NOT NULL,
  bits BLOB NOT NULL,
  PRIMARY KEY (sample_id, config_id));
CREATE TABLE attention (
  sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  layers INTEGER NOT NULL, kv_heads INTEGER NOT NULL, context_len INTEGER NOT NULL,
  weights BLOB NOT NULL,
  PRIMARY KEY (sample_id, config_id));
CREATE TABLE intervention (
  sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  beta REAL,
  answer TEXT,
  repaired INTEGER,
  PRIMARY KEY (sample_id, config_id, kind)) WITHOUT ROWID;
)sql";

const std::vector<Migration>& migrations()
{
    static const std::vector<Migration> list = {
        {1, kVersionOne},
        {2, R"sql(
ALTER TABLE result ADD COLUMN GER REAL;
ALTER TABLE result ADD COLUMN leakage REAL;
ALTER TABLE result ADD COLUMN leaked INTEGER;
ALTER TABLE result ADD COLUMN compliance_json TEXT;
ALTER TABLE result ADD COLUMN text2json REAL;
ALTER TABLE result ADD COLUMN kv_bytes INTEGER;
ALTER TABLE result ADD COLUMN prefill_ms REAL;
ALTER TABLE result ADD COLUMN compress_ms REAL;
ALTER TABLE result ADD COLUMN answer_ms REAL;
ALTER TABLE result ADD COLUMN diagnose_ms REAL;
ALTER TABLE result ADD COLUMN extra_json TEXT;
CREATE INDEX result_by_signature ON result(config_id, signature);
ALTER TABLE result ADD COLUMN layer_json TEXT;
ALTER TABLE result ADD COLUMN span_keep_json TEXT;
)sql"},
        // Checksums (store/storechecksum.h). Rows and blobs of older files keep NULL:
        // readable as before, but unverified.
        {3, R"sql(
ALTER TABLE result ADD COLUMN row_checksum INTEGER;
ALTER TABLE mask ADD COLUMN checksum INTEGER;
ALTER TABLE attention ADD COLUMN checksum INTEGER;
)sql"},
        // Offloaded decoding's retrieval maps (diagnose/retrievalmap.h): shares are the
        // step-major bytes, qCompress'ed (store/blobcodec.h); checksum as for masks.
        {4, R"sql(
CREATE TABLE retrieval (
  sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  steps INTEGER NOT NULL, context_len INTEGER NOT NULL,
  shares BLOB NOT NULL,
  checksum INTEGER,
  PRIMARY KEY (sample_id, config_id));
)sql"},
    };
    return list;
}
} // namespace

namespace {
// The overview's aggregates (accuracy, transitions, signatures, failure sets, leakage)
// read these columns of every row: a covering index lets SQLite scan ~2 MB for a
// 60,000-row run instead of the ~50 MB of rows (their per-layer and per-span JSON).
// The primary key (sample_id, config_id) is part of every index of a WITHOUT ROWID table.
const char* const kReadIndexName = "result_overview";
const char* const kReadIndexSql = "CREATE INDEX IF NOT EXISTS result_overview ON "
                                  "result(config_id, transition, signature, correct, leaked)";
} // namespace

void RunSchema::ensureReadIndexes(SqliteDatabase& db)
{
    db.exec(QString::fromLatin1(kReadIndexSql));
}

bool RunSchema::hasReadIndexes(SqliteDatabase& db)
{
    return db.scalarInt(QStringLiteral("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index' "
                                       "AND name = '%1'")
                            .arg(QLatin1String(kReadIndexName))) > 0;
}

QString RunSchema::versionOneSql()
{
    return QString::fromUtf8(kVersionOne);
}

int RunSchema::tableVersion(SqliteDatabase& db)
{
    if (!db.hasTable(QStringLiteral("result")))
        return 0;
    const auto hasResultColumn = [&](const char* name) {
        return db.scalarInt(QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('result') "
                                           "WHERE name = '%1'")
                                .arg(QLatin1String(name))) > 0;
    };
    // Version 4 added the retrieval table, 3 result.row_checksum, 2 result.GER (each
    // with its siblings, in one migration).
    if (db.hasTable(QStringLiteral("retrieval")))
        return 4;
    if (hasResultColumn("row_checksum"))
        return 3;
    return hasResultColumn("GER") ? 2 : 1;
}

QStringList RunSchema::requiredTables(int version)
{
    QStringList tables = {QStringLiteral("run"),         QStringLiteral("sample"),
                          QStringLiteral("config"),      QStringLiteral("result"),
                          QStringLiteral("mask"),        QStringLiteral("attention"),
                          QStringLiteral("intervention")};
    if (version >= 4)
        tables << QStringLiteral("retrieval");
    return tables;
}

void RunSchema::createOrMigrate(SqliteDatabase& db)
{
    db.exec(QStringLiteral("BEGIN IMMEDIATE"));
    try {
        // Read the version inside the write transaction: two processes opening the
        // same new file must not both create it.
        const int version = int(db.scalarInt(QStringLiteral("PRAGMA user_version")));
        if (version > kCurrentVersion)
            throw Error(db.path(),
                        QStringLiteral("written by a newer KVLens (schema version %1; this build "
                                       "reads up to %2)")
                            .arg(version)
                            .arg(kCurrentVersion));
        for (const Migration& m : migrations()) {
            if (m.toVersion <= version)
                continue;
            db.exec(QString::fromUtf8(m.sql));
            db.exec(QStringLiteral("PRAGMA user_version = %1").arg(m.toVersion));
        }
        db.exec(QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId));
        db.exec(QStringLiteral("COMMIT"));
    } catch (...) {
        db.rollbackQuietly();
        throw;
    }
}

} // namespace kvl
