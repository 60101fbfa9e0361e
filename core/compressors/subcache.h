#pragma once

#include "cache/compressioninput.h"
#include "model/contextcache.h"

#include <ATen/core/Tensor.h>

namespace kvl {

// The context restricted to some entries of every (layer, kv-head): index int64
// [layers, kv_heads, n] of positions (sorted per head). Keys, pre-RoPE keys, values and
// received attention are gathered (an H2O score is the entry's own, whatever else is
// kept); window queries are kept as they are (they stay the last context queries), row
// attention is dropped. Presses that re-score a part of the context (BlockPress,
// ComposedPress) hand this to their inner scorer.
ContextCache gatherEntries(const ContextCache& cache, const at::Tensor& index);

// kvpress BlockPress's window queries for the block whose gathered entries are `index`
// [layers, kv_heads, m]: per kv-head, the attention inputs of its last `window` entries
// (hidden dims split into kv_heads chunks, chunk c gathered at head c's positions, as
// kvpress reshapes them), projected by q (bias, q-norm) and rotated at the context's
// last `window` positions. Sets `sub`'s window queries (pre-RoPE too). Needs
// input.weights, input.rope and LayerCache::attentionInputs.
void setWindowQueriesOfBlock(ContextCache& sub, const CompressionInput& input,
                             const at::Tensor& index, int64_t window);

// Positions of the kept entries when every head of every layer keeps the same number:
// kept bool [layers, kv_heads, T] -> int64 [layers, kv_heads, n], ascending; an
// undefined tensor when the counts differ.
at::Tensor keptPositions(const at::Tensor& kept);

// Scatters a mask over gathered entries back to context positions.
at::Tensor scatterMask(const at::Tensor& subMask, const at::Tensor& index, int64_t length);

} // namespace kvl
