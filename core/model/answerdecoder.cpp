#include "model/answerdecoder.h"

#include "common/error.h"
#include "model/decodebatch.h"
#include "model/goldscore.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <algorithm>

namespace kvl {

// One greedy step from the next-token logits: records the token (or the reason to stop)
// in `gen` and returns the token to feed next, or -1 when decoding ends. `positions` is
// how many positions are in use before the token is fed.
int greedyStep(const at::Tensor& next, Generation& gen, const GenerateOptions& options,
               int64_t positions, int64_t limit)
{
    const int token = int(next.argmax().item<int64_t>());
    if (std::find(options.stopIds.begin(), options.stopIds.end(), token) !=
        options.stopIds.end()) {
        gen.stop = Generation::Stop::StopToken;
        gen.stopId = token;
        return -1;
    }
    gen.ids.push_back(token);
    if (int(gen.ids.size()) >= options.maxNewTokens) {
        gen.stop = Generation::Stop::MaxTokens;
        return -1;
    }
    if (positions + 1 > limit) {
        gen.stop = Generation::Stop::LengthLimit;
        return -1;
    }
    return token;
}

AnswerScore scoreFromLogits(const at::Tensor& logits, const std::vector<int>& answer,
                            const ScoreOptions& options)
{
    AnswerScore score;
    const at::Tensor logProbs = at::log_softmax(logits.to(at::kDouble), 1);
    const at::Tensor gold =
        at::tensor(std::vector<int64_t>(answer.begin(), answer.end()), at::kLong);
    const at::Tensor goldLogprobs = logProbs.gather(1, gold.unsqueeze(1)).squeeze(1);
    // Rank = number of candidates strictly more likely than the gold token.
    const at::Tensor ranks = (logProbs > goldLogprobs.unsqueeze(1)).sum(1);
    for (int64_t i = 0; i < int64_t(answer.size()); ++i) {
        score.tokenLogprobs.push_back(goldLogprobs[i].item<double>());
        score.goldRanks.push_back(int(ranks[i].item<int64_t>()));
        score.nll -= score.tokenLogprobs.back();
    }
    if (options.fullDistributions)
        score.logProbs = logProbs.to(at::kFloat);
    if (options.topK > 0) {
        const int64_t k = std::min<int64_t>(options.topK, logProbs.size(1));
        auto [values, indices] = logProbs.topk(k, 1);
        score.topIds = indices;
        score.topLogprobs = values.to(at::kFloat);
    }
    return score;
}

namespace {

// Feeds `token` and decodes greedily on, one extend per token, until a stop; appends the
// context attention of every fed token to `attention` when the options capture it.
void decodeOn(const Transformer& model, const ContextCache& context, const CacheEdit& edit,
              Continuation& continuation, int token, const GenerateOptions& options,
              const ExtendOptions& extendOptions, Generation& gen,
              std::vector<at::Tensor>& attention)
{
    const int64_t limit = model.maxPositions();
    while (token >= 0) {
        const ExtendResult r = model.extend(context, edit, continuation, {token}, extendOptions);
        if (r.contextAttention.defined())
            attention.push_back(r.contextAttention);
        token = greedyStep(r.logits.select(0, 0), gen, options,
                           context.length + continuation.length, limit);
    }
}

// Cuts the continuation back to its first `length` tokens.
void truncate(Continuation& continuation, int64_t length)
{
    for (size_t l = 0; l < continuation.keys.size(); ++l) {
        continuation.keys[l] = continuation.keys[l].narrow(1, 0, length);
        continuation.values[l] = continuation.values[l].narrow(1, 0, length);
    }
    continuation.length = length;
}

} // namespace

AnswerScore scoreAnswer(const Transformer& model, const ContextCache& context,
                        const CacheEdit& edit, const std::vector<int>& question,
                        const std::vector<int>& answer, const ScoreOptions& options)
{
    if (answer.empty())
        throw Error(model.source(), QStringLiteral("the gold answer has no tokens"));
    // Feed the question and every answer token but the last; the logits of row
    // (Q - 1 + i) predict answer[i] (row -1 is the context's last logits).
    std::vector<int> feed = question;
    feed.insert(feed.end(), answer.begin(), answer.end() - 1);

    at::Tensor logits; // [A, vocab]
    at::Tensor attention;
    if (feed.empty()) {
        logits = context.lastLogits.unsqueeze(0);
    } else {
        Continuation continuation;
        ExtendOptions extendOptions;
        extendOptions.allLogits = true;
        extendOptions.captureAttention = options.captureAttention;
        extendOptions.contextSelector = options.contextSelector;
        ExtendResult r = model.extend(context, edit, continuation, feed, extendOptions);
        attention = r.contextAttention;
        logits = question.empty()
                     ? at::cat({context.lastLogits.unsqueeze(0), r.logits}, 0)
                     : r.logits.narrow(0, int64_t(question.size()) - 1, int64_t(answer.size()));
    }
    AnswerScore score = scoreFromLogits(logits, answer, options);
    score.contextAttention = attention;
    return score;
}

Generation generateAnswer(const Transformer& model, const ContextCache& context,
                          const CacheEdit& edit, const std::vector<int>& question,
                          const GenerateOptions& options)
{
    Generation gen;
    Continuation continuation;
    ExtendOptions extendOptions;
    extendOptions.captureAttention = options.captureAttention;
    std::vector<at::Tensor> attention;

    at::Tensor next; // [vocab] logits of the next token
    if (question.empty()) {
        next = context.lastLogits;
    } else {
        ExtendResult r = model.extend(context, edit, continuation, question, extendOptions);
        next = r.logits.select(0, 0);
        if (r.contextAttention.defined())
            attention.push_back(r.contextAttention);
    }
    const int first = greedyStep(next, gen, options, context.length + continuation.length,
                                 model.maxPositions());
    decodeOn(model, context, edit, continuation, first, options, extendOptions, gen, attention);
    if (!attention.empty())
        gen.contextAttention = at::cat(attention, 2);
    return gen;
}

namespace {

// question + answer: what a gold pass feeds.
std::vector<int> goldFeed(const Transformer& model, const std::vector<int>& question,
                          const std::vector<int>& answer)
{
    if (answer.empty())
        throw Error(model.source(), QStringLiteral("the gold answer has no tokens"));
    std::vector<int> feed = question;
    feed.insert(feed.end(), answer.begin(), answer.end());
    return feed;
}

// The gold score and the replayed decoding from one gold pass `r` whose K/V are in
// `pending.continuation`.
ScoredGeneration replayGoldPass(const Transformer& model, const ContextCache& context,
                                const ExtendResult& r, const std::vector<int>& question,
                                const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                                const GenerateOptions& generateOptions, PendingDecode& pending)
{
    const int64_t q = int64_t(question.size()), a = int64_t(answer.size());
    pending.token = -1;
    // rows[i] predicts what follows question + answer[<i], for i = 0 … A.
    const at::Tensor rows = q == 0 ? at::cat({context.lastLogits.unsqueeze(0), r.logits}, 0)
                                   : r.logits.narrow(0, q - 1, a + 1);

    ScoredGeneration out;
    out.gold = scoreFromLogits(rows.narrow(0, 0, a), answer, scoreOptions);
    // The gold pass's attention rows: the question and the answer fed back but the last.
    if (r.contextAttention.defined() && q + a - 1 > 0)
        out.gold.contextAttention = r.contextAttention.narrow(2, 0, q + a - 1);

    const int64_t limit = model.maxPositions();
    Generation& gen = out.generation;
    for (int64_t i = 0;; ++i) {
        ++out.replayedSteps;
        const int token = greedyStep(rows[i], gen, generateOptions, context.length + q + i, limit);
        if (token < 0)
            return out;
        if (i < a && token == answer[size_t(i)])
            continue; // the gold pass already fed this token: its next row is ready
        // Diverged from the gold answer (or ran past it): decoding goes on from here.
        truncate(pending.continuation, q + i);
        pending.token = token;
        return out;
    }
}

ExtendOptions goldPassOptions(const ScoreOptions& scoreOptions)
{
    ExtendOptions options;
    options.allLogits = true;
    options.captureAttention = scoreOptions.captureAttention;
    options.contextSelector = scoreOptions.contextSelector;
    return options;
}

} // namespace

ScoredGeneration scoreAndReplay(const Transformer& model, const ContextCache& context,
                                const CacheEdit& edit, const std::vector<int>& question,
                                const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                                const GenerateOptions& generateOptions, PendingDecode& pending)
{
    const std::vector<int> feed = goldFeed(model, question, answer);
    pending = PendingDecode{};
    const ExtendResult r =
        model.extend(context, edit, pending.continuation, feed, goldPassOptions(scoreOptions));
    return replayGoldPass(model, context, r, question, answer, scoreOptions, generateOptions,
                          pending);
}

std::vector<ScoredGeneration>
scoreAndReplayEach(const Transformer& model, const ContextCache& context,
                   const std::vector<const CacheEdit*>& edits, const std::vector<int>& question,
                   const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                   const GenerateOptions& generateOptions, std::vector<PendingDecode>& pending)
{
    const std::vector<int> feed = goldFeed(model, question, answer);
    std::vector<Continuation> continuations;
    const std::vector<ExtendResult> results =
        model.extendEach(context, edits, continuations, feed, goldPassOptions(scoreOptions));
    pending.assign(edits.size(), PendingDecode{});
    std::vector<ScoredGeneration> out;
    for (size_t i = 0; i < edits.size(); ++i) {
        pending[i].continuation = std::move(continuations[i]);
        out.push_back(replayGoldPass(model, context, results[i], question, answer, scoreOptions,
                                     generateOptions, pending[i]));
    }
    return out;
}

ScoredGeneration scoreAndGenerate(const Transformer& model, const ContextCache& context,
                                  const CacheEdit& edit, const std::vector<int>& question,
                                  const std::vector<int>& answer, const ScoreOptions& scoreOptions,
                                  const GenerateOptions& generateOptions)
{
    PendingDecode pending;
    ScoredGeneration out = scoreAndReplay(model, context, edit, question, answer, scoreOptions,
                                          generateOptions, pending);
    std::vector<at::Tensor> unused; // the generation's attention is not captured here
    decodeOn(model, context, edit, pending.continuation, pending.token, generateOptions,
             ExtendOptions{}, out.generation, unused);
    return out;
}

void decodeLockstep(const Transformer& model, const ContextCache& context,
                    const std::vector<LockstepRow>& rows, const GenerateOptions& options)
{
    std::vector<LockstepRow> active;
    for (const LockstepRow& row : rows)
        if (row.pending->token >= 0)
            active.push_back(row);
    if (active.empty())
        return;
    std::vector<const CacheEdit*> edits;
    std::vector<const Continuation*> continuations;
    int64_t room = 1;
    for (const LockstepRow& row : active) {
        edits.push_back(row.edit);
        continuations.push_back(&row.pending->continuation);
        // A row decodes at most its remaining new tokens (the step feeding the last
        // token included).
        room = std::max<int64_t>(room, options.maxNewTokens - int64_t(row.generation->ids.size()) + 1);
    }
    DecodeBatch batch = DecodeBatch::build(context, edits, continuations, room);
    const int64_t limit = model.maxPositions();
    while (!active.empty()) {
        std::vector<int> tokens;
        for (const LockstepRow& row : active)
            tokens.push_back(row.pending->token);
        const at::Tensor logits = model.decodeStep(context, batch, tokens);
        std::vector<int64_t> keep;
        std::vector<LockstepRow> still;
        for (size_t r = 0; r < active.size(); ++r) {
            const LockstepRow& row = active[r];
            const int token = greedyStep(logits[int64_t(r)], *row.generation, options,
                                         context.length + batch.lengths[r], limit);
            row.pending->token = token;
            if (token >= 0) {
                keep.push_back(int64_t(r));
                still.push_back(row);
            }
        }
        if (still.size() != active.size() && !still.empty())
            batch.keepRows(keep);
        active = std::move(still);
    }
}

std::vector<Generation> generateEach(const Transformer& model, const ContextCache& context,
                                     const std::vector<const CacheEdit*>& edits,
                                     const std::vector<int>& question,
                                     const GenerateOptions& options)
{
    std::vector<Generation> generations(edits.size());
    if (edits.empty())
        return generations;
    std::vector<PendingDecode> pending(edits.size());
    std::vector<at::Tensor> next(edits.size(), context.lastLogits);
    if (!question.empty()) {
        std::vector<Continuation> continuations;
        const std::vector<ExtendResult> results =
            model.extendEach(context, edits, continuations, question);
        for (size_t i = 0; i < edits.size(); ++i) {
            next[i] = results[i].logits.select(0, 0);
            pending[i].continuation = std::move(continuations[i]);
        }
    }
    std::vector<LockstepRow> rows;
    for (size_t i = 0; i < edits.size(); ++i) {
        pending[i].token = greedyStep(next[i], generations[i], options,
                                      context.length + pending[i].continuation.length,
                                      model.maxPositions());
        rows.push_back({edits[i], &pending[i], &generations[i]});
    }
    decodeLockstep(model, context, rows, options);
    return generations;
}

QString stopName(Generation::Stop stop)
{
    switch (stop) {
    case Generation::Stop::StopToken:
        return QStringLiteral("stop_token");
    case Generation::Stop::MaxTokens:
        return QStringLiteral("max_new_tokens");
    case Generation::Stop::LengthLimit:
        return QStringLiteral("length_limit");
    }
    return {};
}

} // namespace kvl
