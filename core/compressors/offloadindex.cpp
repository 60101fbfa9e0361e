// The offloading index (issue 19): the budget laid out as local window + outlier chunks +
// top chunks by landmark score, the landmarks of each kind, and the context as attention
// reads it. The rules themselves are in offloadrules.cpp.
#include "compressors/offloadindex.h"

#include "cache/compressioninput.h"
#include "cache/keptselection.h"
#include "common/error.h"
#include "compressors/offloadrules.h"
#include "model/rope.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <torch/types.h>
#include <tuple>

namespace kvl {

namespace {

// Outlier chunks take at most this share of the budget: ShadowKV's defaults pair 384
// outlier tokens with a 2,048-token sparse budget, so short contexts (small budgets) scale
// the 384 down instead of spending the whole budget on outliers.
constexpr double kOutlierShareOfBudget = 384.0 / 2048.0;

constexpr double kHalf = 2.0; // bytes per fp16 element

// Bytes of one quantized d-channel vector: d * bits / 8 plus an fp16 scale and zero.
double quantizedBytes(int64_t d, int bits)
{
    return bits > 0 ? double(d) * bits / 8.0 + 2.0 * kHalf : double(d) * kHalf;
}

class ChunkOffloadIndex : public OffloadIndex
{
  public:
    ChunkOffloadIndex(const CompressionInput& input, const OffloadSettings& settings, double ratio,
                      const QString& what)
        : m_settings(settings), m_what(what)
    {
        const int64_t length = input.length();
        m_kvHeads = input.kvHeads();
        m_heads = input.heads();
        m_headDim = input.headDim();
        m_budget = offloadBudget(settings, length, ratio);
        m_everything = m_budget >= length;

        // Local window, then outliers, inside the budget; what is left goes in whole chunks.
        const int64_t chunk = settings.chunk;
        const int64_t local = std::min({settings.localWindow, m_budget, length});
        const int64_t outlierTokens = std::min(
            {settings.outliers, int64_t(std::floor(kOutlierShareOfBudget * double(m_budget))),
             m_budget - local});
        m_grid = offload::chunkGrid(length, length - local, chunk);
        m_outlierChunks = std::min(outlierTokens / chunk, m_grid.count);
        m_chunksPerStep = std::min((m_budget - local - m_outlierChunks * chunk) / chunk,
                                   m_grid.count - m_outlierChunks);

        const Rope own(*input.config);
        const Rope& rope = input.rope ? *input.rope : own;
        const auto [cos, sin] = rope.cosSin(torch::arange(length, torch::kLong));
        m_context = *input.cache;
        double alwaysTokens = 0.0;
        for (LayerCache& layer : m_context.layers) {
            Layer built = buildLayer(layer, cos, sin);
            alwaysTokens += built.always.sum().item<double>();
            m_layers.push_back(std::move(built));
        }
        computeCost(input, alwaysTokens);
    }

    const ContextCache& context() const override { return m_context; }
    int64_t budgetTokens() const override { return m_budget; }
    OffloadCost cost() const override { return m_cost; }
    const OffloadSettings& settings() const override { return m_settings; }

    at::Tensor select(int layer, const at::Tensor& queries) const override
    {
        if (layer < 0 || layer >= int(m_layers.size()))
            throw Error(m_what, QStringLiteral("layer %1 outside the %2 layers of the index")
                                    .arg(layer)
                                    .arg(m_layers.size()));
        if (queries.dim() != 3 || queries.size(0) != m_heads || queries.size(2) != m_headDim)
            throw Error(m_what, QStringLiteral("queries must be [%1 heads, n, %2], got [%3]")
                                    .arg(m_heads)
                                    .arg(m_headDim)
                                    .arg(shapeText(queries)));
        const int64_t n = queries.size(1), length = m_context.length;
        if (m_everything)
            return torch::ones({m_kvHeads, n, length}, torch::kBool);
        const Layer& l = m_layers[size_t(layer)];
        const at::Tensor scores = m_settings.landmark == LandmarkKind::PageBounds
                                      ? offload::pageScores(queries, l.lo, l.hi, l.candidates)
                                      : offload::landmarkScores(queries, l.landmarks, l.candidates);
        return offload::selectTokens(scores, m_chunksPerStep, m_grid, l.always);
    }

  private:
    struct Layer
    {
        at::Tensor landmarks;  // [kv, C, d] (low_rank_mean, quantized_keys)
        at::Tensor lo, hi;     // [kv, C, d] (page_bounds)
        at::Tensor candidates; // bool [kv, C]: chunks ranked (not outliers)
        at::Tensor always;     // bool [kv, T]: local window and outlier chunks
    };

    static QString shapeText(const at::Tensor& t)
    {
        QStringList dims;
        for (int64_t s : t.sizes())
            dims << QString::number(s);
        return dims.join(QStringLiteral(", "));
    }

    // Landmarks from the exact post-RoPE keys (as the reference does), then the context
    // attention reads: exact in the local window and outlier chunks, rewritten elsewhere.
    Layer buildLayer(LayerCache& layer, const at::Tensor& cos, const at::Tensor& sin)
    {
        const at::Tensor keys = layer.keys.to(torch::kFloat);
        Layer out;
        const at::Tensor outliers =
            offload::outlierChunks(keys, m_grid, m_outlierChunks); // bool [kv, C]
        const at::Tensor padded =
            torch::cat({outliers, torch::ones({m_kvHeads, 1}, torch::kBool)}, 1);
        out.always = padded.index_select(1, m_grid.tokenChunk);
        out.candidates = outliers.logical_not();
        switch (m_settings.landmark) {
        case LandmarkKind::PageBounds:
            std::tie(out.lo, out.hi) = offload::chunkBounds(keys, m_grid);
            break;
        case LandmarkKind::LowRankMean:
            out.landmarks = offload::chunkMeans(keys, m_grid);
            break;
        case LandmarkKind::QuantizedKeys:
            out.landmarks =
                offload::quantizeTokens(offload::chunkMeans(keys, m_grid), m_settings.landmarkBits);
            break;
        }

        at::Tensor preRope; // rewritten pre-RoPE keys, RoPE re-applied below
        if (m_settings.landmark == LandmarkKind::LowRankMean && m_settings.rank > 0)
            preRope =
                offload::lowRankKeys(requirePreRope(layer), m_settings.rank, m_settings.perHeadSvd);
        else if (m_settings.landmark == LandmarkKind::QuantizedKeys && m_settings.kvBits > 0)
            preRope =
                offload::quantizeTokens(requirePreRope(layer).to(torch::kFloat), m_settings.kvBits);
        const at::Tensor keep = out.always.unsqueeze(-1);
        if (preRope.defined()) {
            const at::Tensor rotated =
                Rope::apply(preRope.to(torch::kFloat).transpose(0, 1), cos, sin).transpose(0, 1);
            layer.keys =
                torch::where(keep, layer.keys, rotated.to(layer.keys.scalar_type())).contiguous();
        }
        if (m_settings.landmark == LandmarkKind::QuantizedKeys && m_settings.kvBits > 0)
            layer.values = torch::where(keep, layer.values,
                                        offload::quantizeTokens(layer.values, m_settings.kvBits))
                               .contiguous();
        return out;
    }

    const at::Tensor& requirePreRope(const LayerCache& layer) const
    {
        if (!layer.keysPreRope.defined() || layer.keysPreRope.sizes() != layer.keys.sizes())
            throw Error(m_what, QStringLiteral("needs the prefill's pre-RoPE keys"));
        return layer.keysPreRope;
    }

    void computeCost(const CompressionInput& input, double alwaysTokens)
    {
        const double d = double(m_headDim), length = double(m_context.length);
        const double layerHeads = double(input.layers()) * double(m_kvHeads);
        const double token = 2.0 * d * kHalf; // exact K + V of one entry
        const double candidates = double(m_grid.count - m_outlierChunks);
        const int bits = m_settings.landmark == LandmarkKind::QuantizedKeys ? m_settings.kvBits : 0;
        double landmark = d * kHalf, fetchedToken = token;
        double storedToken = token; // K + V of one entry outside the always set
        double factors = 0.0;       // shadowkv's SVD factors, resident
        switch (m_settings.landmark) {
        case LandmarkKind::PageBounds:
            landmark = 2.0 * d * kHalf;
            break;
        case LandmarkKind::QuantizedKeys:
            landmark = quantizedBytes(m_headDim, m_settings.landmarkBits);
            fetchedToken = storedToken = 2.0 * quantizedBytes(m_headDim, bits);
            break;
        case LandmarkKind::LowRankMean:
            if (m_settings.rank > 0) {
                // Keys rebuilt on the device from the resident factors: only values move.
                const double r = double(m_settings.rank);
                factors =
                    m_settings.perHeadSvd
                        ? layerHeads * (length * r + r * d) * kHalf
                        : double(input.layers()) * (length * r + double(m_kvHeads) * r * d) * kHalf;
                fetchedToken = storedToken = d * kHalf;
            }
            break;
        }
        const double sparseTokens =
            m_everything
                ? layerHeads * length - alwaysTokens
                : layerHeads *
                      double(std::min<int64_t>(m_chunksPerStep * m_settings.chunk, m_grid.span));
        m_cost.landmarkBytes = layerHeads * candidates * landmark;
        m_cost.residentBytes = m_cost.landmarkBytes + alwaysTokens * token + factors;
        m_cost.fetchedBytesPerStep = sparseTokens * fetchedToken;
        m_cost.storedBytes =
            alwaysTokens * token + (layerHeads * length - alwaysTokens) * storedToken + factors;
    }

    OffloadSettings m_settings;
    QString m_what;
    int64_t m_kvHeads = 0, m_heads = 0, m_headDim = 0;
    int64_t m_budget = 0;
    bool m_everything = false;
    offload::ChunkGrid m_grid;
    int64_t m_outlierChunks = 0;
    int64_t m_chunksPerStep = 0;
    ContextCache m_context;
    std::vector<Layer> m_layers;
    OffloadCost m_cost;
};

} // namespace

QString landmarkName(LandmarkKind kind)
{
    switch (kind) {
    case LandmarkKind::LowRankMean:
        return QStringLiteral("low_rank_mean");
    case LandmarkKind::PageBounds:
        return QStringLiteral("page_bounds");
    case LandmarkKind::QuantizedKeys:
        return QStringLiteral("quantized_keys");
    }
    return {};
}

int64_t offloadBudget(const OffloadSettings& settings, int64_t length, double ratio)
{
    if (settings.budgetTokens > 0)
        return std::min(settings.budgetTokens, length);
    return std::max<int64_t>(1, int64_t(std::floor(double(length) * (1.0 - ratio))));
}

std::unique_ptr<OffloadIndex> buildOffloadIndex(const CompressionInput& input,
                                                const OffloadSettings& settings, double ratio,
                                                const QString& what)
{
    checkRatio(ratio, what);
    if (!input.cache || !input.config)
        throw Error(what, QStringLiteral("needs a prefilled context and its model config"));
    if (input.length() < 1)
        throw Error(what, QStringLiteral("needs a context of at least one token"));
    if (settings.chunk < 1)
        throw Error(what, QStringLiteral("chunk must be at least 1, got %1").arg(settings.chunk));
    if (settings.localWindow < 0 || settings.outliers < 0 || settings.budgetTokens < 0)
        throw Error(what, QStringLiteral("budget, local window and outliers must be >= 0"));
    for (int bits : {settings.landmarkBits, settings.kvBits})
        if (bits < 0 || bits > 8)
            throw Error(what, QStringLiteral("bits must be 0 (exact) to 8, got %1").arg(bits));
    if (input.heads() % input.kvHeads() != 0)
        throw Error(what, QStringLiteral("%1 query heads do not group over %2 kv-heads")
                              .arg(input.heads())
                              .arg(input.kvHeads()));
    return std::make_unique<ChunkOffloadIndex>(input, settings, ratio, what);
}

} // namespace kvl
