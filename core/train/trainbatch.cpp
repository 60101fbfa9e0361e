#include "train/trainbatch.h"

#include <algorithm>
#include <torch/torch.h>

namespace kvl {

TrainBatch assembleBatch(const std::vector<TrainSequence>& sequences, int padId)
{
    size_t longest = 0;
    for (const auto& s : sequences)
        longest = std::max(longest, s.ids.size());
    const int64_t B = int64_t(sequences.size()), T = int64_t(longest);
    auto ids = torch::full({B, T}, padId, torch::kInt64);
    auto weights = torch::zeros({B, T}, torch::kFloat32);
    auto idsA = ids.accessor<int64_t, 2>();
    auto wA = weights.accessor<float, 2>();
    TrainBatch batch;
    for (int64_t b = 0; b < B; ++b) {
        const auto& s = sequences[size_t(b)];
        for (size_t t = 0; t < s.ids.size(); ++t) {
            idsA[b][int64_t(t)] = s.ids[t];
            wA[b][int64_t(t)] = s.supervised[t] ? 1.0f : 0.0f;
        }
        batch.tokens += int64_t(s.ids.size());
    }
    batch.targets = ids.narrow(1, 1, T - 1);
    batch.weights = weights.narrow(1, 1, T - 1);
    batch.ids = ids;
    return batch;
}

std::pair<torch::Tensor, int64_t> supervisedLoss(const torch::Tensor& logits,
                                                 const TrainBatch& batch)
{
    const auto predicting = logits.narrow(1, 0, logits.size(1) - 1);
    const auto flat = predicting.reshape({-1, predicting.size(-1)});
    const auto nll = torch::nn::functional::cross_entropy(
        flat, batch.targets.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
    const auto w = batch.weights.reshape({-1});
    const auto loss = (nll * w).sum() / w.sum().clamp_min(1.0);
    const auto hits = ((flat.argmax(-1) == batch.targets.reshape({-1})).to(torch::kFloat32) * w)
                          .sum()
                          .item<double>();
    return {loss, int64_t(hits)};
}

} // namespace kvl
