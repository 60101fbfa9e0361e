#pragma once

#include "train/trainer.h"
#include "train/trainspec.h"

#include <QJsonObject>

namespace kvl {

class Tokenizer;

// `kvlens-cli bench --train`: forward and backward time of one stage's training steps,
// the batch padded to its longest sequence against the trainer's length groups (the same
// sequences, the same gradient), on fresh weights of the spec's shape.
struct TrainStepBenchmark
{
    QString stage;
    int steps = 0;
    int maxGroups = 0;
    int64_t tokens = 0;          // unpadded tokens over all steps
    int64_t paddedOneBatch = 0;  // positions computed with one batch per step
    int64_t paddedGroups = 0;    // ... with length groups
    double oneBatchSeconds = 0;  // forward + backward, summed over the steps
    double groupsSeconds = 0;
    double drawSeconds = 0;      // drawing the sequences (task generation, tokenization)

    QJsonObject toJson() const;
};

// Draws the sequences of `steps` steps of stage `stageName` as the trainer does at
// global steps firstStep, firstStep+1, ..., and times each both ways (alternating which
// goes first, so that machine noise falls on both).
TrainStepBenchmark benchmarkTrainSteps(const TrainSpec& spec, const QString& stageName,
                                       const Tokenizer& tokenizer, const TaskSequenceFn& tasks,
                                       int steps, int maxGroups);

} // namespace kvl
