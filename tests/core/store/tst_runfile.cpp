// Opening run files: migration from schema v1 (built by SQL here), and clear errors
// for newer, foreign, non-SQLite, empty, missing, truncated and overwritten files.
#include "storefixtures.h"

#include "common/error.h"
#include "common/jsonio.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/runschema.h"
#include "store/runwriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>
#include <unistd.h>

using namespace kvl;
using namespace kvl::test;

namespace {
void sql(const QString& path, const char* statements)
{
    sqlite3* db = nullptr;
    QCOMPARE_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, statements, nullptr, nullptr, &err);
    const QString message = err ? QString::fromUtf8(err) : QString();
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

// The version-1 layout as the first release wrote it, with one sample and two rows.
const char* const kVersionOneFile = R"sql(
PRAGMA application_id = 1263946801;  -- 0x4B564C31 "KVL1"
CREATE TABLE run (id INTEGER PRIMARY KEY CHECK (id = 1), spec_json TEXT NOT NULL,
  model_name TEXT, model_hash TEXT, tool_version TEXT, status TEXT NOT NULL DEFAULT 'running',
  created_at TEXT, updated_at TEXT);
CREATE TABLE sample (id INTEGER PRIMARY KEY, sample_key TEXT NOT NULL UNIQUE, suite TEXT,
  source_id TEXT, context_len INTEGER, question_len INTEGER, spans_json TEXT, gold TEXT,
  meta_json TEXT);
CREATE TABLE config (id INTEGER PRIMARY KEY, config_key TEXT NOT NULL UNIQUE,
  compressor TEXT NOT NULL, ratio REAL NOT NULL, params_json TEXT);
CREATE TABLE result (sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL, answer TEXT,
  correct INTEGER, score REAL, transition TEXT, ERR_slot REAL, ECov_slot REAL, DRR REAL,
  delta_NLL REAL, GPR REAL, KL REAL, TopK REAL, gold_rank_shift REAL, EAR REAL,
  coverage_type TEXT, signature TEXT, PRIMARY KEY (sample_id, config_id)) WITHOUT ROWID;
CREATE INDEX result_by_config ON result(config_id, transition);
CREATE INDEX sample_by_suite ON sample(suite);
CREATE TABLE mask (sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  layers INTEGER NOT NULL, kv_heads INTEGER NOT NULL, context_len INTEGER NOT NULL,
  bits BLOB NOT NULL, PRIMARY KEY (sample_id, config_id));
CREATE TABLE attention (sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  layers INTEGER NOT NULL, kv_heads INTEGER NOT NULL, context_len INTEGER NOT NULL,
  weights BLOB NOT NULL, PRIMARY KEY (sample_id, config_id));
CREATE TABLE intervention (sample_id INTEGER NOT NULL, config_id INTEGER NOT NULL,
  kind TEXT NOT NULL, beta REAL, answer TEXT, repaired INTEGER,
  PRIMARY KEY (sample_id, config_id, kind)) WITHOUT ROWID;
INSERT INTO run VALUES (1, '{"model":"old"}', 'tiny', 'h1', '0.0.9', 'finished', 't0', 't1');
INSERT INTO sample VALUES (1, 'old/1', 'niah', '1', 100, 5, '[]', 'blue', NULL);
INSERT INTO config VALUES (1, 'FullCache@0', 'FullCache', 0, '{}');
INSERT INTO config VALUES (2, 'SnapKV@0.5', 'SnapKV', 0.5, '{}');
INSERT INTO result (sample_id, config_id, answer, correct, transition) VALUES (1, 1, 'blue', 1, NULL);
INSERT INTO result (sample_id, config_id, answer, correct, transition, ECov_slot, coverage_type,
  signature) VALUES (1, 2, 'red', 0, 'C->W', 0.25, 'measured_token_coverage', 'low_mapped_coverage');
PRAGMA user_version = 1;
)sql";

void expectError(const std::function<void()>& open, const QString& path, const QString& words)
{
    try {
        open();
        QFAIL("no error");
    } catch (const Error& e) {
        qInfo("%s", qPrintable(e.message()));
        QVERIFY2(e.message().contains(path), qPrintable(e.message()));
        QVERIFY2(e.message().contains(words, Qt::CaseInsensitive), qPrintable(e.message()));
    }
}

// Opens, checks every page and reads everything the report reads.
void readAll(const QString& path)
{
    RunReader reader(path);
    reader.checkIntegrity();
    runReportJson(reader);
    for (const StoredResult& r : reader.results()) {
        reader.mask(r.sampleId, r.configId);
        reader.attention(r.sampleId, r.configId);
    }
}

// The blob of (sample key, config key) in `table`.`column`, read and written with plain
// SQLite: what a damaged disk or a hand edit does, behind KVLens's back.
QByteArray blobOf(const QString& path, const char* table, const char* column, const char* sampleKey,
                  const char* configKey)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt* st = nullptr;
    const QByteArray query =
        QStringLiteral("SELECT t.%1 FROM %2 t JOIN sample s ON s.id = t.sample_id JOIN config c "
                       "ON c.id = t.config_id WHERE s.sample_key = ? AND c.config_key = ?")
            .arg(QLatin1String(column), QLatin1String(table))
            .toUtf8();
    sqlite3_prepare_v2(db, query.constData(), -1, &st, nullptr);
    sqlite3_bind_text(st, 1, sampleKey, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, configKey, -1, SQLITE_TRANSIENT);
    QByteArray blob;
    if (sqlite3_step(st) == SQLITE_ROW)
        blob = QByteArray(static_cast<const char*>(sqlite3_column_blob(st, 0)),
                          sqlite3_column_bytes(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return blob;
}

void setBlob(const QString& path, const char* table, const char* column, const char* sampleKey,
             const char* configKey, const QByteArray& blob)
{
    sqlite3* db = nullptr;
    QCOMPARE_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    const QByteArray update =
        QStringLiteral("UPDATE %2 SET %1 = ? WHERE sample_id = (SELECT id FROM sample WHERE "
                       "sample_key = ?) AND config_id = (SELECT id FROM config WHERE "
                       "config_key = ?)")
            .arg(QLatin1String(column), QLatin1String(table))
            .toUtf8();
    QCOMPARE_EQ(sqlite3_prepare_v2(db, update.constData(), -1, &st, nullptr), SQLITE_OK);
    sqlite3_bind_blob(st, 1, blob.constData(), int(blob.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, sampleKey, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, configKey, -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    QCOMPARE_EQ(sqlite3_changes(db), 1);
    sqlite3_close(db);
    QCOMPARE_EQ(rc, SQLITE_DONE);
}

void overwrite(const QString& path, qint64 offset, qint64 count, char byte)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(offset));
    f.write(QByteArray(count, byte));
}
} // namespace

class TestRunFile : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

    // A real run file with some bulk (masks and attention), closed (WAL checkpointed).
    QString realRun(const char* name)
    {
        const QString file = path(name);
        RunWriter w(file);
        w.setRunInfo(runInfo());
        for (const ConfigRecord& c : handConfigs())
            w.addConfig(c);
        for (int i = 0; i < 40; ++i) {
            SampleRecord rec = handSample(i % 4);
            rec.sample.key = QStringLiteral("k%1").arg(i);
            for (ResultRecord& r : rec.results) {
                KeptMask m(4, 2, 300, true);
                for (std::size_t j = 0; j < m.kept.size(); j += 3 + std::size_t(i))
                    m.kept[j] = 0;
                r.mask = m;
                AttentionSummary a(4, 2, 300);
                for (std::size_t j = 0; j < a.weights.size(); ++j)
                    a.weights[j] = float((j * 7 + std::size_t(i)) % 97) / 97.0f;
                r.attention = a;
            }
            w.writeSample(rec);
        }
        return file;
    }

  private slots:
    void migratesVersionOne()
    {
        const QString file = path("v1.kvl");
        sql(file, kVersionOneFile);
        {
            RunReader reader(file); // read-only open upgrades through a short writer
            QCOMPARE(reader.schemaVersion(), RunSchema::kCurrentVersion);
            QCOMPARE(reader.runInfo().modelHash, QStringLiteral("h1"));
            const auto rows = reader.results();
            QCOMPARE(rows.size(), std::size_t(2));
            QCOMPARE(rows[1].record.answer, QStringLiteral("red"));
            QCOMPARE(rows[1].record.metrics.ecovSlot, 0.25);
            QCOMPARE(rows[1].record.signature, Signature::LowMappedCoverage);
            QVERIFY(!rows[1].record.kvBytes && !rows[1].record.ger); // v2 columns: null
            QCOMPARE(reader.signatures().size(), std::size_t(1));
            QVERIFY(reader.layerStatsByLayer().empty()); // v2 table exists, empty
        }
        {
            // The upgraded file takes v2 rows.
            RunWriter w(file);
            SampleInfo s;
            s.key = QStringLiteral("new/1");
            w.beginSample(s);
            ResultRecord r;
            r.configKey = QStringLiteral("SnapKV@0.5");
            r.kvBytes = 42;
            r.layers = {{0, 0.5, 1.0}};
            w.addResult(r);
            w.commitSample();
        }
        RunReader reader(file);
        QCOMPARE(reader.resultCount(), 3);
        QCOMPARE(reader.layerStatsByLayer().size(), std::size_t(1));
    }

    void migratesVersionOneOnWriterOpen()
    {
        const QString file = path("v1w.kvl");
        sql(file, kVersionOneFile);
        RunWriter w(file);
        QCOMPARE(w.configs().size(), std::size_t(2));
        QCOMPARE(w.completedSampleKeys(), QSet<QString>{QStringLiteral("old/1")});
    }

    void readOnlyOldFileSaysItCannotUpgrade()
    {
        if (geteuid() == 0)
            QSKIP("root can write read-only files");
        const QString file = path("v1ro.kvl");
        sql(file, kVersionOneFile);
        QFile::setPermissions(file, QFile::ReadOwner);
        expectError([&] { RunReader r(file); }, file, QStringLiteral("cannot be upgraded"));
    }

    void newerVersionIsRefused()
    {
        const QString file = path("newer.kvl");
        writeHandRun(file, {0});
        sql(file, "PRAGMA user_version = 7;");
        expectError([&] { RunReader r(file); }, file,
                    QStringLiteral("newer KVLens (schema version 7"));
        expectError([&] { RunWriter w(file); }, file, QStringLiteral("newer KVLens"));
    }

    // A run file whose user_version was damaged or edited: a version error before any
    // migration runs (it used to get SQLite's "table run already exists" or
    // "duplicate column name: GER" from a migration replayed over existing tables).
    void damagedVersionIsRefused_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("words");
        QTest::newRow("0") << 0 << "user_version is 0, but the tables are of schema version 4";
        QTest::newRow("-1") << -1 << "user_version is -1, but the tables are of schema version 4";
        QTest::newRow("1") << 1 << "user_version is 1, but the tables are of schema version 4";
        QTest::newRow("2") << 2 << "user_version is 2, but the tables are of schema version 4";
        QTest::newRow("3") << 3 << "user_version is 3, but the tables are of schema version 4";
    }
    void damagedVersionIsRefused()
    {
        QFETCH(int, version);
        QFETCH(QString, words);
        const QString file = m_dir.filePath(QStringLiteral("damaged-version%1.kvl").arg(version));
        writeHandRun(file, {0});
        sql(file, qPrintable(QStringLiteral("PRAGMA user_version = %1;").arg(version)));
        expectError([&] { RunReader r(file); }, file, words);
        expectError([&] { RunWriter w(file); }, file, words);
        expectError([&] { RunWriter w(file); }, file, QStringLiteral("schema versions 1 to 4"));
        // Nothing was migrated: restoring the header restores the file.
        sql(file, "PRAGMA user_version = 4;");
        QCOMPARE(RunReader(file).resultCount(), qint64(handSample(0).results.size()));
    }

    void foreignSqliteIsRefused()
    {
        const QString file = path("shop.db");
        sql(file, "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES "
                  "(1,'a');");
        expectError([&] { RunReader r(file); }, file, QStringLiteral("another application"));
        expectError([&] { RunWriter w(file); }, file, QStringLiteral("customers"));
        // Our table names but another application_id: still foreign.
        const QString other = path("other.db");
        sql(other, "PRAGMA application_id = 42; CREATE TABLE run (id INTEGER);");
        expectError([&] { RunReader r(other); }, other,
                    QStringLiteral("application_id 0x0000002a"));
    }

    void notSqliteEmptyOrMissing()
    {
        const QString text = path("notes.kvl");
        writeFileAtomically(text, "this is a text file, not a database\n");
        expectError([&] { RunReader r(text); }, text, QStringLiteral("not an SQLite database"));
        expectError([&] { RunWriter w(text); }, text, QStringLiteral("not an SQLite database"));
        const QString empty = path("empty.kvl");
        writeFileAtomically(empty, QByteArray());
        expectError([&] { RunReader r(empty); }, empty, QStringLiteral("empty file"));
        const QString missing = path("missing.kvl");
        expectError([&] { RunReader r(missing); }, missing, QStringLiteral("no such file"));
        expectError([&] { RunReader r(m_dir.path()); }, m_dir.path(), QStringLiteral("directory"));
    }

    void truncatedFile()
    {
        const QString file = realRun("trunc.kvl");
        const qint64 size = QFileInfo(file).size();
        QVERIFY(size > 64 * 1024);
        QVERIFY(!QFileInfo::exists(file + QStringLiteral("-wal"))); // checkpointed on close
        QVERIFY(QFile::resize(file, size / 2));
        expectError([&] { readAll(file); }, file, QStringLiteral("damaged file: truncated"));
        // Inside the header.
        QVERIFY(QFile::resize(file, 50));
        expectError([&] { readAll(file); }, file, QStringLiteral("damaged"));
    }

    void overwrittenHeader()
    {
        const QString file = realRun("header.kvl");
        overwrite(file, 0, 16, 'x');
        expectError([&] { readAll(file); }, file, QStringLiteral("not an SQLite database"));
    }

    void overwrittenSchemaPage()
    {
        const QString file = realRun("schema.kvl");
        overwrite(file, 100, 3996, char(0xA5)); // rest of page 1: the schema b-tree
        expectError([&] { readAll(file); }, file, QStringLiteral("damaged"));
    }

    void overwrittenDataPages()
    {
        const QString file = realRun("pages.kvl");
        const qint64 size = QFileInfo(file).size();
        // A run of garbage over a third of the pages after the first.
        overwrite(file, 4096, size / 3, char(0x5A));
        expectError([&] { readAll(file); }, file, QStringLiteral("damaged"));
    }

    void intactRealRunReads()
    {
        const QString file = realRun("ok.kvl");
        readAll(file);
        RunReader reader(file);
        QCOMPARE(reader.resultCount(), 160);
        const RowChecksums checked = reader.verifyRowChecksums();
        QCOMPARE(checked.verified, 160);
        QCOMPARE(checked.unverified, 0);
    }

    // Issue 18: values changed with plain SQL keep the file sound for SQLite
    // (quick_check passes) but are named as damage with their sample and configuration.
    void changedResultValueIsNamed_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("correct flipped") << "UPDATE result SET correct = 1 - correct";
        QTest::newRow("answer edited") << "UPDATE result SET answer = answer || 'x'";
        QTest::newRow("transition nulled") << "UPDATE result SET transition = NULL";
        QTest::newRow("integer for real") << "UPDATE result SET score = 1, correct = 1.0";
    }
    void changedResultValueIsNamed()
    {
        QFETCH(QString, change);
        const QString file = realRun(qPrintable(QStringLiteral("row-%1.kvl")
                                                    .arg(QTest::currentDataTag())
                                                    .replace(QLatin1Char(' '), QLatin1Char('-'))));
        sql(file,
            qPrintable(change + QStringLiteral(" WHERE sample_id = (SELECT id FROM sample WHERE "
                                               "sample_key = 'k5') AND config_id = (SELECT id FROM "
                                               "config WHERE config_key = 'SnapKV@0.5');")));
        RunReader reader(file);
        reader.checkIntegrity(); // SQLite sees nothing wrong
        expectError([&] { reader.verifyRowChecksums(); }, file,
                    QStringLiteral("sample 'k5' under configuration 'SnapKV@0.5'"));
        expectError([&] { reader.results(); }, file, QStringLiteral("sample 'k5'"));
        expectError([&] { readAll(file); }, file, QStringLiteral("damaged result row"));
        // Rows of other samples still read.
        ResultFilter other;
        other.sampleKey = QStringLiteral("k6");
        QCOMPARE(reader.results(other).size(), std::size_t(4));
    }

    void changedBlobIsNamed_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("column");
        QTest::addColumn<bool>("swap"); // another sample's valid blob, else one byte flipped
        QTest::newRow("mask swapped") << "mask"
                                      << "bits" << true;
        QTest::newRow("attention swapped") << "attention"
                                           << "weights" << true;
        QTest::newRow("mask byte") << "mask"
                                   << "bits" << false;
        QTest::newRow("attention byte") << "attention"
                                        << "weights" << false;
    }
    void changedBlobIsNamed()
    {
        QFETCH(QString, table);
        QFETCH(QString, column);
        QFETCH(bool, swap);
        const QString file =
            realRun(qPrintable(QStringLiteral("blob-%1.kvl")
                                   .arg(QString::fromLatin1(QTest::currentDataTag())
                                            .replace(QLatin1Char(' '), QLatin1Char('-')))));
        const QByteArray t = table.toLatin1(), c = column.toLatin1();
        QByteArray blob = blobOf(file, t, c, "k6", "TOVA@0.5");
        QVERIFY(!blob.isEmpty());
        if (swap) {
            // A blob that decodes to other figures: zlib and the size check accept it.
            blob = blobOf(file, t, c, "k7", "TOVA@0.5");
        } else {
            // The high byte of qCompress's size header: zlib still inflates the same
            // bytes, so only the checksum sees it.
            blob[0] = char(blob[0] ^ 0x01);
        }
        setBlob(file, t, c, "k6", "TOVA@0.5", blob);
        RunReader reader(file);
        reader.checkIntegrity();
        reader.verifyRowChecksums(); // the rows are intact
        ResultFilter f;
        f.sampleKey = QStringLiteral("k6");
        f.configKey = QStringLiteral("TOVA@0.5");
        const std::vector<StoredResult> rows = reader.results(f);
        QCOMPARE(rows.size(), std::size_t(1));
        const auto read = [&] {
            if (table == QLatin1String("mask"))
                reader.mask(rows[0].sampleId, rows[0].configId);
            else
                reader.attention(rows[0].sampleId, rows[0].configId);
        };
        expectError(read, file,
                    QStringLiteral("damaged %1 blob of sample 'k6' under configuration "
                                   "'TOVA@0.5'")
                        .arg(table));
    }

    // A file written before schema version 3 (the checksum columns dropped, stamped
    // version 2) is migrated on open, reads as before and is reported unverified;
    // rows written after the migration are verified.
    void versionTwoFileReadsUnverified()
    {
        const QString file = realRun("v2.kvl");
        sql(file, "ALTER TABLE result DROP COLUMN row_checksum;"
                  "ALTER TABLE mask DROP COLUMN checksum;"
                  "ALTER TABLE attention DROP COLUMN checksum;"
                  "DROP TABLE retrieval;"
                  "PRAGMA user_version = 2;");
        // A v2 file has no checksum to catch this: it reads, with the edited value.
        sql(file, "UPDATE result SET answer = 'edited' WHERE sample_id = 1 AND config_id = 1;");
        readAll(file);
        {
            RunReader reader(file);
            QCOMPARE(reader.schemaVersion(), RunSchema::kCurrentVersion);
            const RowChecksums checked = reader.verifyRowChecksums();
            QCOMPARE(checked.verified, 0);
            QCOMPARE(checked.unverified, 160);
            QCOMPARE(reader.results().front().record.answer, QStringLiteral("edited"));
        }
        {
            RunWriter w(file);
            SampleRecord rec = handSample(1);
            rec.sample.key = QStringLiteral("after-v3");
            w.writeSample(rec);
        }
        RunReader reader(file);
        const RowChecksums checked = reader.verifyRowChecksums();
        QCOMPARE(checked.verified, qint64(handSample(1).results.size()));
        QCOMPARE(checked.unverified, 160);
    }
};

QTEST_GUILESS_MAIN(TestRunFile)
#include "tst_runfile.moc"
