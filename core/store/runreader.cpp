#include "store/runreader.h"

#include "common/error.h"
#include "store/blobcodec.h"
#include "store/resultcolumns.h"
#include "store/runfile.h"
#include "store/runfilequeries.h"
#include "store/sqlitestatement.h"
#include "store/storechecksum.h"

namespace kvl {

namespace {
Error damagedBlobError(const QString& path, const char* table, const QString& sampleKey,
                       const QString& configKey)
{
    return Error(path, QStringLiteral("damaged %1 blob of sample '%2' under configuration '%3' "
                                      "(table %1: its checksum does not match the stored bytes, "
                                      "which changed after they were written)")
                           .arg(QLatin1String(table), sampleKey, configKey));
}

Error damagedRowError(const QString& path, const QString& sampleKey, const QString& configKey)
{
    return Error(path, QStringLiteral("damaged result row of sample '%1' under configuration '%2' "
                                      "(table result: its checksum does not match the stored "
                                      "values, which changed after they were written)")
                           .arg(sampleKey, configKey));
}
} // namespace

RunReader::RunReader(const QString& path) : m_db(openRunFile(path, SqliteDatabase::Mode::ReadOnly))
{
    // Read the file through a memory map rather than read() into SQLite's 2 MB page cache:
    // the overview's aggregates scan every result row, and each load opens a fresh
    // connection, so without it every load copies the whole table through system calls
    // (a 60,000-row run: ~50 MB, most of the time of the first queries). Safe with a
    // sweep writing: KVLens never shrinks a run file (no VACUUM, WAL checkpoints only
    // grow it), which is what SQLite's memory map cannot survive.
    m_db->exec(QStringLiteral("PRAGMA mmap_size = %1").arg(qint64(1) << 32));
    m_hasRetrievalTable = m_db->hasTable(QStringLiteral("retrieval"));
}

RunReader::~RunReader() = default;

const QString& RunReader::path() const
{
    return m_db->path();
}

QStringList RunReader::suites()
{
    QStringList names;
    SqliteStatement st =
        m_db->prepare(QStringLiteral("SELECT DISTINCT COALESCE(suite, '') FROM sample ORDER BY 1"));
    while (st.step())
        names << st.columnText(0);
    return names;
}

void RunReader::restrictToSuite(const QString& suite)
{
    const QStringList known = suites();
    if (!known.contains(suite))
        throw Error(path(), QStringLiteral("no suite '%1' in this run (its suites: %2)")
                                .arg(suite, known.join(QStringLiteral(", "))));
    // Temporary views named like the tables shadow them: SQLite resolves an unqualified
    // name in the temp schema first, so every query of this connection, the aggregates
    // included, reads the suite's rows only, with no WHERE clause added to each of them.
    QString quoted = suite;
    quoted.replace(QLatin1Char('\''), QLatin1String("''"));
    const QString inSuite =
        QStringLiteral("sample_id IN (SELECT id FROM main.sample WHERE COALESCE(suite, '') = '%1')")
            .arg(quoted);
    m_db->exec(QStringLiteral("CREATE TEMP VIEW sample AS SELECT * FROM main.sample WHERE "
                              "COALESCE(suite, '') = '%1'")
                   .arg(quoted));
    QStringList tables = {QStringLiteral("result"), QStringLiteral("mask"),
                          QStringLiteral("attention"), QStringLiteral("intervention")};
    if (m_hasRetrievalTable)
        tables << QStringLiteral("retrieval");
    for (const QString& table : tables)
        m_db->exec(QStringLiteral("CREATE TEMP VIEW %1 AS SELECT * FROM main.%1 WHERE %2")
                       .arg(table, inSuite));
    m_suiteScope = suite;
}

int RunReader::schemaVersion()
{
    return int(m_db->scalarInt(QStringLiteral("PRAGMA user_version")));
}

qint64 RunReader::dataVersion()
{
    return m_db->scalarInt(QStringLiteral("PRAGMA data_version"));
}

void RunReader::checkIntegrity()
{
    SqliteStatement st = m_db->prepare(QStringLiteral("PRAGMA quick_check"));
    QStringList problems;
    while (st.step()) {
        const QString line = st.columnText(0);
        if (line != QLatin1String("ok"))
            problems << line;
    }
    if (!problems.isEmpty())
        throw Error(
            path(),
            QStringLiteral("damaged file (%1)").arg(problems.mid(0, 3).join(QLatin1String("; "))));
}

RowChecksums RunReader::verifyRowChecksums()
{
    SqliteStatement st =
        m_db->prepare(QStringLiteral("SELECT s.sample_key, c.config_key, r.row_checksum IS NULL, "
                                     "r.row_checksum IS NOT NULL AND r.row_checksum <> %1 "
                                     "FROM result r LEFT JOIN sample s ON s.id = r.sample_id "
                                     "LEFT JOIN config c ON c.id = r.config_id")
                          .arg(resultChecksumSql(QStringLiteral("r"))));
    RowChecksums counts;
    while (st.step()) {
        if (st.columnInt(3) != 0)
            throw damagedRowError(path(), st.columnText(0), st.columnText(1));
        ++(st.columnInt(2) != 0 ? counts.unverified : counts.verified);
    }
    if (m_hasRetrievalTable) {
        SqliteStatement blobs = m_db->prepare(QStringLiteral(
            "SELECT t.shares, t.checksum, s.sample_key, c.config_key FROM retrieval t "
            "LEFT JOIN sample s ON s.id = t.sample_id LEFT JOIN config c ON c.id = t.config_id "
            "WHERE t.checksum IS NOT NULL"));
        while (blobs.step()) {
            if (blobs.columnInt(1) != blobChecksum(blobs.columnBlob(0)))
                throw damagedBlobError(path(), "retrieval", blobs.columnText(2),
                                       blobs.columnText(3));
            ++counts.retrievalVerified;
        }
    }
    return counts;
}

RunInfo RunReader::runInfo()
{
    return queryRunInfo(*m_db).value_or(RunInfo());
}

std::vector<ConfigRecord> RunReader::configs()
{
    return queryConfigs(*m_db, "compressor <> 'FullCache', compressor, ratio, id");
}

namespace {
// Prepares `sql`, whose two parameters are a sample id and a configuration id.
SqliteStatement prepareForRow(SqliteDatabase& db, const QString& sql, qint64 sampleId,
                              qint64 configId)
{
    SqliteStatement st = db.prepare(sql);
    st.bind(1, sampleId);
    st.bind(2, configId);
    return st;
}

// The blob of (sample, configuration) in a blob table (mask, attention), decoded
// with the dimensions stored beside it; a blob that does not decode is an error
// naming the run file.
template <typename Decoded>
std::optional<Decoded> decodedBlob(SqliteDatabase& db, const char* table, const char* blobColumn,
                                   qint64 sampleId, qint64 configId,
                                   Decoded (*decode)(const QByteArray&, int, int, int))
{
    SqliteStatement st = prepareForRow(
        db,
        QStringLiteral("SELECT t.layers, t.kv_heads, t.context_len, t.%1, t.checksum, "
                       "s.sample_key, c.config_key FROM %2 t "
                       "LEFT JOIN sample s ON s.id = t.sample_id "
                       "LEFT JOIN config c ON c.id = t.config_id "
                       "WHERE t.sample_id = ? AND t.config_id = ?")
            .arg(QLatin1String(blobColumn), QLatin1String(table)),
        sampleId, configId);
    if (!st.step())
        return std::nullopt;
    const QByteArray blob = st.columnBlob(3);
    // NULL: written before schema version 3, not verified.
    if (!st.isNull(4) && st.columnInt(4) != blobChecksum(blob))
        throw damagedBlobError(db.path(), table, st.columnText(5), st.columnText(6));
    try {
        return decode(blob, int(st.columnInt(0)), int(st.columnInt(1)), int(st.columnInt(2)));
    } catch (const Error& e) {
        throw Error(db.path(), QStringLiteral("%1 (sample '%2', configuration '%3')")
                                   .arg(e.message(), st.columnText(5), st.columnText(6)));
    }
}

const char* const kSampleColumns = "id, sample_key, suite, source_id, context_len, question_len, "
                                   "spans_json, gold, meta_json";

SampleInfo readSample(const SqliteStatement& st)
{
    SampleInfo s;
    s.id = st.columnInt(0);
    s.key = st.columnText(1);
    s.suite = st.columnText(2);
    s.sourceId = st.columnText(3);
    s.contextLen = int(st.columnInt(4));
    s.questionLen = int(st.columnInt(5));
    s.spans = jsonArrayFromText(st.columnText(6));
    s.gold = st.columnText(7);
    s.meta = jsonObjectFromText(st.columnText(8));
    return s;
}
} // namespace

std::vector<SampleInfo> RunReader::samples()
{
    std::vector<SampleInfo> list;
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT %1 FROM sample ORDER BY id").arg(QLatin1String(kSampleColumns)));
    while (st.step())
        list.push_back(readSample(st));
    return list;
}

QHash<QString, QJsonObject> RunReader::sampleMetas()
{
    QHash<QString, QJsonObject> metas;
    SqliteStatement st = m_db->prepare(QStringLiteral("SELECT sample_key, meta_json FROM sample"));
    while (st.step())
        metas.insert(st.columnText(0), jsonObjectFromText(st.columnText(1)));
    return metas;
}

QStringList RunReader::sampleKeys()
{
    QStringList keys;
    SqliteStatement st = m_db->prepare(QStringLiteral("SELECT sample_key FROM sample ORDER BY id"));
    while (st.step())
        keys << st.columnText(0);
    return keys;
}

QHash<QString, QString> RunReader::goldAnswers(const QString& suite)
{
    QHash<QString, QString> gold;
    SqliteStatement st =
        m_db->prepare(QStringLiteral("SELECT sample_key, gold FROM sample WHERE suite = ?"));
    st.bind(1, suite);
    while (st.step())
        gold.insert(st.columnText(0), st.columnText(1));
    return gold;
}

std::optional<SampleInfo> RunReader::sample(const QString& sampleKey)
{
    SqliteStatement st = m_db->prepare(QStringLiteral("SELECT %1 FROM sample WHERE sample_key = ?")
                                           .arg(QLatin1String(kSampleColumns)));
    st.bind(1, sampleKey);
    if (!st.step())
        return std::nullopt;
    return readSample(st);
}

qint64 RunReader::sampleCount()
{
    return m_db->scalarInt(QStringLiteral("SELECT COUNT(*) FROM sample"));
}

qint64 RunReader::resultCount()
{
    return m_db->scalarInt(QStringLiteral("SELECT COUNT(*) FROM result"));
}

QSet<QString> RunReader::completedSampleKeys()
{
    return queryCompletedSampleKeys(*m_db);
}

std::vector<std::pair<QString, QString>> RunReader::completedResults()
{
    return queryCompletedResults(*m_db);
}

std::vector<StoredResult> RunReader::results(const ResultFilter& f)
{
    QStringList where;
    if (f.compressor)
        where << QStringLiteral("c.compressor = :compressor");
    if (f.ratio)
        where << QStringLiteral("abs(c.ratio - :ratio) < 1e-9");
    if (f.configKey)
        where << QStringLiteral("c.config_key = :config");
    if (f.suite)
        where << QStringLiteral("s.suite = :suite");
    if (f.sampleKey)
        where << QStringLiteral("s.sample_key = :sample");
    if (f.transition)
        where << QStringLiteral("r.transition = :transition");
    if (f.signature)
        where << QStringLiteral("r.signature = :signature");
    if (f.correct)
        where << QStringLiteral("r.correct = :correct");
    QStringList values;
    for (const QString& c : resultValueColumns())
        values << QStringLiteral("r.") + c;
    const QString sql =
        QStringLiteral("SELECT r.sample_id, r.config_id, s.sample_key, s.suite, c.compressor, "
                       "c.ratio, c.config_key, %1, "
                       "EXISTS (SELECT 1 FROM mask m WHERE m.sample_id = r.sample_id AND "
                       "m.config_id = r.config_id), "
                       "EXISTS (SELECT 1 FROM attention a WHERE a.sample_id = r.sample_id AND "
                       "a.config_id = r.config_id), "
                       "r.row_checksum IS NOT NULL AND r.row_checksum <> %5, %6 "
                       "FROM result r JOIN sample s ON s.id = r.sample_id "
                       "JOIN config c ON c.id = r.config_id %2 "
                       "ORDER BY r.sample_id, c.compressor <> 'FullCache', c.compressor, c.ratio "
                       "LIMIT %3 OFFSET %4")
            .arg(values.join(QLatin1String(", ")),
                 where.isEmpty() ? QString()
                                 : QStringLiteral("WHERE ") + where.join(QLatin1String(" AND ")))
            .arg(f.limit)
            .arg(f.offset)
            .arg(resultChecksumSql(QStringLiteral("r")),
                 m_hasRetrievalTable
                     ? QStringLiteral("EXISTS (SELECT 1 FROM retrieval t WHERE t.sample_id = "
                                      "r.sample_id AND t.config_id = r.config_id)")
                     : QStringLiteral("0"));
    SqliteStatement st = m_db->prepare(sql);
    // Named parameters: the index of each follows the order they appear in.
    int i = 1;
    if (f.compressor)
        st.bind(i++, *f.compressor);
    if (f.ratio)
        st.bind(i++, *f.ratio);
    if (f.configKey)
        st.bind(i++, *f.configKey);
    if (f.suite)
        st.bind(i++, *f.suite);
    if (f.sampleKey)
        st.bind(i++, *f.sampleKey);
    if (f.transition)
        st.bind(i++, transitionName(*f.transition));
    if (f.signature)
        st.bind(i++, signatureName(*f.signature));
    if (f.correct)
        st.bind(i++, qint64(*f.correct ? 1 : 0));

    std::vector<StoredResult> rows;
    const int valueCount = int(resultValueColumns().size());
    while (st.step()) {
        StoredResult row;
        row.sampleId = st.columnInt(0);
        row.configId = st.columnInt(1);
        row.sampleKey = st.columnText(2);
        row.suite = st.columnText(3);
        row.compressor = st.columnText(4);
        row.ratio = st.columnDouble(5);
        row.record.configKey = st.columnText(6);
        readResultValues(st, 7, row.record);
        row.hasMask = st.columnInt(7 + valueCount) != 0;
        row.hasAttention = st.columnInt(8 + valueCount) != 0;
        if (st.columnInt(9 + valueCount) != 0)
            throw damagedRowError(path(), row.sampleKey, row.record.configKey);
        row.hasRetrieval = st.columnInt(10 + valueCount) != 0;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<LayerStat> RunReader::layerStats(qint64 sampleId, qint64 configId)
{
    SqliteStatement st = prepareForRow(
        *m_db,
        QStringLiteral("SELECT layer_json FROM result WHERE sample_id = ? AND config_id = ?"),
        sampleId, configId);
    return st.step() ? layerStatsFromJson(st.columnText(0)) : std::vector<LayerStat>();
}

std::vector<SpanKeep> RunReader::spanKeeps(qint64 sampleId, qint64 configId)
{
    SqliteStatement st = prepareForRow(
        *m_db,
        QStringLiteral("SELECT span_keep_json FROM result WHERE sample_id = ? AND config_id = ?"),
        sampleId, configId);
    return st.step() ? spanKeepsFromJson(st.columnText(0)) : std::vector<SpanKeep>();
}

std::vector<InterventionRecord> RunReader::interventions(qint64 sampleId, qint64 configId)
{
    std::vector<InterventionRecord> list;
    SqliteStatement st =
        prepareForRow(*m_db,
                      QStringLiteral("SELECT kind, beta, answer, repaired FROM intervention "
                                     "WHERE sample_id = ? AND config_id = ? ORDER BY kind"),
                      sampleId, configId);
    while (st.step())
        list.push_back(
            {st.columnText(0), st.columnDouble(1), st.columnText(2), st.columnInt(3) != 0});
    return list;
}

std::optional<KeptMask> RunReader::mask(qint64 sampleId, qint64 configId)
{
    return decodedBlob(*m_db, "mask", "bits", sampleId, configId, decodeMask);
}

std::optional<AttentionSummary> RunReader::attention(qint64 sampleId, qint64 configId)
{
    return decodedBlob(*m_db, "attention", "weights", sampleId, configId, decodeAttention);
}

std::optional<RetrievalMap> RunReader::retrieval(qint64 sampleId, qint64 configId)
{
    if (!m_hasRetrievalTable)
        return std::nullopt;
    SqliteStatement st = prepareForRow(
        *m_db,
        QStringLiteral("SELECT t.steps, t.context_len, t.shares, t.checksum, s.sample_key, "
                       "c.config_key FROM retrieval t LEFT JOIN sample s ON s.id = t.sample_id "
                       "LEFT JOIN config c ON c.id = t.config_id "
                       "WHERE t.sample_id = ? AND t.config_id = ?"),
        sampleId, configId);
    if (!st.step())
        return std::nullopt;
    const QByteArray blob = st.columnBlob(2);
    if (!st.isNull(3) && st.columnInt(3) != blobChecksum(blob))
        throw damagedBlobError(path(), "retrieval", st.columnText(4), st.columnText(5));
    try {
        return decodeRetrieval(blob, st.columnInt(0), st.columnInt(1));
    } catch (const Error& e) {
        throw Error(path(), QStringLiteral("%1 (sample '%2', configuration '%3')")
                                .arg(e.message(), st.columnText(4), st.columnText(5)));
    }
}

std::optional<RetrievalMap> RunReader::retrieval(const QString& sampleKey, const QString& configKey)
{
    if (!m_hasRetrievalTable)
        return std::nullopt;
    SqliteStatement st =
        m_db->prepare(QStringLiteral("SELECT s.id, c.id FROM sample s, config c "
                                     "WHERE s.sample_key = ? AND c.config_key = ?"));
    st.bind(1, sampleKey);
    st.bind(2, configKey);
    if (!st.step())
        return std::nullopt;
    const qint64 sampleId = st.columnInt(0), configId = st.columnInt(1);
    return retrieval(sampleId, configId);
}

} // namespace kvl
