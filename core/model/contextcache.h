#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <functional>
#include <vector>

namespace kvl {

// What prefill keeps of one layer for the compressors and diagnostics. Entries are
// indexed by context position; a transform (quantization) may replace keys/values
// with rewritten tensors of the same shape.
struct LayerCache
{
    at::Tensor keys;        // [kv_heads, T, head_dim], post-RoPE (what attention uses)
    at::Tensor keysPreRope; // [kv_heads, T, head_dim], after q/k norm, before RoPE
    at::Tensor values;      // [kv_heads, T, head_dim]
    // Queries of the last W context rows, not yet scaled by 1/sqrt(head_dim); query head
    // h belongs to kv-head h / (heads / kv_heads).
    at::Tensor windowQueries;        // [heads, W, head_dim], post-RoPE
    at::Tensor windowQueriesPreRope; // [heads, W, head_dim]
    // Attention of PrefillOptions::attentionRows over the context, mean over each
    // GQA group: [kv_heads, R, T] (undefined when no rows were asked for).
    at::Tensor rowAttention;
    // H2O's score, accumulated inside prefill's attention blocks when asked for
    // (PrefillOptions::receivedAttention): the attention each entry received from the
    // context queries, divided by how many of them see it (T - j, causal), mean over the
    // GQA group: [kv_heads, T]. Undefined when not asked for.
    at::Tensor receivedAttention;
    // The attention layer's input (after the input RMSNorm) at every context position:
    // [T, hidden], when asked for (PrefillOptions::keepAttentionInputs). BlockPress
    // projects its blocks' window queries from it, as kvpress does.
    at::Tensor attentionInputs;
};

// The context prefilled once under the full cache. Copying it is cheap (tensors are
// shared); to rewrite K/V, copy it and assign new tensors.
struct ContextCache
{
    int64_t length = 0; // context tokens; the question continues at this position
    std::vector<LayerCache> layers;
    at::Tensor lastLogits; // [vocab], next-token logits after the last context token
};

// How the question/answer sees the context: an attention mask over context entries
// per (layer, kv-head), optionally with an additive logit bias (boost by log beta).
struct CacheEdit
{
    at::Tensor keptMask;  // bool [layers, kv_heads, T]; undefined = FullCache
    at::Tensor logitBias; // float [layers, kv_heads, T]; undefined = none
};

// Keys/values of the tokens processed after the context (question, answer so far),
// never masked. Starts empty; Transformer::extend appends.
struct Continuation
{
    std::vector<at::Tensor> keys;   // per layer [kv_heads, n, head_dim], post-RoPE
    std::vector<at::Tensor> values; // per layer [kv_heads, n, head_dim]
    int64_t length = 0;
};

struct PrefillOptions
{
    int window = 64; // last context queries kept per layer (SnapKV-style scorers)
    // Context rows whose attention over the context is kept (LayerCache::rowAttention).
    std::vector<int64_t> attentionRows;
    // Accumulate LayerCache::receivedAttention (ObservedAttention / H2O): one more pass
    // over each attention block instead of recomputing attention over all queries later.
    bool receivedAttention = false;
    // Keep LayerCache::attentionInputs (T x hidden floats per layer).
    bool keepAttentionInputs = false;
};

struct ExtendOptions
{
    bool allLogits = false;        // logits of every new token, else of the last one
    bool captureAttention = false; // attention of the new tokens over the context
    // Hand back the new tokens' queries and pre-RoPE keys (decode-time presses score the
    // cache with the recent queries, as kvpress's DecodingPress buffers them).
    bool keepQueries = false;
    // Offloaded decoding (issue 19): called in every layer once the new tokens' queries
    // are computed, with the layer and those queries [heads, n, head_dim] (post-RoPE, not
    // yet scaled); returns bool [kv_heads, n, T], the context entries each query row of
    // each kv-head attends to. The others get -inf in that layer's attention, on top of
    // the edit's mask and bias. Empty: the whole context (through the edit). extend()
    // only.
    std::function<at::Tensor(int layer, const at::Tensor& queries)> contextSelector;
};

struct ExtendResult
{
    at::Tensor logits; // [n, vocab] or [1, vocab]
    // [layers, kv_heads, n, T]: attention probability of each new token on each
    // context entry, mean over the GQA group (when captureAttention).
    at::Tensor contextAttention;
    // Per layer, when keepQueries: queries [heads, n, head_dim] post-RoPE and pre-RoPE
    // (not yet scaled), and the new keys before RoPE [kv_heads, n, head_dim].
    std::vector<at::Tensor> queries, queriesPreRope, keysPreRope;
};

} // namespace kvl
