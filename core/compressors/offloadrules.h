#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <utility>

// The landmark and retrieval rules of the offloading presses (issue 19), as plain tensor
// functions so the tests check each rule on hand-built keys. Shapes: keys [kv_heads, T, d],
// queries [heads, n, d] (query head h belongs to kv-head h / (heads / kv_heads)).
namespace kvl::offload {

// The chunk grid over the first `span` context tokens (the tokens before the local
// window): chunk c holds [c * chunk, min((c + 1) * chunk, span)), the last one may be
// shorter. tokenChunk int64 [T]: each token's chunk, `count` for tokens past the span.
struct ChunkGrid
{
    int64_t chunk = 1;
    int64_t span = 0;
    int64_t count = 0;
    at::Tensor tokenChunk;
};
ChunkGrid chunkGrid(int64_t length, int64_t span, int64_t chunk);

// Mean key per chunk: [kv, C, d] (ShadowKV's landmark).
at::Tensor chunkMeans(const at::Tensor& keys, const ChunkGrid& grid);
// Per-channel key minimum and maximum per chunk: [kv, C, d] each (Quest's page bounds).
std::pair<at::Tensor, at::Tensor> chunkBounds(const at::Tensor& keys, const ChunkGrid& grid);

// ShadowKV's outlier chunks: per kv-head the `count` chunks whose keys have the lowest
// minimum cosine similarity to their chunk's mean (ties to the earlier chunk). At chunk 1
// every similarity is 1, and the reference takes the first chunks (the attention sinks).
// bool [kv, C].
at::Tensor outlierChunks(const at::Tensor& keys, const ChunkGrid& grid, int64_t count);

// Rank-`rank` reconstruction (truncated SVD) of pre-RoPE keys [kv, T, d]: one SVD of the
// [T, kv * d] concatenation (the reference's, exact once rank >= min(T, kv * d)) or one per
// kv-head (perHead: exact once rank >= min(T, d)).
at::Tensor lowRankKeys(const at::Tensor& keysPreRope, int rank, bool perHead);

// Round-to-nearest asymmetric min-max quantize-dequantize, one scale and zero per token of
// each kv-head over its d channels; bits <= 0 returns x.
at::Tensor quantizeTokens(const at::Tensor& x, int bits);

// ShadowKV / YAKV retrieval score per chunk: per query head and row, softmax over the
// candidate chunks of q . landmark / sqrt(d); the max over the kv-head's query heads.
// candidates bool [kv, C] (non-candidates score -inf). Returns float [kv, n, C].
at::Tensor landmarkScores(const at::Tensor& queries, const at::Tensor& landmarks,
                          const at::Tensor& candidates);
// Quest's page score: sum_d max(q_d min_d, q_d max_d), an upper bound of q . k over the
// page's keys; the max over the kv-head's query heads. Returns float [kv, n, C].
at::Tensor pageScores(const at::Tensor& queries, const at::Tensor& lo, const at::Tensor& hi,
                      const at::Tensor& candidates);

// Retrieved tokens bool [kv, n, T]: the `chunks` best-scored chunks per (kv-head, row)
// (ties to the earlier chunk), spread over their tokens, plus `always` bool [kv, T].
at::Tensor selectTokens(const at::Tensor& scores, int64_t chunks, const ChunkGrid& grid,
                        const at::Tensor& always);

} // namespace kvl::offload
