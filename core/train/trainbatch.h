#pragma once

#include "train/trainsequence.h"

#include <torch/types.h>
#include <utility>
#include <vector>

namespace kvl {

// Training sequences padded into one batch, with the supervised targets shifted by one.
struct TrainBatch
{
    torch::Tensor ids;     // int64 [B, T]
    torch::Tensor targets; // int64 [B, T-1]: ids[:, 1:]
    torch::Tensor rows;    // int64 [N]: the supervised targets' flat indices in [B * (T-1)]
    int64_t tokens = 0;    // unpadded tokens
};

TrainBatch assembleBatch(const std::vector<TrainSequence>& sequences, int padId);

// The sequences in at most `maxGroups` batches of similar length (contiguous in length
// order, split where the fewest padded tokens result), each padded to its own longest.
// One batch of mixed lengths spends much of a step on padding and on its attention.
std::vector<TrainBatch> assembleLengthGroups(std::vector<TrainSequence> sequences, int padId,
                                             int maxGroups);

class TrainableLlama;

// Mean next-token cross-entropy over the supervised targets (differentiable), and how
// many of them the argmax predicts right. Logits are computed at those positions only.
std::pair<torch::Tensor, int64_t> supervisedLoss(const TrainableLlama& model,
                                                 const TrainBatch& batch);

struct StepLoss
{
    double loss = 0.0;      // mean cross-entropy over every group's supervised targets
    int64_t hits = 0;       // targets the argmax predicts right
    int64_t supervised = 0; // supervised targets
    int64_t tokens = 0;     // unpadded tokens
};

// Back-propagates the mean cross-entropy over all groups' supervised targets, one group
// at a time (its graph freed before the next is built): each group's mean is weighted
// by its share of the targets, so the gradients are those of the batch as one.
StepLoss backpropagateSupervisedLoss(const TrainableLlama& model,
                                     const std::vector<TrainBatch>& groups);

} // namespace kvl
