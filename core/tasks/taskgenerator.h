#pragma once

#include "tasks/sample.h"

#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

namespace kvl {

class Rng;
class Tokenizer;

// What to generate: context lengths in tokens of the given tokenizer (the context
// alone, no special tokens), and a variant (empty: each sample draws one).
struct TaskOptions
{
    int minTokens = 256;
    int maxTokens = 512;
    QString variant;
};

// The length one sample aims at: `target` drawn uniformly in [min, max].
struct LengthRequest
{
    int target = 0;
    int minTokens = 0;
    int maxTokens = 0;
};

// Another question a sample's context answers, phrased as the suite phrases its own.
struct FollowUp
{
    QString question; // as Sample::question: "\nQuestion: ...\nAnswer:"
    QString answer;
};

// A seeded, deterministic generator of one task suite. Sample i of seed s depends on
// (suite, s, i) only, so a run of 10 samples is the prefix of a run of 100.
class TaskGenerator
{
  public:
    virtual ~TaskGenerator() = default;

    virtual QString suite() const = 0;
    virtual QString description() const = 0;
    virtual QStringList variants() const = 0;
    // The variants a sample draws from when none is asked. Default: all of them; a
    // suite may leave a newer variant out so that its earlier runs keep their bytes.
    virtual QStringList drawnVariants() const { return variants(); }
    virtual QString variantDescription(const QString& variant) const = 0;

    // Sample `index` of the run seeded with `seed`; id "<suite>-<seed>-<index>".
    // Throws kvl::Error for an unknown variant, a bad range, or a range the
    // sample cannot fit.
    Sample generate(const Tokenizer& tokenizer, const TaskOptions& options, std::uint64_t seed,
                    int index) const;
    std::vector<Sample> generateMany(const Tokenizer& tokenizer, const TaskOptions& options,
                                     std::uint64_t seed, int count) const;

    // The other questions `sample`'s context answers (never its own): the trainer
    // supervises several lookups per context instead of one (a random subset of them). Read from the
    // sample's spans, so it works on samples loaded from JSONL too. Default: none.
    virtual std::vector<FollowUp> followUps(const Sample& sample) const;

  protected:
    // Fills context, question, answer, spans and meta for one variant.
    virtual Sample generateVariant(const Tokenizer& tokenizer, const QString& variant,
                                   const LengthRequest& length, Rng& rng) const = 0;
};

// The registry: one generator per suite (retrieval, multihop, instructions,
// text2json), in that order.
std::vector<std::unique_ptr<TaskGenerator>> makeTaskGenerators();
// Throws kvl::Error naming the known suites when `suite` is not one.
std::unique_ptr<TaskGenerator> makeTaskGenerator(const QString& suite);
QStringList taskSuiteNames();

} // namespace kvl
