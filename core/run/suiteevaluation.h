#pragma once

#include "tasks/promptformat.h"
#include "tasks/taskgenerator.h"

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace kvl {

class Tokenizer;
class Transformer;
struct AnswerRun;
struct Sample;

// Called with each scored sample and its greedy answer (eval --predictions).
using SampleAnswerSink = std::function<void(const Sample& sample, const AnswerRun& run)>;

// FullCache scores of one length bucket: context tokens in [minTokens, maxTokens].
struct LengthBucketScore
{
    int minTokens = 0;
    int maxTokens = 0;
    int n = 0;
    double score = 0.0; // mean task score
};

// `kvlens-cli eval`: a model's FullCache score on fresh samples of one suite, as the
// bundled model's card reports it (greedy decoding, the suite's scorer).
// FullCache scores of the samples of one variant (e.g. retrieval's "multivalue").
struct VariantScore
{
    QString variant;
    int n = 0;
    double score = 0.0; // mean task score
};

struct SuiteEvaluation
{
    QString suite;
    int n = 0;       // samples scored
    int skipped = 0; // too long for the model
    double score = 0.0;
    QJsonObject summary; // ScoreSummary: mean of every scorer field (rules, leak, ...)
    std::vector<LengthBucketScore> buckets;
    // The variants the samples drew, in the generator's order (one entry when --variant
    // fixes it): a suite's mean can hide one variant at 0.
    std::vector<VariantScore> variants;

    // {"suite", "n", "score", "skipped", "summary", "buckets": [{"tokens": "MIN:MAX",
    //  "n", "score"}], "variants": [{"variant", "n", "score"}]}
    QJsonObject toJson() const;
    // The summary's fields beyond the score itself (per-rule compliance, leak, ...), by
    // name: what the text and markdown outputs list under a suite.
    std::vector<std::pair<QString, double>> scorerFields() const;
};

// Generates n samples of `suite` for each entry of `lengths` (its token range and
// variant; sample i of an entry depends on (suite, seed, i, its options) only) and scores
// the greedy FullCache answers, pooled into one evaluation (with several entries a
// sample's id ends in "@MIN:MAX", so ids stay unique); maxNewTokens 0 = gold length
// + 16. Prompts are laid out as `format` says (a chat template, or the base layout).
// `progress(done, total)` after each sample; `answered` with each scored sample
// (not those too long for the model).
SuiteEvaluation evaluateSuite(const Transformer& model, const Tokenizer& tokenizer,
                              const QString& suite, int n, const std::vector<TaskOptions>& lengths,
                              std::uint64_t seed, int maxNewTokens = 0,
                              const std::function<void(int, int)>& progress = {},
                              const SampleAnswerSink& answered = {},
                              const PromptFormat& format = {});
inline SuiteEvaluation evaluateSuite(const Transformer& model, const Tokenizer& tokenizer,
                                     const QString& suite, int n, const TaskOptions& options,
                                     std::uint64_t seed, int maxNewTokens = 0,
                                     const std::function<void(int, int)>& progress = {})
{
    return evaluateSuite(model, tokenizer, suite, n, std::vector<TaskOptions>{options}, seed,
                         maxNewTokens, progress);
}

// The length bucket of a context of `tokens` tokens: powers of two, (2^k, 2^(k+1)]
// from 1-128 up.
std::pair<int, int> lengthBucketOf(int tokens);

} // namespace kvl
