#include "train/trainstepbenchmark.h"

#include "common/error.h"
#include "tokenizer/tokenizer.h"
#include "train/stepsequences.h"
#include "train/trainablellama.h"
#include "train/trainbatch.h"

#include <QElapsedTimer>
#include <torch/types.h>

namespace kvl {

QJsonObject TrainStepBenchmark::toJson() const
{
    auto rate = [this](double seconds) { return seconds > 0 ? double(tokens) / seconds : 0.0; };
    return {{QStringLiteral("stage"), stage},
            {QStringLiteral("steps"), steps},
            {QStringLiteral("max_groups"), maxGroups},
            {QStringLiteral("tokens"), double(tokens)},
            {QStringLiteral("padding_share_one_batch"),
             paddedOneBatch > 0 ? 1.0 - double(tokens) / double(paddedOneBatch) : 0.0},
            {QStringLiteral("padding_share_groups"),
             paddedGroups > 0 ? 1.0 - double(tokens) / double(paddedGroups) : 0.0},
            {QStringLiteral("one_batch_tokens_per_s"), rate(oneBatchSeconds)},
            {QStringLiteral("groups_tokens_per_s"), rate(groupsSeconds)},
            {QStringLiteral("speedup"), groupsSeconds > 0 ? oneBatchSeconds / groupsSeconds : 0.0},
            {QStringLiteral("draw_seconds_per_step"), steps > 0 ? drawSeconds / steps : 0.0},
            {QStringLiteral("groups_seconds_per_step"), steps > 0 ? groupsSeconds / steps : 0.0}};
}

namespace {
int64_t positions(const std::vector<TrainBatch>& batches)
{
    int64_t n = 0;
    for (const TrainBatch& b : batches)
        n += b.ids.numel();
    return n;
}

// Forward and backward of one step, gradients cleared before; seconds.
double timeStep(TrainableLlama& model, const std::vector<TrainBatch>& batches)
{
    for (auto& [name, p] : model.named())
        if (p.grad().defined())
            p.mutable_grad().zero_();
    QElapsedTimer clock;
    clock.start();
    backpropagateSupervisedLoss(model, batches);
    return double(clock.nsecsElapsed()) * 1e-9;
}
} // namespace

TrainStepBenchmark benchmarkTrainSteps(const TrainSpec& spec, const QString& stageName,
                                       const Tokenizer& tokenizer, const TaskSequenceFn& tasks,
                                       int steps, int maxGroups)
{
    int firstStep = 0;
    const TrainStage* stage = nullptr;
    QStringList names;
    for (const TrainStage& s : spec.stages) {
        names << s.name;
        if (s.name == stageName) {
            stage = &s;
            break;
        }
        firstStep += s.steps;
    }
    if (!stage)
        throw Error(QStringLiteral("--stage"), QStringLiteral("the spec has no stage '%1' (stages: %2)")
                                                   .arg(stageName, names.join(QStringLiteral(", "))));
    const std::vector<int> stops = tokenizer.stopIds();
    const int pad = stops.empty() ? 0 : stops.front();
    TrainableLlama model(spec.model.config(tokenizer.vocabSize(), tokenizer.bosId().value_or(0), stops),
                         spec.seed);
    const RecallSequences recall = recallSequencesFor(tokenizer, spec.seed);

    TrainStepBenchmark bench;
    bench.stage = stageName;
    bench.steps = steps;
    bench.maxGroups = maxGroups;
    for (int i = 0; i < steps; ++i) {
        Rng rng(Rng::derive(spec.seed, uint64_t(firstStep + i)));
        QElapsedTimer drawClock;
        drawClock.start();
        const std::vector<TrainSequence> sequences = drawStepSequences(*stage, recall, tasks, rng);
        bench.drawSeconds += double(drawClock.nsecsElapsed()) * 1e-9;
        const std::vector<TrainBatch> one{assembleBatch(sequences, pad)};
        const std::vector<TrainBatch> groups = assembleLengthGroups(sequences, pad, maxGroups);
        bench.tokens += one.front().tokens;
        bench.paddedOneBatch += positions(one);
        bench.paddedGroups += positions(groups);
        if (i % 2 == 0) {
            bench.oneBatchSeconds += timeStep(model, one);
            bench.groupsSeconds += timeStep(model, groups);
        } else {
            bench.groupsSeconds += timeStep(model, groups);
            bench.oneBatchSeconds += timeStep(model, one);
        }
    }
    return bench;
}

} // namespace kvl
