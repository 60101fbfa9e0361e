#include "model/answerdecoder.h"

#include "common/error.h"
#include "model/transformer.h"

#include <torch/torch.h>

#include <algorithm>

namespace kvl {

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

    AnswerScore score;
    at::Tensor logits; // [A, vocab]
    if (feed.empty()) {
        logits = context.lastLogits.unsqueeze(0);
    } else {
        Continuation continuation;
        ExtendOptions extendOptions;
        extendOptions.allLogits = true;
        extendOptions.captureAttention = options.captureAttention;
        ExtendResult r = model.extend(context, edit, continuation, feed, extendOptions);
        score.contextAttention = r.contextAttention;
        logits = question.empty()
                     ? at::cat({context.lastLogits.unsqueeze(0), r.logits}, 0)
                     : r.logits.narrow(0, int64_t(question.size()) - 1, int64_t(answer.size()));
    }

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
    const int64_t limit = model.maxPositions();
    while (true) {
        const int token = int(next.argmax().item<int64_t>());
        if (std::find(options.stopIds.begin(), options.stopIds.end(), token) !=
            options.stopIds.end()) {
            gen.stop = Generation::Stop::StopToken;
            gen.stopId = token;
            break;
        }
        gen.ids.push_back(token);
        if (int(gen.ids.size()) >= options.maxNewTokens) {
            gen.stop = Generation::Stop::MaxTokens;
            break;
        }
        if (context.length + continuation.length + 1 > limit) {
            gen.stop = Generation::Stop::LengthLimit;
            break;
        }
        ExtendResult r = model.extend(context, edit, continuation, {token}, extendOptions);
        next = r.logits.select(0, 0);
        if (r.contextAttention.defined())
            attention.push_back(r.contextAttention);
    }
    if (!attention.empty())
        gen.contextAttention = at::cat(attention, 2);
    return gen;
}

} // namespace kvl
