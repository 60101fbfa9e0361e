#pragma once

#include "store/interventiongroups.h"
#include "store/retrievalrows.h"
#include "store/runaggregates.h"
#include "store/runrecords.h"
#include "store/suiteoutcomes.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace kvl {

class SqliteDatabase;

// Which rows RunReader::results() returns; unset fields do not filter.
struct ResultFilter
{
    std::optional<QString> compressor;
    std::optional<double> ratio;
    std::optional<QString> configKey;
    std::optional<QString> suite;
    std::optional<QString> sampleKey;
    std::optional<Transition> transition;
    std::optional<Signature> signature;
    std::optional<bool> correct;
    int limit = -1; // -1: all
    int offset = 0;
};

// How many result rows RunReader::verifyRowChecksums() checked, and how many it could
// not (written before schema version 3, whose rows carry no checksum).
struct RowChecksums
{
    qint64 verified = 0;
    qint64 unverified = 0;
    // Retrieval maps (schema v4) checked alongside the rows: the report reads them.
    qint64 retrievalVerified = 0;
};

// Reads a run file, read-only: safe while a RunWriter in another process (or thread)
// writes it, each query sees the samples committed when it starts. Opening checks
// the file (see openRunFile) and throws kvl::Error naming the file and the problem;
// a query that meets a damaged page throws the same way. Not thread-safe: one reader
// per thread.
class RunReader
{
  public:
    explicit RunReader(const QString& path);
    ~RunReader();
    RunReader(const RunReader&) = delete;
    RunReader& operator=(const RunReader&) = delete;

    const QString& path() const;
    // Restricts every later query of this reader (rows, counts, aggregates, blobs) to the
    // samples of one suite: `report --suite`, since a release's figures are per dataset.
    // Throws kvl::Error naming the run's suites when it has no such suite.
    void restrictToSuite(const QString& suite);
    // The suite restrictToSuite() set; nullopt for the whole run.
    const std::optional<QString>& suiteScope() const { return m_suiteScope; }
    // The run's suites, sorted (an empty suite name included when samples lack one).
    QStringList suites();
    int schemaVersion();
    // Changes whenever another connection (the sweep writing the file) commits: poll
    // it to refresh views as rows land (SQLite's PRAGMA data_version).
    qint64 dataVersion();
    // Runs SQLite's quick_check over the whole file (O(size)); throws "damaged file".
    void checkIntegrity();
    // Recomputes every result row's checksum (store/storechecksum.h) and throws
    // kvl::Error naming the file, the sample and the configuration of the first row
    // whose stored values changed after they were written: damage that SQLite's
    // page checks cannot see. results() checks the rows it returns the same way;
    // mask() and attention() check their blob. Retrieval maps' blobs are checked here
    // too (and by retrieval()): they are small, and the report's figures read them.
    RowChecksums verifyRowChecksums();

    RunInfo runInfo(); // empty RunInfo when the writer has not written it yet
    std::vector<ConfigRecord> configs();
    std::vector<SampleInfo> samples();
    // The samples' keys in the order of samples(), without reading their contents.
    QStringList sampleKeys();
    // Sample key -> meta (skip reasons, failed configurations, input hashes), without the
    // samples' contexts and spans: what a resume or a merge checks.
    QHash<QString, QJsonObject> sampleMetas();
    // Sample key → gold answer of the samples of one suite.
    QHash<QString, QString> goldAnswers(const QString& suite);
    std::optional<SampleInfo> sample(const QString& sampleKey);
    qint64 sampleCount();
    qint64 resultCount();
    QSet<QString> completedSampleKeys();
    // (sample key, config key) of every stored row: what a resumed run skips.
    std::vector<std::pair<QString, QString>> completedResults();

    std::vector<StoredResult> results(const ResultFilter& filter = {});
    std::vector<LayerStat> layerStats(qint64 sampleId, qint64 configId);
    std::vector<SpanKeep> spanKeeps(qint64 sampleId, qint64 configId);
    std::vector<InterventionRecord> interventions(qint64 sampleId, qint64 configId);
    std::optional<KeptMask> mask(qint64 sampleId, qint64 configId);
    std::optional<AttentionSummary> attention(qint64 sampleId, qint64 configId);
    // The row's retrieval map (offloaded decoding); nullopt for other rows and for a
    // read-only file of schema v3, which has no retrieval table.
    std::optional<RetrievalMap> retrieval(qint64 sampleId, qint64 configId);
    std::optional<RetrievalMap> retrieval(const QString& sampleKey, const QString& configKey);
    // Rows of offloaded decoding and the FullCache rows of their samples, sorted by
    // compressor, ratio, sample (retrievalrows.cpp).
    std::vector<RetrievalRow> retrievalRows();
    // Whether the file has the retrieval table (schema v4 and later).
    bool hasRetrievalTable() const { return m_hasRetrievalTable; }

    // Aggregates (runaggregates.cpp), sorted by compressor (FullCache first), ratio, ...
    std::vector<AccuracyCell> accuracy();
    std::vector<TransitionCounts> transitions();
    std::vector<SignatureCount> signatures();
    // Over all compressed configurations (compressor and ratio left empty/0): the
    // taxonomy of SCIENCE.md's table.
    std::vector<SignatureCount> signatureTotals();
    std::vector<OverlapCell> failureOverlaps();
    // Each compressed configuration's C→W samples, by ratio then compressor.
    std::vector<FailureSetCell> failureSets();
    // Each compressed configuration's rows, scores, FullCache-correct pairs and C→W samples
    // per suite (suiteoutcomes.cpp), by compressor, ratio and suite: the outcome grids.
    std::vector<SuiteOutcomeCell> suiteOutcomes();
    std::vector<SpanKeepCell> spanKeepByOrder();
    // Mean diagnostics of every compressed cell's C→W rows (diagnosticProfileColumns()).
    std::vector<DiagnosticProfileCell> diagnosticProfiles();
    std::vector<LeakageCell> leakage();
    // Mean GER and consensus per (compressor, ratio, layer); of one compressor when given.
    std::vector<LayerCell> layerStatsByLayer(const std::optional<QString>& compressor = {});
    std::vector<InterventionCell> interventionRates();
    // By target group of the rows (interventiongroups.cpp): repair rates, and the rows
    // of each group with how many were re-answered.
    std::vector<InterventionGroupCell> interventionRatesByGroup();
    std::vector<InterventionGroupCount> interventionGroupCounts();
    // Skipped samples and failed configurations (missingrows.cpp), skipped samples first,
    // then by compressor, ratio and reason.
    std::vector<MissingCell> missingRows();

  private:
    std::unique_ptr<SqliteDatabase> m_db;
    bool m_hasRetrievalTable = false;
    std::optional<QString> m_suiteScope;
};

} // namespace kvl
