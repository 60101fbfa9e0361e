#pragma once

#include "model/contextcache.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>

namespace kvl {

// Attention probabilities of the last `window` context queries over the context,
// exactly as prefill computed them: softmax(q k^T / sqrt(d)) with the causal mask,
// query head h reading kv-head h / group. [heads, window, T]. Throws kvl::Error
// naming `who` when prefill captured fewer window queries.
at::Tensor windowAttention(const LayerCache& layer, int64_t window, const QString& who);

// Mean over each GQA group: [heads, ...] -> [kv_heads, ...].
at::Tensor groupMean(const at::Tensor& perHead, int64_t kvHeads);
// [kv_heads, ...] -> [heads, ...] (kvpress repeat_kv).
at::Tensor repeatKv(const at::Tensor& perKvHead, int64_t heads);

} // namespace kvl
