#pragma once

#include "model/contextcache.h"

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>

namespace kvl {

// Compactor's two query-agnostic scores (Chari & Van Durme 2025, arXiv:2507.08143), over
// the context entries [begin, end) of one layer; both z-normalised over the layer's
// kv-heads and entries, as kvpress does. [kv_heads, end - begin].

// Non-causal chunked attention (kvpress non_causal_attention_press.py): the context is
// cut into chunks of `chunk` (the last one padded); inside a chunk every query attends to
// every key, unscaled (softmax(q k^T)); a key's score is the attention summed over its
// chunk's queries, mean over the GQA group, times ||v||, avg-pooled (kernel 3, zero
// padding counted). Needs the post-RoPE queries of [begin, end) (windowQueries).
at::Tensor nonCausalAttentionScores(const LayerCache& layer, int64_t begin, int64_t end,
                                    int64_t chunk, const QString& who);

// Approximate statistical leverage of the pre-RoPE keys (kvpress leverage_press.py): keys
// centred over the sequence, sketched by a Gaussian [d, sketch] / sqrt(sketch) drawn from
// `gen`; score_i = x_i^T (X^T X)^-1 x_i by Cholesky (jitter 1e-2, x10 until it factors),
// clamped at 0.
at::Tensor leverageScores(const LayerCache& layer, int64_t begin, int64_t end, int sketch,
                          at::Generator& gen, const QString& who);

// (x - mean) / max(std, 1e-6) over every element (unbiased std, as torch's default).
at::Tensor zScore(const at::Tensor& x);

} // namespace kvl
