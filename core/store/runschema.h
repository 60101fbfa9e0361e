#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

class SqliteDatabase;

// The schema of a run file. Versions go forward only: a new file is created at
// version 1 and brought up by the same migrations an old file goes through, so the
// migration path is exercised every time a run starts.
//
//   v1  run, sample, config, result (answer, transition, KVDiagnosis metrics,
//       signature), mask, attention, intervention
//   v2  result: GER, leakage, compliance, Text2JSON score, kv bytes, timings,
//       layer_json (GER and consensus per layer: [[layer, GER, consensus], ...]),
//       span_keep_json (keep rate per span: [[span_index, kind, order, keep_rate], ...])
//   v3  result.row_checksum (kvl_checksum over the value columns), mask.checksum and
//       attention.checksum (over the stored blob): see store/storechecksum.h. Rows and
//       blobs written before v3 keep NULL there: still read, not verified.
//   v4  retrieval (offloaded decoding, issue 19): per row, the decoding-step x context-
//       position map of retrieved shares (steps, context_len, compressed shares blob,
//       checksum). Only a table is added, so a read-only v3 file is read as it is, as a
//       run without retrieval maps.
//
// Read indexes, outside the version chain (ensureReadIndexes): result_overview on
// result(config_id, transition, signature, correct, leaked), covering the overview's
// aggregates. Created when a file is opened for writing, and on a read-only open of a
// writable file that lacks it (best effort, like a migration on open); a build that does
// not know it reads the file unchanged, and a file without it reads the same, slower.
//
// Per-layer and per-span values are JSON arrays in the result row rather than child
// tables: one INSERT per row keeps a 60,000-row sweep of a 36-layer model well under
// the 5 s write budget, and SQLite's json_each() still aggregates them in SQL.
class RunSchema
{
  public:
    static constexpr int kCurrentVersion = 4;
    // The oldest version a read-only file may keep: every later migration only adds
    // tables the reader treats as empty when absent.
    static constexpr int kOldestReadableAsIs = 3;
    // PRAGMA application_id of every run file: "KVL1".
    static constexpr int kApplicationId = 0x4B564C31;

    // Creates the schema in an empty database (version 0) or migrates an older one
    // to kCurrentVersion, in one transaction. Throws kvl::Error naming the file.
    static void createOrMigrate(SqliteDatabase& db);

    // The schema version the tables of `db` have, whatever user_version says: 0
    // without a result table, else the newest version whose columns are present.
    static int tableVersion(SqliteDatabase& db);

    // Indexes that only speed up reading (no schema version of their own: a file with or
    // without them is the same file to every build). Creates those missing; `db` must be
    // open for writing. Throws kvl::Error naming the file (e.g. when it is locked).
    static void ensureReadIndexes(SqliteDatabase& db);
    // Whether ensureReadIndexes() has nothing left to create in `db`.
    static bool hasReadIndexes(SqliteDatabase& db);

    // Tables every run file of schema `version` has.
    static QStringList requiredTables(int version = kCurrentVersion);
    // The DDL of version 1 (the start of the migration chain).
    static QString versionOneSql();
};

} // namespace kvl
