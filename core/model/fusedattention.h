#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>

namespace kvl {

struct AttentionInputs;

// Causal self-attention of one sequence for inference, fused per tile: the prefill's
// hot path. Tasks are (kv-head, block of query rows) with the group's heads stacked as
// rows sharing the head's keys; OpenMP threads take them largest first, and each runs
// single-threaded sgemm calls on its own cache-sized buffers (scores, probabilities,
// accumulator) with one vectorised pass per row (maximum, exp, sum) in between. The
// generic blockAttention instead forks every ATen op over the threads and streams each
// score tile through memory about six times.

// Whether blockAttention may hand `in` to fusedAttention: autograd off, batch 1, no
// context segment, float32 CPU tensors, and the BLAS's sgemm_ found. Training (grad
// on), decoding batches and context answering keep the generic, differentiable path.
bool fusedAttentionApplies(const AttentionInputs& in);

struct FusedAttentionOutput
{
    at::Tensor out; // [1, Tq, heads * head_dim]
    at::Tensor lse; // [kv_heads, group, Tq]: log of each row's softmax denominator
};

// Default tile: query rows per task (times the group, the rows of one sgemm) and keys
// per score tile. Measured on the 0.5B shape (group 7, head_dim 64), 2 threads of an AMD
// EPYC with OpenBLAS (bench --attention --path fused): at 4k tokens 32x512 and 64x512
// came first, 16, 256 or 1024 were 5-15% slower; at 8k 32x512 led 64x512 by 6%. The
// scores of 224 x 512 floats (448 KiB) stay in L2.
constexpr int64_t kFusedRows = 32;
constexpr int64_t kFusedKeys = 512;

// q [1, kv, group, Tq, hd] (scaled, any strides with a contiguous last dimension);
// selfK, selfV [1, kv, Ts, hd] with Ts >= Tq; query i sees self keys j <= Ts - Tq + i.
// `withLse` also returns each row's logsumexp (the analysis pass's normaliser).
FusedAttentionOutput fusedAttention(const at::Tensor& q, const at::Tensor& selfK,
                                    const at::Tensor& selfV, bool withLse,
                                    int64_t rowsPerTask = kFusedRows,
                                    int64_t keysPerTile = kFusedKeys);

// The row pass's exp, exposed for its test: values[i] = exp(values[i]) in place, AVX2/FMA
// when the CPU has it (`allowVector`), else std::exp. Within a few ulp of std::exp for
// results above FLT_MIN; inputs below about -87.3 (and -inf) give 0.
void fusedExp(float* values, int64_t n, bool allowVector = true);

} // namespace kvl
