#include "compressors/windowattention.h"

#include "common/error.h"

#include <cmath>
#include <torch/types.h>

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

at::Tensor windowAttention(const LayerCache& layer, int64_t window, const QString& who)
{
    const int64_t stored = layer.windowQueries.defined() ? layer.windowQueries.size(1) : 0;
    if (stored < window)
        throw Error(who, QStringLiteral("needs the last %1 context queries but prefill captured "
                                        "%2 (raise PrefillOptions::window)")
                             .arg(window)
                             .arg(stored));
    const at::Tensor& keys = layer.keys; // [kv, T, d]
    const int64_t kvHeads = keys.size(0), length = keys.size(1), d = keys.size(2);
    const int64_t heads = layer.windowQueries.size(0);
    if (window > length)
        throw Error(who, QStringLiteral("needs %1 context entries for its window, has %2")
                             .arg(window)
                             .arg(length));
    // Scaled before the product, as prefill's attention does; one product per kv-head
    // over its whole group (no repeat_kv copy of the keys).
    const at::Tensor q = layer.windowQueries.narrow(1, stored - window, window)
                             .mul(1.0 / std::sqrt(double(d)))
                             .reshape({kvHeads, heads / kvHeads * window, d});
    at::Tensor logits = torch::bmm(q, keys.transpose(1, 2)).view({heads, window, length});
    // Window row i sits at position T - W + i: only the last W keys can be in its future.
    if (window > 1)
        logits.narrow(2, length - window, window)
            .masked_fill_(torch::ones({window, window}, torch::kBool).triu(1), -INFINITY);
    return torch::softmax(logits, -1);
}

} // namespace kvl
