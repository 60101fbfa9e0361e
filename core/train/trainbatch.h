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

class TrainableLlama;

// Mean next-token cross-entropy over the supervised targets (differentiable), and how
// many of them the argmax predicts right. Logits are computed at those positions only.
std::pair<torch::Tensor, int64_t> supervisedLoss(const TrainableLlama& model,
                                                 const TrainBatch& batch);

} // namespace kvl
