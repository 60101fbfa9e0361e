#include "compressors/subcache.h"

#include "model/rope.h"
#include "model/transformer.h"

#include <torch/types.h>

namespace kvl {
namespace {
at::Tensor gatherRows(const at::Tensor& x, const at::Tensor& index) // [H, T, d], [H, n]
{
    if (!x.defined())
        return x;
    // Whole rows by flat index: a row copy each, where gather would index every element.
    const int64_t heads = x.size(0), length = x.size(1);
    const at::Tensor flat = index + torch::arange(heads, torch::kLong).mul_(length).unsqueeze(1);
    return x.reshape({heads * length, x.size(2)})
        .index_select(0, flat.reshape(-1))
        .view({heads, index.size(1), x.size(2)});
}
} // namespace

ContextCache gatherEntries(const ContextCache& cache, const at::Tensor& index)
{
    ContextCache out;
    out.length = index.size(2);
    out.lastLogits = cache.lastLogits;
    for (size_t l = 0; l < cache.layers.size(); ++l) {
        const LayerCache& in = cache.layers[l];
        LayerCache layer;
        layer.keys = gatherRows(in.keys, index[int64_t(l)]);
        layer.keysPreRope = gatherRows(in.keysPreRope, index[int64_t(l)]);
        layer.values = gatherRows(in.values, index[int64_t(l)]);
        if (in.receivedAttention.defined())
            layer.receivedAttention = in.receivedAttention.gather(1, index[int64_t(l)]);
        layer.windowQueries = in.windowQueries;
        layer.windowQueriesPreRope = in.windowQueriesPreRope;
        out.layers.push_back(layer);
    }
    return out;
}

void setWindowQueriesOfBlock(ContextCache& sub, const CompressionInput& input,
                             const at::Tensor& index, int64_t window)
{
    const int64_t m = index.size(2);
    const int64_t w = std::min(window, m);
    if (w <= 0)
        return;
    const int64_t length = input.length();
    auto [cos, sin] = input.rope->cosSin(torch::arange(length - w, length, torch::kLong));
    for (size_t l = 0; l < sub.layers.size(); ++l) {
        const at::Tensor& h = input.cache->layers[l].attentionInputs; // [T, hidden]
        const int64_t kv = index.size(1), hidden = h.size(1);
        // [kv, T, hidden / kv]: head c's chunk of every position.
        const at::Tensor chunks = h.view({h.size(0), kv, hidden / kv}).permute({1, 0, 2});
        const at::Tensor rows =
            gatherRows(chunks.contiguous(), index[int64_t(l)].narrow(1, m - w, w)); // [kv, w, hc]
        const at::Tensor states = rows.permute({1, 0, 2}).reshape({w, hidden});
        const at::Tensor q =
            Transformer::projectQueries(*input.config, input.weights->layers[l], states);
        const at::Tensor qr = Rope::apply(q, cos, sin); // [w, heads, hd]
        sub.layers[l].windowQueriesPreRope = q.permute({1, 0, 2}).contiguous();
        sub.layers[l].windowQueries = qr.permute({1, 0, 2}).contiguous();
    }
}

at::Tensor keptPositions(const at::Tensor& kept)
{
    const at::Tensor counts = kept.sum(-1);
    const int64_t n = counts.min().item<int64_t>();
    if (n != counts.max().item<int64_t>())
        return {};
    // Stable sort puts kept (descending 1s) first in position order.
    const at::Tensor order =
        std::get<1>(kept.to(torch::kInt).sort(/*stable=*/true, -1, /*descending=*/true));
    return order.narrow(-1, 0, n).contiguous();
}

at::Tensor scatterMask(const at::Tensor& subMask, const at::Tensor& index, int64_t length)
{
    std::vector<int64_t> shape = index.sizes().vec();
    shape.back() = length;
    return torch::zeros(shape, torch::kBool).scatter_(-1, index, subMask.to(torch::kBool));
}

} // namespace kvl
