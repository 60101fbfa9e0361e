#pragma once

#include "model/contextcache.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <vector>

namespace kvl {

// Several configurations decoding after one shared context in lockstep, one token per
// row and step: each row sees the context through its own edit (kept mask and bias)
// and has its own continuation, possibly of a different length. The continuations
// live in padded buffers so that a step is a handful of batched ops, whatever the
// number of rows (Transformer::decodeStep).
struct DecodeBatch
{
    // Per layer [B, kv_heads, capacity, head_dim]; row b holds lengths[b] entries.
    std::vector<at::Tensor> keys, values;
    std::vector<int64_t> lengths;
    // Per layer [kv_heads, B, 1, context] additive context bias (0 kept, -inf dropped),
    // undefined when no row drops or biases anything (FullCache rows only).
    std::vector<at::Tensor> contextBias;

    int64_t rows() const { return int64_t(lengths.size()); }
    int64_t capacity() const { return keys.empty() ? 0 : keys.front().size(2); }

    // Rows from continuations (their K/V copied) and edits over `context`; room for
    // `extra` more tokens per row.
    static DecodeBatch build(const ContextCache& context, const std::vector<const CacheEdit*>& edits,
                             const std::vector<const Continuation*>& continuations, int64_t extra);
    // Keeps only `rows` (indices into the current rows, in order).
    void keepRows(const std::vector<int64_t>& rows);
};

// The additive bias [kv, 1, Tc] one layer of `edit` applies to context scores, or
// undefined for FullCache.
at::Tensor contextBiasOf(const CacheEdit& edit, int layer, int64_t kvHeads, int64_t tc);
// Those of several edits stacked, zeros for FullCache rows: [B, kv, 1, Tc]; undefined
// when every edit is FullCache.
at::Tensor contextBiasesOf(const std::vector<const CacheEdit*>& edits, int layer, int64_t kvHeads,
                           int64_t tc);

} // namespace kvl
