#pragma once

#include "checkpoint/modelconfig.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace kvl {

class Transformer;
struct ContextCache;

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

// The memory bandwidth a decode step is bound by: a STREAM-style triad a = b + s c over
// three float buffers far larger than the caches (`mib` each), split over the engine's
// threads (at::parallel_for), best of a few. Bytes counted as STREAM counts them: two
// reads and one write per element.
struct BandwidthRate
{
    double gbPerSecond = 0.0; // best wall-clock rate, 1e9 bytes per second
    int64_t bufferBytes = 0;  // each of the three buffers
};
BandwidthRate measureMemoryBandwidth(int64_t mib = 256, double minSeconds = 1.0);

// The triad's buffers, kept so that single passes can be interleaved with what is
// measured against them: the bandwidth of a shared machine moves from minute to minute
// (45 to 56 GB/s within an hour on the 2-core machine of docs/engine-speed.md), so a
// limit measured once, before a long prefill, can be another machine's.
class TriadProbe
{
  public:
    explicit TriadProbe(int64_t mib = 256);
    // One pass a = b + s c over all of the buffers: its rate, 1e9 bytes per second.
    double pass();
    int64_t bufferBytes() const;

  private:
    int64_t m_n = 0;
    std::unique_ptr<float[]> m_a, m_b, m_c;
};

// The bytes one greedy decode step of one row must read at least: every weight matrix
// of every layer and the LM head once (not the embedding, of which it reads one row),
// and the context's keys and values in every layer, in the dtypes they are held in.
double decodeStepBytes(const Transformer& model, const ContextCache& context);

// One decode step after a `tokens`-token context under FullCache, one row, the median
// of `steps` steps after one warm-up (Transformer::decodeStep, as a sweep's answers run).
struct DecodeStepBench
{
    int64_t contextTokens = 0;
    double seconds = 0.0;     // median step
    double bytes = 0.0;       // decodeStepBytes
    double gbPerSecond = 0.0; // bytes / seconds
    // With a probe: the median of one triad pass before each step, the limit measured
    // under the same load as the steps (0 without).
    double bandwidthGbPerSecond = 0.0;
};
// With `probe`, one triad pass runs before each step (untimed with it).
DecodeStepBench benchDecodeStep(const Transformer& model, int64_t tokens, int steps = 16,
                                TriadProbe* probe = nullptr);

// FLOPs of Transformer::prefill on `tokens` tokens: every projection and MLP matmul,
// causal attention (QK^T and PV over the T(T+1)/2 visible pairs) and the lm_head of
// the last row.
double prefillFlops(const ModelConfig& config, int64_t tokens);

// Shapes of well-known models for random-weight runs: "random-0.5b" (24 layers,
// hidden 896, 14 heads, 2 kv heads, head_dim 64, intermediate 4864, vocab 32000) and
// "random-tiny" (the same Qwen2 family: 2 layers, hidden 64, 4 heads, 2 kv heads,
// head_dim 16, intermediate 128, vocab 2048; for tests). Throws kvl::Error for others.
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
