#include "train/trainbatch.h"

#include "train/trainablellama.h"

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
    auto idsA = ids.accessor<int64_t, 2>();
    std::vector<int64_t> rows; // target (b, t) predicts ids[b][t + 1]: flat b * (T-1) + t
    TrainBatch batch;
    for (int64_t b = 0; b < B; ++b) {
        const auto& s = sequences[size_t(b)];
        for (size_t t = 0; t < s.ids.size(); ++t) {
            idsA[b][int64_t(t)] = s.ids[t];
            if (t > 0 && s.supervised[t])
                rows.push_back(b * (T - 1) + int64_t(t) - 1);
        }
        batch.tokens += int64_t(s.ids.size());
    }
    batch.targets = ids.narrow(1, 1, T - 1);
    batch.ids = ids;
    batch.rows = torch::tensor(rows, torch::kInt64);
    return batch;
}

std::pair<torch::Tensor, int64_t> supervisedLoss(const TrainableLlama& model,
                                                 const TrainBatch& batch)
{
    const auto hidden = model.finalHidden(batch.ids);
    const auto predicting = hidden.narrow(1, 0, hidden.size(1) - 1);
    const auto logits =
        model.logits(predicting.reshape({-1, hidden.size(-1)}).index_select(0, batch.rows));
    const auto targets = batch.targets.reshape({-1}).index_select(0, batch.rows);
    if (batch.rows.numel() == 0) // nothing supervised: a zero loss that still has a graph
        return {logits.sum() * 0.0, 0};
    const auto loss = torch::nn::functional::cross_entropy(logits, targets);
    const auto hits = (logits.argmax(-1) == targets).sum().item<int64_t>();
    return {loss, hits};
}

} // namespace kvl
