#include "model/modelweights.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"

#include <torch/torch.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

namespace kvl {

namespace {

QString layerName(int layer, const char* suffix)
{
    return QStringLiteral("model.layers.%1.%2").arg(layer).arg(QLatin1String(suffix));
}

[[noreturn]] void unsupportedDType(const TensorView& view)
{
    throw Error(view.file, QStringLiteral("tensor %1 has dtype %2; weights must be F32, F16 "
                                          "or BF16")
                               .arg(view.name, dtypeName(view.dtype)));
}

// A float32 tensor over the mapped bytes: F32 is wrapped without a copy (when aligned),
// half types are converted.
at::Tensor toFloat(const TensorView& view)
{
    const std::vector<int64_t>& shape = view.shape;
    void* data = const_cast<void*>(view.data);
    const auto address = reinterpret_cast<uintptr_t>(view.data);
    switch (view.dtype) {
    case DType::F32:
        if (address % alignof(float) == 0)
            return at::from_blob(data, shape, at::TensorOptions().dtype(at::kFloat));
        // Unaligned data: let torch copy it byte-wise into an aligned tensor.
        return at::from_blob(data, {view.byteSize}, at::TensorOptions().dtype(at::kByte))
            .clone()
            .view(at::kFloat)
            .view(shape);
    case DType::F16:
        return at::from_blob(data, shape, at::TensorOptions().dtype(at::kHalf)).to(at::kFloat);
    case DType::BF16:
        return at::from_blob(data, shape, at::TensorOptions().dtype(at::kBFloat16)).to(at::kFloat);
    case DType::F64:
        return at::from_blob(data, shape, at::TensorOptions().dtype(at::kDouble)).to(at::kFloat);
    default:
        unsupportedDType(view);
    }
}

// Throws kvl::Error naming the file and tensor when `t` (float32, contiguous) holds a
// NaN or an infinity: such weights make every logit NaN without any error. The test is
// on the exponent bits (all ones means Inf or NaN), an integer OR per block that the
// compiler vectorizes, so the scan runs at memory speed beside the load.
void requireFinite(const at::Tensor& t, const TensorView& view)
{
    constexpr int64_t kBlock = int64_t(1) << 16;
    constexpr uint32_t kExponent = 0x7f800000u;
    const auto* bits = static_cast<const uint32_t*>(t.data_ptr());
    const int64_t n = t.numel();
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<uint8_t> bad(size_t(blocks), 0);
    at::parallel_for(0, blocks, 16, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
            uint32_t any = 0;
            for (int64_t i = b * kBlock, e = std::min(n, i + kBlock); i < e; ++i)
                any |= uint32_t((bits[i] & kExponent) == kExponent);
            bad[size_t(b)] = uint8_t(any);
        }
    });
    const auto block = std::find(bad.begin(), bad.end(), uint8_t(1));
    if (block == bad.end())
        return;
    const float* values = static_cast<const float*>(t.data_ptr());
    int64_t i = int64_t(block - bad.begin()) * kBlock;
    while ((bits[i] & kExponent) != kExponent)
        ++i;
    throw Error(view.file, QStringLiteral("tensor '%1' holds %2 at element %3: the weights are "
                                          "damaged (a model with non-finite weights computes "
                                          "only NaN)")
                               .arg(view.name)
                               .arg(std::isnan(values[i]) ? QStringLiteral("NaN")
                                                          : QStringLiteral("an infinity"))
                               .arg(i));
}

struct Shapes
{
    int64_t hidden, qOut, kvOut, inter, headDim, vocab;
    explicit Shapes(const ModelConfig& c)
        : hidden(c.hiddenSize), qOut(int64_t(c.numHeads) * c.headDim),
          kvOut(int64_t(c.numKvHeads) * c.headDim), inter(c.intermediateSize), headDim(c.headDim),
          vocab(c.vocabSize)
    {}
};

} // namespace

std::vector<std::pair<QString, at::Tensor*>> ModelWeights::named(const ModelConfig& config)
{
    std::vector<std::pair<QString, at::Tensor*>> out;
    out.emplace_back(QStringLiteral("model.embed_tokens.weight"), &embed);
    for (int i = 0; i < int(layers.size()); ++i) {
        LayerWeights& l = layers[size_t(i)];
        out.emplace_back(layerName(i, "input_layernorm.weight"), &l.inputNorm);
        out.emplace_back(layerName(i, "self_attn.q_proj.weight"), &l.q);
        out.emplace_back(layerName(i, "self_attn.k_proj.weight"), &l.k);
        out.emplace_back(layerName(i, "self_attn.v_proj.weight"), &l.v);
        if (config.attentionBias) {
            out.emplace_back(layerName(i, "self_attn.q_proj.bias"), &l.qBias);
            out.emplace_back(layerName(i, "self_attn.k_proj.bias"), &l.kBias);
            out.emplace_back(layerName(i, "self_attn.v_proj.bias"), &l.vBias);
        }
        out.emplace_back(layerName(i, "self_attn.o_proj.weight"), &l.o);
        if (config.qkNorm) {
            out.emplace_back(layerName(i, "self_attn.q_norm.weight"), &l.qNorm);
            out.emplace_back(layerName(i, "self_attn.k_norm.weight"), &l.kNorm);
        }
        out.emplace_back(layerName(i, "post_attention_layernorm.weight"), &l.postAttentionNorm);
        out.emplace_back(layerName(i, "mlp.gate_proj.weight"), &l.gate);
        out.emplace_back(layerName(i, "mlp.up_proj.weight"), &l.up);
        out.emplace_back(layerName(i, "mlp.down_proj.weight"), &l.down);
    }
    out.emplace_back(QStringLiteral("model.norm.weight"), &norm);
    if (!config.tieWordEmbeddings)
        out.emplace_back(QStringLiteral("lm_head.weight"), &lmHead);
    return out;
}

namespace {

// The expected shape of each named tensor, from the config.
std::vector<int64_t> expectedShape(const ModelConfig& config, const QString& name)
{
    const Shapes s(config);
    if (name == QLatin1String("model.embed_tokens.weight") ||
        name == QLatin1String("lm_head.weight"))
        return {s.vocab, s.hidden};
    if (name == QLatin1String("model.norm.weight"))
        return {s.hidden};
    const QString tail = name.section(QLatin1Char('.'), 3);
    if (tail == QLatin1String("input_layernorm.weight") ||
        tail == QLatin1String("post_attention_layernorm.weight"))
        return {s.hidden};
    if (tail == QLatin1String("self_attn.q_proj.weight"))
        return {s.qOut, s.hidden};
    if (tail == QLatin1String("self_attn.k_proj.weight") ||
        tail == QLatin1String("self_attn.v_proj.weight"))
        return {s.kvOut, s.hidden};
    if (tail == QLatin1String("self_attn.q_proj.bias"))
        return {s.qOut};
    if (tail == QLatin1String("self_attn.k_proj.bias") ||
        tail == QLatin1String("self_attn.v_proj.bias"))
        return {s.kvOut};
    if (tail == QLatin1String("self_attn.o_proj.weight"))
        return {s.hidden, s.qOut};
    if (tail == QLatin1String("self_attn.q_norm.weight") ||
        tail == QLatin1String("self_attn.k_norm.weight"))
        return {s.headDim};
    if (tail == QLatin1String("mlp.gate_proj.weight") ||
        tail == QLatin1String("mlp.up_proj.weight"))
        return {s.inter, s.hidden};
    if (tail == QLatin1String("mlp.down_proj.weight"))
        return {s.hidden, s.inter};
    return {};
}

ModelWeights emptyWeights(const ModelConfig& config)
{
    ModelWeights w;
    w.layers.resize(size_t(config.numLayers));
    return w;
}

} // namespace

ModelWeights loadModelWeights(const CheckpointDir& checkpoint)
{
    const ModelConfig& config = checkpoint.config();
    ModelWeights w = emptyWeights(config);
    for (auto& [name, tensor] : w.named(config)) {
        const TensorView& view = checkpoint.tensor(name, expectedShape(config, name));
        *tensor = toFloat(view);
        requireFinite(*tensor, view);
    }
    if (config.tieWordEmbeddings)
        w.lmHead = w.embed;
    return w;
}

void checkModelTensors(const CheckpointDir& checkpoint)
{
    const ModelConfig& config = checkpoint.config();
    ModelWeights w = emptyWeights(config);
    for (const auto& named : w.named(config)) {
        const TensorView& view = checkpoint.tensor(named.first, expectedShape(config, named.first));
        if (view.dtype != DType::F32 && view.dtype != DType::F16 && view.dtype != DType::BF16 &&
            view.dtype != DType::F64)
            unsupportedDType(view);
    }
}

ModelWeights randomModelWeights(const ModelConfig& config, uint64_t seed, double scale)
{
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    ModelWeights w = emptyWeights(config);
    const auto options = at::TensorOptions().dtype(at::kFloat);
    for (auto& [name, tensor] : w.named(config)) {
        const std::vector<int64_t> shape = expectedShape(config, name);
        if (name.endsWith(QLatin1String("norm.weight")))
            *tensor = 1.0 + 0.1 * at::randn(shape, gen, options);
        else
            *tensor = scale * at::randn(shape, gen, options);
    }
    if (config.tieWordEmbeddings)
        w.lmHead = w.embed;
    return w;
}

} // namespace kvl
