#pragma once

#include "model/contextcache.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>
#include <memory>

namespace kvl {

struct CompressionInput;

// Offloading (issue 19, SCIENCE.md section 4): every context entry is kept (in slow
// memory), and at each decoding forward after the context each layer's attention reads
// only a retrieved subset per kv-head: the local window, the outliers and the top chunks
// by landmark score, under a token budget.
enum class LandmarkKind
{
    LowRankMean,   // shadowkv: mean post-RoPE key per chunk; attention reads low-rank keys
    PageBounds,    // quest: per-channel key min/max per page
    QuantizedKeys, // yakv: keys quantized to landmarkBits, one landmark per chunk (1 token)
};

// "low_rank_mean", "page_bounds", "quantized_keys".
QString landmarkName(LandmarkKind kind);

// Every field is settable per configuration (the press's parameters).
struct OffloadSettings
{
    LandmarkKind landmark = LandmarkKind::LowRankMean;
    int64_t chunk = 8;        // tokens per landmark (quest: page size)
    int rank = 0;             // shadowkv SVD rank (<= 0: no projection)
    int64_t budgetTokens = 0; // 0: from the sweep ratio, max(1, floor(T (1 - r)))
    int64_t localWindow = 0;  // last context tokens always attended
    int64_t outliers = 0;     // tokens of outlier chunks always attended (shadowkv)
    int landmarkBits = 0;     // yakv landmark key bits (0: exact keys)
    int kvBits = 0;           // yakv K/V storage bits (0: exact)
    // shadowkv: one SVD per kv-head instead of one over the layer's concatenated kv-heads
    // (the reference's, a left factor shared by the heads).
    bool perHeadSvd = false;
};

// Bytes as fp16 storage counts them (quantized parts at their bits plus scales), summed
// over layers and kv-heads.
struct OffloadCost
{
    double residentBytes =
        0.0; // kept in fast memory: landmarks, low-rank factors, local window, outliers
    double landmarkBytes = 0.0;       // the landmarks alone
    double fetchedBytesPerStep = 0.0; // K/V moved per decoding forward at the full budget
    double storedBytes = 0.0;         // the whole context as the method stores it, landmarks aside
};

// Built once per sample (and ratio) from the prefill's exact cache.
class OffloadIndex
{
  public:
    virtual ~OffloadIndex() = default;
    // The context as attention reads it (shadowkv: low-rank keys outside outliers and the
    // local window; yakv: quantized K/V; quest: exact). Same shapes as the exact cache.
    virtual const ContextCache& context() const = 0;
    // bool [kv_heads, n, T]: the context entries layer `layer` attends to for each of the
    // n query rows `queries` [heads, n, head_dim] (post-RoPE, unscaled, what attention
    // uses). At most budgetTokens() true per (kv_head, row); local window and outliers
    // always true.
    virtual at::Tensor select(int layer, const at::Tensor& queries) const = 0;
    virtual int64_t budgetTokens() const = 0;
    virtual OffloadCost cost() const = 0;
    virtual const OffloadSettings& settings() const = 0;
};

// The context tokens attended per kv-head per step: settings.budgetTokens when set (capped
// at T), else max(1, floor(T (1 - r))).
int64_t offloadBudget(const OffloadSettings& settings, int64_t length, double ratio);

// The index of `settings` over input's prefill (input.cache, input.config and input.rope
// required). Throws kvl::Error naming `what` for settings or input it cannot use.
std::unique_ptr<OffloadIndex> buildOffloadIndex(const CompressionInput& input,
                                                const OffloadSettings& settings, double ratio,
                                                const QString& what);

} // namespace kvl
