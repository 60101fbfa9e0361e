#pragma once

#include "diagnose/attentionsummary.h"
#include "model/answerdecoder.h"

#include <QJsonObject>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace kvl {

class Tokenizer;
class Transformer;
struct PreparedSample;

// How every configuration of a sweep answers.
struct AnswerSettings
{
    int maxNewTokens = 64;
    std::vector<int> stopIds;
    int topK = 10;
};

// One configuration's answer to one sample: the teacher-forced gold likelihood (with
// the per-step distributions and the question/answer attention the diagnostics
// compare), the greedy answer and its score.
struct AnswerRun
{
    AnswerScore gold;
    std::vector<std::vector<float>> stepLogProbs; // [A][vocab]
    AttentionSummary attention;                   // question + gold-answer queries, mean over rows
    Generation generation;
    QString answer;
    QJsonObject scoreJson; // scoreSample()'s object
    double score = 0.0;
    bool correct = false;
    double answerMs = 0.0;
};

// The stop ids of the tokenizer and the model's config, without duplicates.
std::vector<int> stopIdsOf(const Tokenizer& tokenizer, const std::vector<int>& configEos);

// Scores `prediction` by the sample's suite. Correct = a perfect score (exact match;
// every instruction rule kept and no leak; a Text2JSON score of 1).
void scorePrediction(const PreparedSample& sample, AnswerRun& run);

// A configuration's answer, in parts, so that a sweep answers many configurations of one
// sample together: beginAnswers() runs one batched gold pass for every edit and replays
// greedy decoding while it follows the gold answer; decodeLockstep() on `decode`
// finishes the decoding; finishAnswer() turns the ids into the scored answer.
struct PendingAnswer
{
    AnswerRun run;
    PendingDecode decode;
};
std::vector<PendingAnswer> beginAnswers(const Transformer& model, const PreparedSample& sample,
                                        const ContextCache& context,
                                        const std::vector<const CacheEdit*>& edits,
                                        const AnswerSettings& settings);
void finishAnswer(const Tokenizer& tokenizer, const PreparedSample& sample, AnswerRun& run);
// beginAnswers() of one configuration whose gold pass attends, row by row and layer by
// layer, to the context entries `selector` retrieves (offloading presses).
PendingAnswer
beginRetrievedAnswer(const Transformer& model, const PreparedSample& sample,
                     const ContextCache& context,
                     const std::function<at::Tensor(int, const at::Tensor&)>& selector,
                     const AnswerSettings& settings);
GenerateOptions generateOptionsOf(const AnswerSettings& settings);
// What every gold pass of a sweep keeps: distributions, top-k, context attention.
ScoreOptions goldScoreOptions(const AnswerSettings& settings);
// Puts a gold pass's fields in `run`: the likelihood, the per-step distributions and the
// summarized attention (the full attention tensor is not kept).
void setGoldPass(AnswerScore gold, AnswerRun& run);

// Greedy decoding and scoring only, no gold pass (kvlens-cli eval).
AnswerRun decodeSample(const Transformer& model, const Tokenizer& tokenizer,
                       const PreparedSample& sample, const ContextCache& context,
                       const CacheEdit& edit, const AnswerSettings& settings);

// Mean over the query rows of contextAttention [layers, kv_heads, rows, T].
AttentionSummary summarizeAttention(const at::Tensor& contextAttention);

} // namespace kvl
