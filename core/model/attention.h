#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <vector>

namespace kvl {

// Inputs of one layer's attention. The queries are the last Tq of the Ts "self"
// tokens (causal among themselves); with a context segment, every query also sees all
// context entries, shifted by an additive bias (0 kept, -inf dropped, log beta
// boosted). With batch B > 1 the rows share the context K/V, each with its own bias
// (the sweep's configurations answering under their own masks).
struct AttentionInputs
{
    at::Tensor q;            // [B, kv_heads, group, Tq, head_dim], already scaled by 1/sqrt(hd)
    at::Tensor selfK, selfV; // [B, kv_heads, Ts, head_dim], Ts >= Tq
    at::Tensor ctxK, ctxV;   // [kv_heads, Tc, head_dim] or undefined
    // [kv_heads, 1, Tc] (B = 1) or [B, kv_heads, 1, Tc], or undefined. With B = 1 it may
    // also be [kv_heads, Tq, Tc]: one bias per query row (offloaded decoding, where each
    // row attends to the context entries it retrieved).
    at::Tensor ctxBias;
    // Query rows and keys per block: the scores held at any time are at most
    // group x blockRows x blockKeys per (row, kv-head), whatever the length.
    int64_t blockRows = 512;
    int64_t blockKeys = 2048;
    bool captureContext = false;      // attention of every query over the context
    std::vector<int64_t> captureRows; // query rows whose attention over self keys is kept
    bool accumulateReceived = false;  // attention each self key receives, summed over queries
};

struct AttentionOutput
{
    at::Tensor out;          // [B, Tq, heads * head_dim]
    at::Tensor ctxAttention; // [B * kv_heads, Tq, Tc], mean over the group (captureContext)
    at::Tensor rowAttention; // [kv_heads, R, Ts], mean over the group (captureRows)
    at::Tensor received;     // [B, kv_heads, Ts], summed over queries, mean over the group
};

// Softmax attention blocked over query rows and keys with an online softmax (running
// maximum, running denominator, rescaled output), never materialising [heads, T, T]:
// each query block starts with its diagonal key block (the only one masked), then the
// earlier self keys and the context; key blocks in a query block's future are skipped.
// The captures are normalised by each row's logsumexp in a second blockwise pass, run
// only when one is requested. Plain differentiable ops (in-place only where autograd
// needs nothing back), so training reuses it.
AttentionOutput blockAttention(const AttentionInputs& in);

// One decoding step of B rows in lockstep (DecodeBatch): each row's single query sees
// the shared context through its own bias and its own continuation (padded; `hidden`
// marks the padding). q [B, kv_heads, group, head_dim] already scaled; selfK/selfV
// [B, kv_heads, N, head_dim]; hidden bool [B, 1, 1, N]; ctxK/ctxV [kv_heads, Tc, head_dim];
// ctxBias [kv_heads, B, 1, Tc] or undefined (no bias). Returns [B, heads * head_dim].
at::Tensor stepAttention(const at::Tensor& q, const at::Tensor& selfK, const at::Tensor& selfV,
                         const at::Tensor& hidden, const at::Tensor& ctxK, const at::Tensor& ctxV,
                         const at::Tensor& ctxBias);

struct LayerCache;
// Attention of the prefill's window queries over the whole context (causal: window
// row i sits at position T - W + i), per query head: [heads, W, T]. What SnapKV-style
// scorers pool; reduce over each GQA group (heads / kv_heads consecutive heads) as needed.
at::Tensor windowAttention(const LayerCache& layer);

} // namespace kvl
