#include "store/runwriter.h"

#include "common/error.h"
#include "store/blobcodec.h"
#include "store/resultcolumns.h"
#include "store/runfile.h"
#include "store/runfilequeries.h"
#include "store/sqlitestatement.h"
#include "store/storechecksum.h"

#include <QDateTime>
#include <QJsonDocument>

namespace kvl {

namespace {
QString nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QString placeholders(int n)
{
    QStringList marks;
    for (int i = 0; i < n; ++i)
        marks << QStringLiteral("?");
    return marks.join(QLatin1Char(','));
}
} // namespace

QString ConfigRecord::makeKey(const QString& compressor, double ratio)
{
    return QStringLiteral("%1@%2").arg(compressor).arg(ratio, 0, 'g', 6);
}

// Prepared once per writer: a sweep writes tens of thousands of rows.
struct RunWriter::Statements
{
    SqliteStatement upsertSample;
    SqliteStatement insertResult;
    SqliteStatement stampResult;
    SqliteStatement insertMask;
    SqliteStatement insertAttention;
    SqliteStatement insertRetrieval;
    SqliteStatement insertIntervention;

    explicit Statements(SqliteDatabase& db)
        : upsertSample(db.prepare(QStringLiteral(
              "INSERT INTO sample(sample_key, suite, source_id, context_len, question_len, "
              "spans_json, gold, meta_json) VALUES (?,?,?,?,?,?,?,?) "
              "ON CONFLICT(sample_key) DO UPDATE SET suite=excluded.suite, "
              "source_id=excluded.source_id, context_len=excluded.context_len, "
              "question_len=excluded.question_len, spans_json=excluded.spans_json, "
              "gold=excluded.gold, meta_json=excluded.meta_json RETURNING id"))),
          insertResult(db.prepare(
              QStringLiteral(
                  "INSERT OR REPLACE INTO result(sample_id, config_id, %1) VALUES (?,?,%2)")
                  .arg(resultValueColumns().join(QLatin1Char(',')),
                       placeholders(int(resultValueColumns().size()))))),
          // The checksum over the row as SQLite stored it (after column affinity), in
          // the sample's transaction.
          stampResult(db.prepare(QStringLiteral("UPDATE result AS r SET row_checksum = %1 "
                                                "WHERE sample_id = ? AND config_id = ?")
                                     .arg(resultChecksumSql(QStringLiteral("r"))))),
          insertMask(db.prepare(QStringLiteral(
              "INSERT OR REPLACE INTO mask(sample_id, config_id, layers, kv_heads, context_len, "
              "bits, checksum) VALUES (?,?,?,?,?,?,?)"))),
          insertAttention(db.prepare(QStringLiteral(
              "INSERT OR REPLACE INTO attention(sample_id, config_id, layers, kv_heads, "
              "context_len, weights, checksum) VALUES (?,?,?,?,?,?,?)"))),
          insertRetrieval(db.prepare(QStringLiteral(
              "INSERT OR REPLACE INTO retrieval(sample_id, config_id, steps, context_len, "
              "shares, checksum) VALUES (?,?,?,?,?,?)"))),
          insertIntervention(db.prepare(QStringLiteral(
              "INSERT OR REPLACE INTO intervention(sample_id, config_id, kind, beta, answer, "
              "repaired) VALUES (?,?,?,?,?,?)")))
    {}
};

RunWriter::RunWriter(const QString& path)
    : m_db(openRunFile(path, SqliteDatabase::Mode::ReadWriteCreate)),
      m_st(std::make_unique<Statements>(*m_db))
{
    for (const ConfigRecord& c : configs()) {
        m_configIds.insert(c.key, c.id);
        m_configIsFull.insert(c.key, c.isFullCache());
    }
}

RunWriter::~RunWriter()
{
    if (m_inSample)
        m_db->rollbackQuietly();
    m_st.reset(); // statements before the connection
}

const QString& RunWriter::path() const
{
    return m_db->path();
}

std::optional<RunInfo> RunWriter::runInfo()
{
    return queryRunInfo(*m_db);
}

void RunWriter::setRunInfo(const RunInfo& info)
{
    const std::optional<RunInfo> old = runInfo();
    SqliteStatement st = m_db->prepare(QStringLiteral(
        "INSERT OR REPLACE INTO run(id, spec_json, model_name, model_hash, tool_version, status, "
        "created_at, updated_at) VALUES (1,?,?,?,?,?,?,?)"));
    st.bind(1, QString::fromUtf8(QJsonDocument(info.spec).toJson(QJsonDocument::Compact)));
    st.bind(2, info.modelName);
    st.bind(3, info.modelHash);
    st.bind(4, info.toolVersion);
    st.bind(5, info.status.isEmpty() ? QStringLiteral("running") : info.status);
    st.bind(6, old && !old->createdAt.isEmpty()
                   ? old->createdAt
                   : (info.createdAt.isEmpty() ? nowUtc() : info.createdAt));
    st.bind(7, info.updatedAt.isEmpty() ? nowUtc() : info.updatedAt);
    st.run();
}

void RunWriter::setStatus(const QString& status)
{
    SqliteStatement st =
        m_db->prepare(QStringLiteral("UPDATE run SET status = ?, updated_at = ? WHERE id = 1"));
    st.bind(1, status);
    st.bind(2, nowUtc());
    st.run();
}

qint64 RunWriter::addConfig(const ConfigRecord& config)
{
    const QString key =
        config.key.isEmpty() ? ConfigRecord::makeKey(config.compressor, config.ratio) : config.key;
    if (auto it = m_configIds.constFind(key); it != m_configIds.constEnd())
        return *it;
    SqliteStatement st = m_db->prepare(QStringLiteral(
        "INSERT INTO config(config_key, compressor, ratio, params_json) VALUES (?,?,?,?) "
        "ON CONFLICT(config_key) DO UPDATE SET compressor=excluded.compressor RETURNING id"));
    st.bind(1, key);
    st.bind(2, config.compressor);
    st.bind(3, config.ratio);
    st.bind(4, QString::fromUtf8(QJsonDocument(config.params).toJson(QJsonDocument::Compact)));
    st.step();
    const qint64 id = st.columnInt(0);
    st.reset();
    m_configIds.insert(key, id);
    m_configIsFull.insert(key, config.isFullCache());
    return id;
}

std::vector<ConfigRecord> RunWriter::configs()
{
    return queryConfigs(*m_db, "id");
}

QSet<QString> RunWriter::completedSampleKeys()
{
    return queryCompletedSampleKeys(*m_db);
}

QSet<std::pair<QString, QString>> RunWriter::completedResults()
{
    const std::vector<std::pair<QString, QString>> rows = queryCompletedResults(*m_db);
    return QSet<std::pair<QString, QString>>(rows.begin(), rows.end());
}

bool RunWriter::hasResult(const QString& sampleKey, const QString& configKey)
{
    SqliteStatement st = m_db->prepare(QStringLiteral(
        "SELECT 1 FROM result JOIN sample ON sample.id = result.sample_id JOIN config ON "
        "config.id = result.config_id WHERE sample_key = ? AND config_key = ?"));
    st.bind(1, sampleKey);
    st.bind(2, configKey);
    return st.step();
}

void RunWriter::beginSample(const SampleInfo& sample)
{
    if (m_inSample)
        throw Error(path(),
                    QStringLiteral("beginSample() while sample %1 is still open").arg(m_sampleId));
    if (sample.key.isEmpty())
        throw Error(path(), QStringLiteral("a sample needs a key"));
    m_db->exec(QStringLiteral("BEGIN IMMEDIATE"));
    m_inSample = true;
    try {
        SqliteStatement& st = m_st->upsertSample;
        st.bind(1, sample.key);
        st.bind(2, sample.suite);
        st.bind(3, sample.sourceId);
        st.bind(4, qint64(sample.contextLen));
        st.bind(5, qint64(sample.questionLen));
        st.bind(6, QString::fromUtf8(QJsonDocument(sample.spans).toJson(QJsonDocument::Compact)));
        st.bind(7, sample.gold);
        st.bind(8, jsonText(sample.meta));
        st.step();
        m_sampleId = st.columnInt(0);
        st.reset();
        // A sample revisited on resume (new configurations) keeps its FullCache row.
        SqliteStatement any =
            m_db->prepare(QStringLiteral("SELECT 1 FROM result WHERE sample_id = ? LIMIT 1"));
        any.bind(1, m_sampleId);
        m_sampleHadRows = any.step();
    } catch (...) {
        rollbackSample();
        throw;
    }
}

void RunWriter::addResult(const ResultRecord& input)
{
    if (!m_inSample)
        throw Error(path(), QStringLiteral("addResult() outside beginSample()/commitSample()"));
    const auto id = m_configIds.constFind(input.configKey);
    if (id == m_configIds.constEnd())
        throw Error(path(), QStringLiteral("configuration '%1' is not registered (addConfig)")
                                .arg(input.configKey));
    // The row is persisted as it comes: its transition and signature were decided by
    // the run (store/rowdecisions.h), never here.
    const ResultRecord& r = input;

    const qint64 sid = m_sampleId;
    const qint64 cid = *id;
    if (m_sampleHadRows) {
        // Replacing a row: drop its old blobs and interventions.
        for (const char* table : {"mask", "attention", "retrieval", "intervention"})
            m_db->exec(QStringLiteral("DELETE FROM %1 WHERE sample_id = %2 AND config_id = %3")
                           .arg(QLatin1String(table))
                           .arg(sid)
                           .arg(cid));
    }
    SqliteStatement& st = m_st->insertResult;
    st.bind(1, sid);
    st.bind(2, cid);
    bindResultValues(st, 3, r);
    st.run();
    m_st->stampResult.bind(1, sid);
    m_st->stampResult.bind(2, cid);
    m_st->stampResult.run();
    if (r.mask) {
        m_st->insertMask.bind(1, sid);
        m_st->insertMask.bind(2, cid);
        m_st->insertMask.bind(3, qint64(r.mask->layers));
        m_st->insertMask.bind(4, qint64(r.mask->kvHeads));
        m_st->insertMask.bind(5, qint64(r.mask->contextLen));
        const QByteArray bits = encodeMask(*r.mask);
        m_st->insertMask.bind(6, bits);
        m_st->insertMask.bind(7, blobChecksum(bits));
        m_st->insertMask.run();
    }
    if (r.attention) {
        m_st->insertAttention.bind(1, sid);
        m_st->insertAttention.bind(2, cid);
        m_st->insertAttention.bind(3, qint64(r.attention->layers));
        m_st->insertAttention.bind(4, qint64(r.attention->kvHeads));
        m_st->insertAttention.bind(5, qint64(r.attention->contextLen));
        const QByteArray weights = encodeAttention(*r.attention);
        m_st->insertAttention.bind(6, weights);
        m_st->insertAttention.bind(7, blobChecksum(weights));
        m_st->insertAttention.run();
    }
    if (r.retrieval) {
        QByteArray shares;
        try {
            shares = encodeRetrieval(*r.retrieval);
        } catch (const Error& e) {
            throw Error(path(),
                        QStringLiteral("%1 (configuration '%2')").arg(e.message(), r.configKey));
        }
        m_st->insertRetrieval.bind(1, sid);
        m_st->insertRetrieval.bind(2, cid);
        m_st->insertRetrieval.bind(3, qint64(r.retrieval->steps));
        m_st->insertRetrieval.bind(4, qint64(r.retrieval->contextLength));
        m_st->insertRetrieval.bind(5, shares);
        m_st->insertRetrieval.bind(6, blobChecksum(shares));
        m_st->insertRetrieval.run();
    }
    for (const InterventionRecord& i : r.interventions) {
        m_st->insertIntervention.bind(1, sid);
        m_st->insertIntervention.bind(2, cid);
        m_st->insertIntervention.bind(3, i.kind);
        m_st->insertIntervention.bind(4, i.beta);
        m_st->insertIntervention.bind(5, i.answer);
        m_st->insertIntervention.bind(6, qint64(i.repaired ? 1 : 0));
        m_st->insertIntervention.run();
    }
}

void RunWriter::commitSample()
{
    if (!m_inSample)
        throw Error(path(), QStringLiteral("commitSample() without beginSample()"));
    m_db->exec(QStringLiteral("COMMIT"));
    m_inSample = false;
}

void RunWriter::rollbackSample()
{
    m_db->rollbackQuietly();
    m_inSample = false;
}

void RunWriter::writeSample(const SampleRecord& record)
{
    beginSample(record.sample);
    try {
        // FullCache first, whatever order the caller used.
        for (const ResultRecord& r : record.results)
            if (m_configIsFull.value(r.configKey))
                addResult(r);
        for (const ResultRecord& r : record.results)
            if (!m_configIsFull.value(r.configKey))
                addResult(r);
        commitSample();
    } catch (...) {
        rollbackSample();
        throw;
    }
}

} // namespace kvl
