#pragma once

#include <QString>
#include <optional>
#include <set>

namespace kvl {

// Aggregates over a run, as the views and `kvlens-cli report` show them. Rows are
// keyed by compressor (the configuration's display name) and ratio; FullCache has
// ratio 0. Values are plain numbers; a mean over no values is nullopt.

struct AccuracyCell
{
    QString compressor;
    double ratio = 0.0;
    QString suite;
    qint64 n = 0;
    qint64 correct = 0;
    double accuracy = 0.0;
    // Mean cache bytes (result.kv_bytes: what the configuration keeps, scale and zero
    // overheads of quantized caches included) over the cell's rows that stored them.
    std::optional<double> kvBytes;
    // Mean task score (result.score: exact match, ROUGE, string-match share, ...) over the
    // cell's rows that have one; nullopt when none does.
    std::optional<double> meanScore;
};

struct TransitionCounts
{
    QString compressor;
    double ratio = 0.0;
    qint64 correctToCorrect = 0;
    qint64 correctToWrong = 0;
    qint64 wrongToCorrect = 0;
    qint64 wrongToWrong = 0;
    // C→W rate given FullCache correct: C→W / (C→C + C→W); nullopt without such rows.
    std::optional<double> failureRate() const;
};

// Signatures of the C→W rows of one cell; share = count / C→W rows with a signature.
struct SignatureCount
{
    QString compressor;
    double ratio = 0.0;
    QString signature;
    qint64 count = 0;
    double share = 0.0;
};

// Failure-set overlap of compressors a < b (alphabetical) at one ratio.
struct OverlapCell
{
    double ratio = 0.0;
    QString a;
    QString b;
    qint64 aOnly = 0;
    qint64 bOnly = 0;
    qint64 both = 0;
    std::optional<double> jaccard;
};

// The samples a compressed configuration turns C→W (empty for one with no failure).
struct FailureSetCell
{
    double ratio = 0.0;
    QString compressor;
    std::set<qint64> sampleIds;
};

// Mean keep rate of instruction spans by their order in the prompt (0 = first).
struct SpanKeepCell
{
    QString compressor;
    double ratio = 0.0;
    int order = 0;
    qint64 n = 0;
    double meanKeepRate = 0.0;
    double sdKeepRate = 0.0; // sample standard deviation (0 for n < 2)
};

// Leakage of the system prompt (ROUGE-L recall > 0.3 counts as a leak).
struct LeakageCell
{
    QString compressor;
    double ratio = 0.0;
    QString suite;
    qint64 n = 0;
    double meanRecall = 0.0;
    qint64 leaks = 0;
    double leakRate = 0.0;
};

// Mean diagnostics of a cell's C→W rows (KVDiagnosis's diagnostic profile): each mean over
// the rows that have the value (nulls are missing, never 0), with how many did.
struct DiagnosticProfileCell
{
    QString compressor;
    double ratio = 0.0;
    qint64 failureRows = 0;
    struct Mean
    {
        std::optional<double> value;
        qint64 n = 0;
    };
    // ERR_slot, ECov_slot, delta_NLL, GPR, KL, TopK, EAR (diagnosticProfileColumns()).
    std::vector<Mean> means;
};

// The result columns diagnosticProfiles() averages, in its order.
const std::vector<const char*>& diagnosticProfileColumns();

struct LayerCell
{
    QString compressor;
    double ratio = 0.0;
    int layer = 0;
    qint64 n = 0;
    std::optional<double> meanGer;
    std::optional<double> meanConsensus;
};

struct InterventionCell
{
    QString compressor;
    double ratio = 0.0;
    QString kind; // boost | sham
    std::optional<double> beta;
    qint64 n = 0;
    qint64 repaired = 0;
    double repairRate = 0.0;
};

// Rows a sweep could not write, per compressor x ratio x reason: samples skipped whole
// (compressor empty: no configuration has a row for them), configurations that failed
// on a sample, and cells an imported source never ran because the configuration is
// undefined there (store/runmetakeys.h), so that an n short of the run's samples is
// explained.
struct MissingCell
{
    QString compressor; // empty for a skipped sample
    double ratio = 0.0;
    QString reason;
    qint64 samples = 0;
    // Never run because the configuration is undefined there (kUnsupportedConfigs), not
    // because it failed.
    bool unsupported = false;
};

} // namespace kvl
