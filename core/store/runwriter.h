#pragma once

#include "store/runrecords.h"

#include <QSet>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace kvl {

class SqliteDatabase;
class SqliteStatement;

// Writes a run file. Opens an existing file (migrating an older schema) or creates
// a new one. Every sample is one transaction: beginSample() opens it, addResult()
// writes rows into it, commitSample() makes the sample visible to readers at once.
// A crash or a kill before the commit loses that sample only; destroying the writer
// with a sample open rolls it back. Not thread-safe: one writer per file.
class RunWriter
{
  public:
    explicit RunWriter(const QString& path);
    ~RunWriter();
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    const QString& path() const;

    // Run metadata (one row). setRunInfo keeps the original createdAt.
    std::optional<RunInfo> runInfo();
    void setRunInfo(const RunInfo& info);
    void setStatus(const QString& status);

    // Registers a configuration (idempotent by key) and returns its id.
    qint64 addConfig(const ConfigRecord& config);
    std::vector<ConfigRecord> configs();

    // Resume: samples already committed, and whether one (sample, config) row exists.
    QSet<QString> completedSampleKeys();
    // (sample key, config key) of every stored row, for a resume that adds configurations.
    QSet<std::pair<QString, QString>> completedResults();
    bool hasResult(const QString& sampleKey, const QString& configKey);

    void beginSample(const SampleInfo& sample);
    // The configuration must be registered. The row is stored as given: its transition
    // and signature are the run's decisions (store/rowdecisions.h), not the store's.
    void addResult(const ResultRecord& result);
    void commitSample();
    void rollbackSample();
    bool inSample() const { return m_inSample; }

    // beginSample + addResult for each + commitSample.
    void writeSample(const SampleRecord& record);

  private:
    struct Statements;
    std::unique_ptr<SqliteDatabase> m_db;
    std::unique_ptr<Statements> m_st;
    QHash<QString, qint64> m_configIds;
    QHash<QString, bool> m_configIsFull;
    qint64 m_sampleId = 0;
    bool m_inSample = false;
    bool m_sampleHadRows = false;
};

} // namespace kvl
