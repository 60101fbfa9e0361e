// CaM's merge-before-evict step for one layer (see cammerge.h). Vectorised over the
// merge candidates: their windows are a [candidates, budget] table of kept entries.
#include "compressors/cammerge.h"

#include "cache/keptselection.h"

#include <torch/types.h>

namespace kvl {

CamMerge camMerge(const at::Tensor& scores, const at::Tensor& attention, const at::Tensor& values,
                  int64_t target, int64_t steps, int64_t budget, at::Generator& generator)
{
    const int64_t kvHeads = values.size(0), d = values.size(2);
    CamMerge out;
    // One selection per layer: the scores averaged over the kv-heads (kvpress mean over
    // dim 1), so every head keeps the same entries.
    const at::Tensor mean =
        torch::nan_to_num(scores.to(torch::kFloat).mean(0), -INFINITY, INFINITY, -INFINITY);
    const at::Tensor keptMask = bestK(mean, target);
    out.kept = keptMask.nonzero().flatten();
    const at::Tensor evicted = keptMask.logical_not().nonzero().flatten();
    out.values = values.clone();
    const int64_t take = std::min<int64_t>(steps, evicted.numel());
    if (take <= 0 || budget <= 0)
        return out;
    // The best-scored evicted entries, later positions first among equals: a stable
    // descending sort of the reversed list.
    const at::Tensor reversed = mean.index_select(0, evicted).flip(0);
    const at::Tensor order =
        std::get<1>(reversed.sort(/*stable=*/true, 0, /*descending=*/true)).narrow(0, 0, take);
    const at::Tensor merge =
        std::get<0>(evicted.index_select(0, evicted.numel() - 1 - order).sort());
    out.candidates = take;

    // Window slot: the first kept entry after the candidate, then the next budget - 1.
    const int64_t keptCount = out.kept.numel();
    const at::Tensor start = torch::searchsorted(out.kept, merge, /*out_int32=*/false,
                                                 /*right=*/true); // [c]
    const at::Tensor slot = start.unsqueeze(1) + torch::arange(budget, torch::kLong);
    const at::Tensor valid = slot < keptCount; // [c, B]
    const at::Tensor window = out.kept.index_select(0, slot.clamp_max(keptCount - 1).flatten())
                                  .view({take, budget}); // entry indices
    const at::Tensor width = valid.sum(1);               // [c]

    const at::Tensor a = attention.to(values.scalar_type());
    const at::Tensor windowSum =
        (a.index_select(1, window.flatten()).view({kvHeads, take, budget}) *
         valid.to(a.scalar_type()))
            .sum(-1);
    const at::Tensor windowMean = windowSum / width.clamp_min(1).to(a.scalar_type());
    at::Tensor p = a.index_select(1, merge) / windowMean; // [kv, c]
    p = torch::where(p.isnan(), torch::zeros_like(p), p);
    p = torch::where(p.isinf(), torch::ones_like(p), p);
    p = p.clamp(0.0, 1.0);
    const at::Tensor u = torch::rand({kvHeads, take}, generator, torch::kFloat);
    const at::Tensor success = u.to(p.scalar_type()) < p;
    out.merged = (success & (width > 0)).sum().item<int64_t>();

    // v_m * success / w added to every valid window slot of m.
    const at::Tensor weight =
        success.to(values.scalar_type()) / width.clamp_min(1).to(values.scalar_type()); // [kv, c]
    const at::Tensor share = values.index_select(1, merge) * weight.unsqueeze(-1); // [kv, c, d]
    const at::Tensor spread =
        (share.unsqueeze(2) * valid.to(values.scalar_type()).view({1, take, budget, 1}))
            .reshape({kvHeads, take * budget, d});
    out.values.index_add_(1, window.flatten(), spread);
    return out;
}

} // namespace kvl
