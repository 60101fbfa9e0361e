#pragma once

#include "run/experimentspec.h"
#include "store/storebenchmark.h"

#include <QJsonObject>
#include <optional>

namespace kvl {

class Tokenizer;
class Transformer;

// `kvlens-cli bench --sweep` (issue 4): what one prefill shared by C configurations
// costs. Per sample, the wall time of the whole sweep (FullCache + C compressed rows
// with diagnostics) over the FullCache pass alone (prefill + gold scoring + decoding);
// target ≤ 1 + 0.05·C (issue 36; issue 4's was 1 + 0.1·C): the configurations decode in
// lockstep, so each should cost a twentieth of the pass.
struct SweepBenchmark
{
    int samples = 0;
    int repeats = 1;           // runs per sample, best kept
    int configs = 0;           // C
    double fullPassMs = 0.0;   // mean per sample
    double sweepMs = 0.0;      // mean per sample
    double ratio = 0.0;        // sweepMs / fullPassMs
    double promptTokens = 0.0; // mean per sample: context and question
    double answerTokens = 0.0; // mean per sample: the gold answer's tokens
    double target = 0.0;       // 1 + 0.05·C
    std::optional<StoreWriteBenchmark> store;

    QJsonObject toJson() const;
};

// Times `samples` samples of the spec (first ones, in spec order) on a loaded model,
// interventions off (they run on a few rows only and would blur the figure). Each
// sample's two timings are the best of `repeats` runs: on a shared machine the minimum
// is the figure least disturbed by other processes.
SweepBenchmark benchmarkSweep(const Transformer& model, const Tokenizer& tokenizer,
                              const ExperimentSpec& spec, int samples, int repeats = 1);

// The same, plus the store's write rate on a synthetic run at `storePath` (a new
// file): 2,600 samples × 23 configurations = 59,800 rows, KVDiagnosis's size. Not
// when no sample fitted the model (samples == 0).
SweepBenchmark benchmarkSweepAndStore(const Transformer& model, const Tokenizer& tokenizer,
                                      const ExperimentSpec& spec, int samples, int repeats,
                                      const QString& storePath);

} // namespace kvl
