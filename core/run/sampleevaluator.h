#pragma once

#include "cache/repeatprompts.h"
#include "run/answerrun.h"
#include "run/experimentspec.h"
#include "run/sweepconfig.h"
#include "store/runrecords.h"

#include <functional>
#include <optional>
#include <vector>

namespace kvl {

class ConfigAnswer;
class PromptFormat;
class Tokenizer;
class Transformer;
struct PreparedSample;

// Runs one sample through every configuration of a sweep: one prefill under the full
// cache, the FullCache answer, then for each press × ratio a compression of that same
// prefill, the answer under it, the row's diagnostics against FullCache and the
// interventions the spec selects. The configurations that only mask the shared context
// decode in lockstep, one batched step per token for all of them (decodeLockstep); how
// the other kinds answer (rewritten contexts, decode-time and offloading presses) is
// their ConfigAnswer's (run/configanswer.h). Produces the sample's rows for one store
// transaction.
class SampleEvaluator
{
  public:
    // `format`: the layout the samples were prepared with (null: the base layout), for
    // the presses that re-read the context (KVzip's repeat prompts).
    SampleEvaluator(const Transformer& model, const Tokenizer& tokenizer,
                    const ExperimentSpec& spec, std::vector<SweepConfig> configs,
                    const PromptFormat* format = nullptr);

    const ConfigRecord& fullConfig() const { return m_full; }
    const std::vector<SweepConfig>& configs() const { return m_configs; }

    // Throws kvl::Error when the sample cannot run on this model (too long for its
    // positions, no gold tokens); the message names the problem. Returns nullopt when
    // `cancelled` turns true between configurations (nothing of the sample is kept).
    std::optional<SampleRecord> evaluate(const PreparedSample& sample,
                                         const std::function<bool()>& cancelled = {}) const;

    // The decode limit for a sample: max_new_tokens, or the gold length + 16 (auto).
    int maxNewTokens(const PreparedSample& sample) const;
    // Throws kvl::Error when the sample's prompt plus answer exceed the model.
    void checkFits(const PreparedSample& sample) const;

  private:
    ResultRecord fullRow(const PreparedSample& sample, const AnswerRun& full,
                         double prefillMs) const;
    ResultRecord compressedRow(const PreparedSample& sample, const AnswerRun& full,
                               const ConfigAnswer& compressed,
                               const AnswerSettings& settings) const;
    // A re-answer with attention boosted (or a sham): the edit it answers under and the
    // row it belongs to.
    struct PlannedIntervention
    {
        InterventionRecord record;
        CacheEdit edit;
        const ContextCache* context = nullptr;
        size_t row = 0;
    };
    std::vector<PlannedIntervention> planInterventions(const PreparedSample& sample,
                                                       const ContextCache& context,
                                                       const CacheEdit& edit,
                                                       const ResultRecord& row, bool fullCorrect,
                                                       size_t rowIndex) const;
    void runInterventions(const PreparedSample& sample, std::vector<PlannedIntervention>& planned,
                          std::vector<ResultRecord>& rows, const AnswerSettings& settings) const;
    bool keepBlob(const QString& policy, bool fullCache, bool correct) const;

    const Transformer& m_model;
    const Tokenizer& m_tokenizer;
    const ExperimentSpec& m_spec;
    std::vector<SweepConfig> m_configs;
    ConfigRecord m_full;
    std::vector<int> m_stopIds;
    RepeatPrompts m_repeatPrompts;
};

// A deterministic 64-bit hash (FNV-1a of the UTF-8 text), the same on every platform:
// seeds of sham interventions.
quint64 stableHash(const QString& text);

} // namespace kvl
