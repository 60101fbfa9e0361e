#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <cstdint>

namespace kvl {

// One layer's CaM compression (Zhang et al., ICML 2024; kvpress cam_press.py, read as the
// rule, not copied).
struct CamMerge
{
    at::Tensor kept;   // int64 [target]: the entries kept, ascending, the same for every kv-head
    at::Tensor values; // [kv_heads, n, head_dim]: the values with the merges added
    int64_t candidates = 0; // evicted entries picked to merge
    int64_t merged = 0;     // (candidate, kv-head) pairs whose draw succeeded
};

// `scores` [kv_heads, n] (the scorer's), `attention` [kv_heads, n] (each entry's running
// sum of the attention it received while decoding, GQA-group mean), `values`
// [kv_heads, n, head_dim]. The `target` entries with the best mean score over the
// kv-heads stay (ties: the earlier entry), the others are evicted. Among the evicted, the
// `steps` best-scored (ties: the later entry first) are merged: entry m's window is the
// `budget` kept entries right after it in sequence order (fewer near the end: w of them),
// its probability p = clamp(A_m / mean A_window, 0, 1) per kv-head (0/0 -> 0, x/0 -> 1),
// and when a draw u ~ U[0, 1) from `generator` (one per candidate and kv-head, kv-head
// major, in sequence order) is below p, v_m / w is added to every window entry's value.
// target must be in [1, n).
CamMerge camMerge(const at::Tensor& scores, const at::Tensor& attention, const at::Tensor& values,
                  int64_t target, int64_t steps, int64_t budget, at::Generator& generator);

} // namespace kvl
