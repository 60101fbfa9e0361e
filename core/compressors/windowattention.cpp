#include "compressors/windowattention.h"

#include "common/error.h"

#include <cmath>
#include <torch/torch.h>

namespace kvl {

at::Tensor groupMean(const at::Tensor& perHead, int64_t kvHeads)
{
    std::vector<int64_t> shape = perHead.sizes().vec();
    const int64_t group = shape[0] / kvHeads;
    shape[0] = group;
    shape.insert(shape.begin(), kvHeads);
    return perHead.reshape(shape).mean(1);
}

at::Tensor repeatKv(const at::Tensor& perKvHead, int64_t heads)
{
    return perKvHead.repeat_interleave(heads / perKvHead.size(0), 0);
}

namespace {

// Attention of query rows [heads, n, d] at absolute positions first..first+n-1.
at::Tensor rowsAttention(const at::Tensor& queries, const at::Tensor& keys, int64_t first)
{
    const int64_t length = keys.size(1);
    const int64_t n = queries.size(1);
    const at::Tensor k = repeatKv(keys, queries.size(0));
    at::Tensor logits = torch::matmul(queries, k.transpose(1, 2)) / std::sqrt(double(keys.size(2)));
    const at::Tensor pos = torch::arange(first, first + n, torch::kLong).unsqueeze(1);
    const at::Tensor future = torch::arange(length, torch::kLong).unsqueeze(0) > pos;
    logits = logits.masked_fill(future.unsqueeze(0), -INFINITY);
    return torch::softmax(logits, -1);
}

} // namespace

at::Tensor windowAttention(const LayerCache& layer, int64_t window, const QString& who)
{
    const int64_t stored = layer.windowQueries.defined() ? layer.windowQueries.size(1) : 0;
    if (stored < window)
        throw Error(who, QStringLiteral("needs the last %1 context queries but prefill captured "
                                        "%2 (raise PrefillOptions::window)")
                             .arg(window)
                             .arg(stored));
    const int64_t length = layer.keys.size(1);
    const at::Tensor q = layer.windowQueries.narrow(1, stored - window, window);
    return rowsAttention(q, layer.keys, length - window);
}

at::Tensor attentionReceived(const LayerCache& layer, at::Tensor* seen)
{
    const int64_t length = layer.keys.size(1);
    const int64_t stored = layer.windowQueries.size(1);
    const int64_t first = length - stored;
    at::Tensor sum = torch::zeros({layer.windowQueries.size(0), length});
    constexpr int64_t kRows = 256; // bounds the [heads, rows, T] block in memory
    for (int64_t r = 0; r < stored; r += kRows) {
        const int64_t n = std::min(kRows, stored - r);
        sum += rowsAttention(layer.windowQueries.narrow(1, r, n), layer.keys, first + r).sum(1);
    }
    if (seen) // query at position p sees key j <= p: count of captured p >= max(j, first)
        *seen = (length - torch::arange(length, torch::kDouble).clamp_min(double(first)))
                    .to(torch::kFloat);
    return sum;
}

} // namespace kvl
