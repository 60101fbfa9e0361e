#include "run/answerrun.h"

#include "model/transformer.h"
#include "run/preparedsample.h"
#include "tasks/samplescorer.h"
#include "tokenizer/tokenizer.h"

#include <torch/types.h>

#include <QElapsedTimer>
#include <algorithm>

namespace kvl {

std::vector<int> stopIdsOf(const Tokenizer& tokenizer, const std::vector<int>& configEos)
{
    std::vector<int> ids = tokenizer.stopIds();
    for (int id : configEos)
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    return ids;
}

void scorePrediction(const PreparedSample& sample, AnswerRun& run)
{
    run.scoreJson = scoreSample(sample.sample.suite, sample.sample, run.answer);
    run.score = run.scoreJson.value(QStringLiteral("score")).toDouble();
    run.correct =
        run.score >= 1.0 - 1e-9 && run.scoreJson.value(QStringLiteral("leak")).toInt(0) == 0;
}

AttentionSummary summarizeAttention(const at::Tensor& contextAttention)
{
    if (!contextAttention.defined() || contextAttention.dim() != 4)
        return {};
    const at::Tensor mean = contextAttention.to(at::kFloat).mean(2).contiguous();
    AttentionSummary s(int(mean.size(0)), int(mean.size(1)), int(mean.size(2)));
    std::copy_n(mean.data_ptr<float>(), mean.numel(), s.weights.begin());
    return s;
}

GenerateOptions generateOptionsOf(const AnswerSettings& settings)
{
    GenerateOptions options;
    options.maxNewTokens = settings.maxNewTokens;
    options.stopIds = settings.stopIds;
    return options;
}

void finishAnswer(const Tokenizer& tokenizer, const PreparedSample& sample, AnswerRun& run)
{
    run.answer = tokenizer.decode(run.generation.ids);
    scorePrediction(sample, run);
}

AnswerRun decodeSample(const Transformer& model, const Tokenizer& tokenizer,
                       const PreparedSample& sample, const ContextCache& context,
                       const CacheEdit& edit, const AnswerSettings& settings)
{
    QElapsedTimer timer;
    timer.start();
    AnswerRun run;
    run.generation =
        generateAnswer(model, context, edit, sample.ids.question, generateOptionsOf(settings));
    finishAnswer(tokenizer, sample, run);
    run.answerMs = double(timer.nsecsElapsed()) / 1e6;
    return run;
}

ScoreOptions goldScoreOptions(const AnswerSettings& settings)
{
    ScoreOptions options;
    options.fullDistributions = true;
    options.topK = settings.topK;
    options.captureAttention = true;
    return options;
}

void setGoldPass(AnswerScore gold, AnswerRun& run)
{
    run.gold = std::move(gold);
    run.attention = summarizeAttention(run.gold.contextAttention);
    run.gold.contextAttention = at::Tensor(); // summarized; the full tensor is not kept
    const at::Tensor lp = run.gold.logProbs.contiguous();
    const int64_t steps = lp.size(0), vocab = lp.size(1);
    run.stepLogProbs.resize(size_t(steps));
    for (int64_t i = 0; i < steps; ++i)
        run.stepLogProbs[size_t(i)].assign(lp.data_ptr<float>() + i * vocab,
                                           lp.data_ptr<float>() + (i + 1) * vocab);
}

namespace {

// The run's fields from a gold pass that also replayed greedy decoding.
void takeGoldPass(ScoredGeneration scored, AnswerRun& run)
{
    run.generation = std::move(scored.generation);
    setGoldPass(std::move(scored.gold), run);
}

} // namespace

std::vector<PendingAnswer> beginAnswers(const Transformer& model, const PreparedSample& sample,
                                        const ContextCache& context,
                                        const std::vector<const CacheEdit*>& edits,
                                        const AnswerSettings& settings)
{
    QElapsedTimer timer;
    timer.start();
    std::vector<PendingDecode> decodes;
    std::vector<ScoredGeneration> scored = scoreAndReplayEach(
        model, context, edits, sample.ids.question, sample.ids.answer, goldScoreOptions(settings),
        generateOptionsOf(settings), decodes);
    std::vector<PendingAnswer> pending(edits.size());
    for (size_t i = 0; i < edits.size(); ++i) {
        pending[i].decode = std::move(decodes[i]);
        takeGoldPass(std::move(scored[i]), pending[i].run);
    }
    // One batched pass: each row is charged an equal share.
    const double share = double(timer.nsecsElapsed()) / 1e6 / double(edits.size());
    for (PendingAnswer& p : pending)
        p.run.answerMs = share;
    return pending;
}

PendingAnswer
beginRetrievedAnswer(const Transformer& model, const PreparedSample& sample,
                     const ContextCache& context,
                     const std::function<at::Tensor(int, const at::Tensor&)>& selector,
                     const AnswerSettings& settings)
{
    QElapsedTimer timer;
    timer.start();
    ScoreOptions options = goldScoreOptions(settings);
    options.contextSelector = selector;
    PendingAnswer pending;
    takeGoldPass(scoreAndReplay(model, context, CacheEdit{}, sample.ids.question,
                                sample.ids.answer, options, generateOptionsOf(settings),
                                pending.decode),
                 pending.run);
    pending.run.answerMs = double(timer.nsecsElapsed()) / 1e6;
    return pending;
}

} // namespace kvl
