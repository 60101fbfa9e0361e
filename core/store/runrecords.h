#pragma once

#include "diagnose/attentionsummary.h"
#include "diagnose/diagnosticrow.h"
#include "diagnose/keptmask.h"
#include "diagnose/retrievalmap.h"
#include "diagnose/signature.h"
#include "diagnose/transition.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace kvl {

// Plain records written to and read from a run file. They cross module boundaries
// (runner → store → views) and carry no SQL.

// The compressor name of the uncompressed baseline configuration.
inline const QString kFullCacheCompressor = QStringLiteral("FullCache");
// ROUGE-L recall of the system prompt above which a response counts as a leak.
inline constexpr double kLeakageThreshold = 0.3;

struct RunInfo
{
    QJsonObject spec; // the experiment spec as given (shard excluded: see mergeRuns)
    QString modelName;
    QString modelHash;
    QString toolVersion;
    QString status = QStringLiteral("running"); // running | finished | failed
    QString createdAt;                          // ISO 8601 UTC; filled by the writer when empty
    QString updatedAt;
};

struct ConfigRecord
{
    QString key;        // unique in the run; makeKey(compressor, ratio) by default
    QString compressor; // display name incl. distinguishing parameters, e.g. "SnapKV"
    double ratio = 0.0; // fraction removed (kvpress convention); 0 for FullCache
    QJsonObject params;
    qint64 id = 0; // filled by the store

    bool isFullCache() const { return compressor == kFullCacheCompressor; }
    static QString makeKey(const QString& compressor, double ratio);
};

struct SampleInfo
{
    QString key; // unique in the run (suite + source id, or the generator's id)
    QString suite;
    QString sourceId;
    int contextLen = 0;
    int questionLen = 0;
    // Spans over the context: [{"kind": "evidence"|"distractor"|"instruction"|...,
    // "start": s, "end": e (exclusive), "order": k (instructions)}, ...]
    QJsonArray spans;
    QString gold;
    QJsonObject meta;
    qint64 id = 0; // filled by the store
};

struct LayerStat
{
    int layer = 0;
    std::optional<double> ger;       // GER of this layer
    std::optional<double> consensus; // head consensus of this layer
};

struct SpanKeep
{
    int spanIndex = 0;                   // index into SampleInfo::spans
    QString kind;                        // "instruction", "evidence", ...
    std::optional<int> instructionOrder; // 0 = first instruction in the prompt
    std::optional<double> keepRate;
};

struct InterventionRecord
{
    QString kind; // "boost" or "sham"
    double beta = 4.0;
    QString answer;
    bool repaired = false;
};

struct Timings
{
    std::optional<double> prefillMs;
    std::optional<double> compressMs;
    std::optional<double> answerMs;
    std::optional<double> diagnoseMs;
};

// One row: a sample under one configuration.
struct ResultRecord
{
    QString configKey;
    QString answer;
    bool correct = false;
    std::optional<double> score; // task score (exact match 0/1, ROUGE, ...)
    // Filled by the writer from the sample's FullCache row when left empty (add the
    // FullCache result first); nullopt for FullCache itself.
    std::optional<Transition> transition;
    DiagnosticRow metrics; // ERR_slot, ECov_slot, DRR, delta_NLL, GPR, KL, TopK, ...
    // Filled by the writer with classifySignature() for C→W rows when left empty.
    std::optional<Signature> signature;
    std::optional<double> ger;     // over the model
    std::optional<double> leakage; // ROUGE-L recall of the system prompt
    QJsonObject compliance;        // per-rule compliance of instruction suites
    std::optional<double> text2json;
    std::optional<qint64> kvBytes;
    Timings timings;
    QJsonObject extra;
    std::vector<LayerStat> layers;
    std::vector<SpanKeep> spans;
    std::optional<KeptMask> mask;
    std::optional<AttentionSummary> attention;
    // Offloaded decoding only: which context positions each step retrieved (issue 19).
    // Not loaded with rows (RunReader::retrieval).
    std::optional<RetrievalMap> retrieval;
    std::vector<InterventionRecord> interventions;
};

struct SampleRecord
{
    SampleInfo sample;
    std::vector<ResultRecord> results;
};

// A result row as the reader returns it, with its sample and configuration. Masks
// and attention summaries are not loaded with rows (RunReader::mask/attention).
struct StoredResult
{
    qint64 sampleId = 0;
    qint64 configId = 0;
    QString sampleKey;
    QString suite;
    QString compressor;
    double ratio = 0.0;
    ResultRecord record;
    bool hasMask = false;
    bool hasAttention = false;
    bool hasRetrieval = false;
};

} // namespace kvl
