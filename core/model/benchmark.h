#pragma once

#include "checkpoint/modelconfig.h"

#include <QString>
#include <cstdint>

namespace kvl {

class Transformer;

// Rates are given per wall-clock second and per CPU second of this process (all its
// threads): on a machine shared with other jobs the wall rate follows the load, while
// the ratio of two per-CPU-second rates still says how well the cores were used.
struct MatmulRate
{
    double gflops = 0.0;             // best wall-clock rate
    double gflopsPerCpuSecond = 0.0; // best rate per CPU second, times the thread count
};

// fp32 matmul rate of this machine (square n x n products, best of a few).
MatmulRate measureMatmul(int n = 2048, double minSeconds = 1.0);
double measureMatmulGflops(int n = 2048, double minSeconds = 1.0);

// FLOPs of Transformer::prefill on `tokens` tokens: every projection and MLP matmul,
// causal attention (QK^T and PV over the T(T+1)/2 visible pairs) and the lm_head of
// the last row.
double prefillFlops(const ModelConfig& config, int64_t tokens);

// Shapes of well-known models for random-weight runs: "random-0.5b" (24 layers,
// hidden 896, 14 heads, 2 kv heads, head_dim 64, intermediate 4864, vocab 32000).
// Throws kvl::Error for other names.
ModelConfig randomShapeConfig(const QString& name);
bool isRandomShapeName(const QString& name);

struct PrefillBench
{
    int64_t tokens = 0;
    double seconds = 0.0; // best of the repeats
    double tokensPerSecond = 0.0;
    double gflops = 0.0;
    double cpuSeconds = 0.0;         // process CPU time of the best run
    double gflopsPerCpuSecond = 0.0; // times the thread count, comparable to MatmulRate's
    // Kernel time of the best run (page faults of fresh allocations show up here) and
    // the process's resident memory: before the timed runs and at its peak after them
    // (getrusage's ru_maxrss, which never decreases: run one length per process).
    double systemSeconds = 0.0;
    double systemSecondsPerLayer = 0.0;
    double rssBeforeMiB = 0.0;
    double peakRssMiB = 0.0;
};

// Times prefill of `tokens` random ids (inference mode, best of `repeats`).
PrefillBench benchPrefill(const Transformer& model, int64_t tokens, int repeats = 1);

// One layer's causal self-attention alone (blockAttention) on random queries and keys of
// the model's head shape: how close the blocked online softmax comes to the matmul rate.
struct AttentionBench
{
    int64_t tokens = 0;
    int64_t blockRows = 0, blockKeys = 0;
    double seconds = 0.0; // best of the repeats
    double gflops = 0.0;  // QK^T and PV over the T(T+1)/2 visible pairs
    double systemSeconds = 0.0;
};
// Which attention code to time: blockAttention's generic blocked ops (the path training
// and context answering take; run with grad mode on, no tensor needing a gradient) or the
// fused inference kernel (fusedAttention, the tile being its rows per task x keys per tile).
enum class AttentionPath
{
    Generic,
    Fused
};
AttentionBench benchAttention(const ModelConfig& config, int64_t tokens, int64_t blockRows,
                              int64_t blockKeys, int repeats = 1,
                              AttentionPath path = AttentionPath::Generic);

} // namespace kvl
