#pragma once

#include "run/experimentspec.h"
#include "run/preparedsample.h"
#include "run/sampleinputrecord.h"
#include "run/sampleplan.h"
#include "run/shard.h"
#include "run/sweepprogress.h"

#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <atomic>
#include <functional>
#include <optional>

namespace kvl {

class SampleEvaluator;

struct SweepOptions
{
    QString modelDir; // the resolved model directory (the spec may say "bundled")
    Shard shard;
    // Stop after running this many samples (0: no limit): a sweep cut short, as a
    // kill between two samples leaves it (tests, `--max-samples`).
    int maxSamples = 0;
    // Set (by a SIGINT/SIGTERM handler, or the GUI) to stop: the sample in flight is
    // dropped, every committed one stays.
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const SweepProgress&)> progress;
    QString toolVersion;
    // Discard a run file already at the output (and its WAL) and start a new one, where
    // resuming it would be refused (`run --force-new`).
    bool forceNew = false;
};

struct SweepSummary
{
    QString out;
    int total = 0;            // samples of this shard
    int done = 0;             // finished, resumed ones included
    int ran = 0;              // run by this invocation
    int resumed = 0;          // found finished in the run file
    int skipped = 0;          // could not run (reason stored with the sample)
    int configs = 0;          // compressed configurations
    bool finished = false;    // every sample of the shard is done
    bool interrupted = false; // stopped by cancel or maxSamples
    double seconds = 0.0;
    // Over every finished sample of the shard, resumed ones included.
    std::optional<double> fullAccuracy;
    std::optional<double> compressedAccuracy;

    QJsonObject toJson() const;
};

// Runs an experiment into a run file (store/runwriter.h): samples × (FullCache +
// compressors × ratios), one prefill per sample, one store transaction per sample.
// An existing run file resumes: its finished and skipped samples are not recomputed;
// it must hold the same spec (store/runspecdifference.h) and model.
// Before the run file records the spec, every sample still to run is laid out and
// checked against the model: a prompt the chat template cannot lay out, or a sample
// longer than the model's positions, stops the run there (kvl::Error naming the file,
// the sample, its token count and the limit), unless the spec's skip_too_long records
// too-long samples as skipped. A sample that cannot run for another reason (no gold
// tokens) is recorded with the reason in its meta ("skipped") and no rows; the sweep
// goes on. Stored attention is pooled to spec.store.attentionPositions columns
// (diagnose/attentionpooling.h).
// The spec's chat_template is resolved against the model directory and recorded in
// the run's spec as "chat_template_used"; a resumed run must resolve to the same one.
// Each sample records the hashes of what it was read and run with (kSampleInputs,
// run/sampleinputrecord.h); a resume whose samples read differently now (same ids,
// other texts, another tokenizer) is refused naming the first such sample and field.
class SweepRunner
{
  public:
    SweepRunner(ExperimentSpec spec, SweepOptions options);
    // Throws kvl::Error for a bad spec, model, dataset or run file (message names it).
    SweepSummary run(const QString& outPath);

  private:
    QString sourceName(const PlannedSample& planned) const; // the JSONL file or "suite NAME"
    void checkSamples(const std::vector<const PlannedSample*>& todo, const PromptFormat& format,
                      const Tokenizer& tokenizer, const SampleEvaluator& evaluator) const;
    PreparedSample prepareOrFail(const Sample& sample, const PlannedSample& planned,
                                 const PromptFormat& format, const Tokenizer& tokenizer) const;
    // `storedMeta`: sample key -> meta of the samples the run file holds.
    void checkResumedInputs(const QString& outPath, const std::vector<const PlannedSample*>& mine,
                            const QSet<QString>& finished,
                            const QHash<QString, QJsonObject>& storedMeta,
                            const Tokenizer& tokenizer, const RunInputHashes& hashes) const;

    ExperimentSpec m_spec;
    SweepOptions m_options;
};

} // namespace kvl
