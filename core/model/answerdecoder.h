#pragma once

#include "model/contextcache.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <functional>
#include <vector>

namespace kvl {

class Transformer;

struct ScoreOptions
{
    bool fullDistributions = false; // keep log-softmax [A, vocab] (KL metrics)
    int topK = 10;                  // keep the top-k next-token candidates (0 = none)
    bool captureAttention = false;  // question/answer queries' attention over the context
    // Offloaded decoding's retrieval during the gold pass (ExtendOptions::contextSelector):
    // every row of the question and answer attends to the entries it selects. One edit at
    // a time (scoreAndReplay; scoreAndReplayEach refuses it).
    std::function<at::Tensor(int layer, const at::Tensor& queries)> contextSelector;
};

// Teacher-forced likelihood of a gold answer after the question.
struct AnswerScore
{
    std::vector<double> tokenLogprobs; // log p(answer[i] | context, question, answer[<i])
    double nll = 0.0;                  // -sum(tokenLogprobs)
    std::vector<int> goldRanks;        // rank of answer[i] among the candidates (0 = argmax)
    at::Tensor logProbs;               // [A, vocab] log-softmax (fullDistributions)
    at::Tensor topIds, topLogprobs;    // [A, k] int64 / float (topK > 0)
    // [layers, kv_heads, Q + A - 1, T]: rows are the question tokens then the answer
    // tokens fed back (all but the last), mean over each GQA group.
    at::Tensor contextAttention;
};

AnswerScore scoreAnswer(const Transformer& model, const ContextCache& context,
                        const CacheEdit& edit, const std::vector<int>& question,
                        const std::vector<int>& answer, const ScoreOptions& options = {});

struct GenerateOptions
{
    int maxNewTokens = 64;
    std::vector<int> stopIds;      // generation ends on any of these (not included)
    bool captureAttention = false; // attention of question and generated tokens
};

struct Generation
{
    enum class Stop
    {
        StopToken,
        MaxTokens,
        LengthLimit
    };
    std::vector<int> ids; // generated tokens, stop token excluded
    Stop stop = Stop::MaxTokens;
    int stopId = -1; // the stop token met (Stop::StopToken)
    // [layers, kv_heads, Q + fed, T]: question tokens then the generated tokens that were
    // fed back, mean over each GQA group (captureAttention).
    at::Tensor contextAttention;
};

// How a generation ended, as runs and the CLI record it: "stop_token", "max_new_tokens"
// or "length_limit".
QString stopName(Generation::Stop stop);

// One greedy step on `next` (the last position's logits): appends the argmax token to
// `gen` and returns it, or returns -1 with gen.stop set when it is a stop id, the answer
// reached options.maxNewTokens, or `positions` + 1 would pass `limit`. Every decoder
// (this file's, and compressors/compresseddecoding's decode-time compression) ends the
// same way through it.
int greedyStep(const at::Tensor& next, Generation& gen, const GenerateOptions& options,
               int64_t positions, int64_t limit);

// Greedy decoding after the question (positions continue from the context length).
Generation generateAnswer(const Transformer& model, const ContextCache& context,
                          const CacheEdit& edit, const std::vector<int>& question,
                          const GenerateOptions& options = {});

// The gold pass and greedy decoding of one configuration, sharing work: the gold
// answer is fed whole (question + answer, one extend), and greedy decoding replays the
// rows of that pass for as long as it follows the gold tokens. Only after the first
// divergence (or past the answer's end) does it extend token by token, from the
// continuation cut back to the divergence. Same results as scoreAnswer() followed by
// generateAnswer() (up to float rounding between batched and single-token rows); the
// generation's attention is not captured (GenerateOptions::captureAttention ignored).
struct ScoredGeneration
{
    AnswerScore gold;
    Generation generation;
    int replayedSteps = 0; // decoding steps read from the gold pass (no extend)
};

ScoredGeneration scoreAndGenerate(const Transformer& model, const ContextCache& context,
                                  const CacheEdit& edit, const std::vector<int>& question,
                                  const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                                  const GenerateOptions& generateOptions);

// Where greedy decoding stands after the replay of the gold pass: the token to feed
// next (-1 when decoding has ended) and the continuation before it.
struct PendingDecode
{
    Continuation continuation;
    int token = -1;
};

// scoreAndGenerate() up to the first divergence from the gold answer: the rest of the
// decoding is left in `pending` for decodeLockstep() (or scoreAndGenerate's own loop).
ScoredGeneration scoreAndReplay(const Transformer& model, const ContextCache& context,
                                const CacheEdit& edit, const std::vector<int>& question,
                                const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                                const GenerateOptions& generateOptions, PendingDecode& pending);

// scoreAndReplay() for several edits of one context in one batched gold pass
// (Transformer::extendEach); entry b equals scoreAndReplay() under *edits[b].
std::vector<ScoredGeneration>
scoreAndReplayEach(const Transformer& model, const ContextCache& context,
                   const std::vector<const CacheEdit*>& edits, const std::vector<int>& question,
                   const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                   const GenerateOptions& generateOptions, std::vector<PendingDecode>& pending);

// generateAnswer() under several edits of one context: one batched pass over the
// question (Transformer::extendEach), then lockstep decoding. Entry b equals
// generateAnswer(model, context, *edits[b], question, options) without attention.
std::vector<Generation> generateEach(const Transformer& model, const ContextCache& context,
                                     const std::vector<const CacheEdit*>& edits,
                                     const std::vector<int>& question,
                                     const GenerateOptions& options);

// One configuration still decoding after a shared context.
struct LockstepRow
{
    const CacheEdit* edit = nullptr;
    PendingDecode* pending = nullptr;
    Generation* generation = nullptr;
};

// Greedy decoding of every pending row in lockstep, one batched step per token
// (Transformer::decodeStep); rows leave the batch when they stop. Each row ends exactly
// as decoding it alone would (up to float rounding between batched and single rows).
void decodeLockstep(const Transformer& model, const ContextCache& context,
                    const std::vector<LockstepRow>& rows, const GenerateOptions& options);

} // namespace kvl
