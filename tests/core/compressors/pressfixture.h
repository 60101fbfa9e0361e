#pragma once

// Hand-made compression inputs for the press tests: a ContextCache whose keys, values
// and window queries the test writes directly, and the model shape that goes with it.
#include <torch/types.h>

#include "cache/compressioninput.h"
#include "model/modelweights.h"

#include <memory>

namespace kvl::test {

struct PressFixture
{
    ModelConfig config;
    ContextCache cache;
    ModelWeights weights;
    CompressionInput input;

    // Zero keys/values/queries of the given shape; window = captured last queries.
    PressFixture(int layers, int kvHeads, int heads, int length, int headDim, int window)
    {
        config.numLayers = layers;
        config.numKvHeads = kvHeads;
        config.numHeads = heads;
        config.headDim = headDim;
        config.hiddenSize = heads * headDim;
        config.ropeTheta = 10000.0;
        config.maxPositionEmbeddings = 1 << 16;
        cache.length = length;
        for (int l = 0; l < layers; ++l) {
            LayerCache layer;
            layer.keys = torch::zeros({kvHeads, length, headDim});
            layer.keysPreRope = torch::zeros({kvHeads, length, headDim});
            layer.values = torch::ones({kvHeads, length, headDim});
            layer.windowQueries = torch::zeros({heads, window, headDim});
            layer.windowQueriesPreRope = torch::zeros({heads, window, headDim});
            // Zero queries and keys attend uniformly: key j receives 1/(p+1) from every
            // query p >= j, averaged over those T - j queries (what prefill accumulates).
            const at::Tensor share = torch::arange(1, length + 1, torch::kDouble).reciprocal();
            const at::Tensor received = share.flip(0).cumsum(0).flip(0);
            layer.receivedAttention = (received / torch::arange(length, 0, -1, torch::kDouble))
                                          .to(torch::kFloat)
                                          .expand({kvHeads, length})
                                          .contiguous();
            cache.layers.push_back(layer);
            LayerWeights w;
            w.o = torch::eye(heads * headDim);
            weights.layers.push_back(w);
        }
        bind();
    }

    // Random contents (seeded), for the invariant sweeps.
    void randomize(uint64_t seed)
    {
        at::manual_seed(seed);
        for (LayerCache& l : cache.layers) {
            l.keys = torch::randn(l.keys.sizes());
            l.keysPreRope = torch::randn(l.keys.sizes());
            l.values = torch::randn(l.values.sizes());
            l.windowQueries = torch::randn(l.windowQueries.sizes());
            l.windowQueriesPreRope = torch::randn(l.windowQueries.sizes());
            l.receivedAttention = torch::rand(l.receivedAttention.sizes());
        }
        for (LayerWeights& w : weights.layers)
            w.o = torch::randn(w.o.sizes());
    }

    void bind()
    {
        input.cache = &cache;
        input.config = &config;
        input.weights = &weights;
    }

    // Sets the keys of one (layer, kv-head) from rows {x, y, ...}.
    void setKeys(int layer, int head, const std::vector<std::vector<float>>& rows)
    {
        for (size_t t = 0; t < rows.size(); ++t)
            for (size_t c = 0; c < rows[t].size(); ++c)
                cache.layers[size_t(layer)].keys[head][int64_t(t)][int64_t(c)] = rows[t][c];
    }
    void setValues(int layer, int head, const std::vector<std::vector<float>>& rows)
    {
        for (size_t t = 0; t < rows.size(); ++t)
            for (size_t c = 0; c < rows[t].size(); ++c)
                cache.layers[size_t(layer)].values[head][int64_t(t)][int64_t(c)] = rows[t][c];
    }
};

// Kept positions of one (layer, kv-head), ascending.
inline std::vector<int> keptAt(const at::Tensor& kept, int layer, int head)
{
    std::vector<int> out;
    const at::Tensor row = kept[layer][head];
    for (int64_t t = 0; t < row.size(0); ++t)
        if (row[t].item<bool>())
            out.push_back(int(t));
    return out;
}

} // namespace kvl::test
