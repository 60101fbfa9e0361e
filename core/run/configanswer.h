#pragma once

#include "cache/press.h"
#include "diagnose/keptmask.h"
#include "run/answerrun.h"
#include "run/sweepconfig.h"

#include <QString>
#include <memory>
#include <utility>
#include <vector>

namespace kvl {

class Tokenizer;
class Transformer;
struct PreparedSample;
struct ResultRecord;

// What every configuration of one sample answers from: the model, the sample, its
// prefill (the full context every press compresses) and how answers are decoded.
struct SamplePass
{
    const Transformer& model;
    const PreparedSample& sample;
    const ContextCache& prefill;
    const AnswerSettings& settings;
    GenerateOptions generate;
};

// One compressed configuration on one sample, from its compression to its row. A sweep
// has three kinds, one class each, because they answer differently:
// - prefill-time presses (the default): the compressed prefill answers like FullCache,
//   in the lockstep batch over the prefill when they only mask it, alone when they
//   rewrite it;
// - decode-time presses: the answer is decoded with the press cutting the cache as it
//   grows, and the gold answer replayed under the same schedule;
// - offloading presses: every forward attends to what the press's index retrieves.
// SampleEvaluator drives them through the same steps: compress(), beginAnswer() (the
// shared lockstep pass follows), decodeAlone() for the kinds that decode by their own
// loop, then the row (keptMask() and addToRow() add what the kind knows).
class ConfigAnswer
{
  public:
    // The one place a configuration's kind is read off its press.
    static std::unique_ptr<ConfigAnswer> create(const SweepConfig& config);
    virtual ~ConfigAnswer();

    const SweepConfig& config() const { return m_config; }

    // Compresses the prefill (`input` is built from it): sets `result` and `edit`.
    virtual void compress(const CompressionInput& input);
    // Starts the answer where it need not wait for the others. Returns the edit to add
    // to the lockstep batch over the prefill's own context, or nullptr when this
    // configuration answered (or will answer) otherwise.
    virtual const CacheEdit* beginAnswer(const SamplePass& pass);
    // The kinds that decode by their own loop after the shared passes.
    virtual bool decodesAlone() const { return false; }
    virtual void decodeAlone(const SamplePass& pass);
    // Interventions re-answer under `edit` with the shared decoder, which only the
    // prefill-time kind answers with.
    virtual bool takesInterventions() const { return !decodesAlone(); }

    // The context entries the row's diagnostics count as kept.
    virtual KeptMask keptMask(const PreparedSample& sample) const;
    // What the kind adds to its row (after the diagnostics, before the decisions).
    virtual void addToRow(ResultRecord& row, const PreparedSample& sample, const KeptMask& mask,
                          const Tokenizer& tokenizer, const Transformer& model) const;

    CompressionResult result;
    CacheEdit edit;
    double compressMs = 0.0;
    PendingAnswer answer;
    // Why this configuration has no row on the sample (its compression or its decoding
    // threw); empty while it runs.
    QString failure;

  protected:
    explicit ConfigAnswer(const SweepConfig& config) : m_config(config) {}

  private:
    const SweepConfig& m_config;
};

// Decodes the pending rows that see `context` in lockstep and charges each row an
// equal share of the batched time.
void decodeTogether(const Transformer& model, const ContextCache& context,
                    const std::vector<std::pair<const CacheEdit*, PendingAnswer*>>& rows,
                    const GenerateOptions& options);

} // namespace kvl
