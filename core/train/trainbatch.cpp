#include "train/trainbatch.h"

#include "train/trainablellama.h"

#include <algorithm>
#include <limits>
#include <torch/types.h>

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

std::vector<TrainBatch> assembleLengthGroups(std::vector<TrainSequence> sequences, int padId,
                                             int maxGroups)
{
    std::stable_sort(sequences.begin(), sequences.end(),
                     [](const TrainSequence& a, const TrainSequence& b) {
                         return a.ids.size() < b.ids.size();
                     });
    const size_t n = sequences.size();
    const size_t groups = std::clamp<size_t>(size_t(std::max(maxGroups, 1)), 1, std::max<size_t>(n, 1));
    // cost[k][j]: fewest padded positions for the first j sequences in k groups; a group
    // [i, j) pads every sequence to the length of sequence j-1 (the longest).
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    std::vector<std::vector<int64_t>> cost(groups + 1, std::vector<int64_t>(n + 1, kNone));
    std::vector<std::vector<size_t>> cut(groups + 1, std::vector<size_t>(n + 1, 0));
    cost[0][0] = 0;
    for (size_t k = 1; k <= groups; ++k)
        for (size_t j = 1; j <= n; ++j)
            for (size_t i = k - 1; i < j; ++i) {
                if (cost[k - 1][i] == kNone)
                    continue;
                const int64_t c =
                    cost[k - 1][i] + int64_t(j - i) * int64_t(sequences[j - 1].ids.size());
                if (c < cost[k][j]) {
                    cost[k][j] = c;
                    cut[k][j] = i;
                }
            }
    size_t best = 1; // fewest groups among the cheapest splits
    for (size_t k = 1; k <= groups; ++k)
        if (cost[k][n] < cost[best][n])
            best = k;
    std::vector<size_t> ends;
    for (size_t k = best, j = n; k > 0; j = cut[k][j], --k)
        ends.push_back(j);
    std::reverse(ends.begin(), ends.end());
    std::vector<TrainBatch> result;
    size_t begin = 0;
    for (size_t end : ends) {
        result.push_back(assembleBatch(
            std::vector<TrainSequence>(sequences.begin() + long(begin), sequences.begin() + long(end)),
            padId));
        begin = end;
    }
    return result;
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
    const auto loss = at::cross_entropy_loss(logits, targets); // F.cross_entropy, mean reduction
    const auto hits = (logits.argmax(-1) == targets).sum().item<int64_t>();
    return {loss, hits};
}

StepLoss backpropagateSupervisedLoss(const TrainableLlama& model,
                                     const std::vector<TrainBatch>& groups)
{
    StepLoss step;
    for (const TrainBatch& g : groups) {
        step.supervised += g.rows.numel();
        step.tokens += g.tokens;
    }
    for (const TrainBatch& g : groups) {
        if (step.supervised > 0 && g.rows.numel() == 0)
            continue; // adds nothing to the loss or its gradient
        const auto [loss, hits] = supervisedLoss(model, g);
        const double weight =
            step.supervised > 0 ? double(g.rows.numel()) / double(step.supervised) : 1.0;
        (loss * weight).backward();
        step.loss += loss.item<double>() * weight;
        step.hits += hits;
        if (step.supervised == 0)
            break; // one zero loss gives every parameter a (zero) gradient
    }
    return step;
}

} // namespace kvl
