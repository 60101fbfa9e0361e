#include "model/modelweights.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"

#include <torch/types.h>

#include <c10/core/InferenceMode.h>

#include <QDir>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

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

// See tensorOfView (the view is aligned, see TensorView).
at::Tensor toType(const TensorView& view, at::ScalarType type)
{
    at::ScalarType stored;
    switch (view.dtype) {
    case DType::F32:
        stored = at::kFloat;
        break;
    case DType::F16:
        stored = at::kHalf;
        break;
    case DType::BF16:
        stored = at::kBFloat16;
        break;
    case DType::F64:
        stored = at::kDouble;
        break;
    default:
        unsupportedDType(view);
    }
    const at::Tensor mapped =
        at::from_blob(const_cast<void*>(view.data), view.shape, at::TensorOptions().dtype(stored));
    return stored == type ? mapped : mapped.to(type);
}

// Throws kvl::Error naming the file and tensor when `bits` (n elements of a float
// format whose exponent field is `exponent`) hold a NaN or an infinity: such weights
// make every logit NaN without any error. The test is on the exponent bits (all ones
// means Inf or NaN), an integer OR per block that the compiler vectorizes, so the
// scan runs at memory speed beside the load.
template <typename Bits>
void requireFiniteBits(const Bits* bits, int64_t n, Bits exponent, const TensorView& view)
{
    constexpr int64_t kBlock = int64_t(1) << 16;
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<uint8_t> bad(size_t(blocks), 0);
    at::parallel_for(0, blocks, 16, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
            uint32_t any = 0;
            for (int64_t i = b * kBlock, e = std::min(n, i + kBlock); i < e; ++i)
                any |= uint32_t((bits[i] & exponent) == exponent);
            bad[size_t(b)] = uint8_t(any);
        }
    });
    const auto block = std::find(bad.begin(), bad.end(), uint8_t(1));
    if (block == bad.end())
        return;
    int64_t i = int64_t(block - bad.begin()) * kBlock;
    while ((bits[i] & exponent) != exponent)
        ++i;
    const bool nan = (bits[i] & Bits(~exponent) & Bits(~(Bits(1) << (sizeof(Bits) * 8 - 1)))) != 0;
    throw Error(view.file, QStringLiteral("tensor '%1' holds %2 at element %3: the weights are "
                                          "damaged (a model with non-finite weights computes "
                                          "only NaN)")
                               .arg(view.name)
                               .arg(nan ? QStringLiteral("NaN") : QStringLiteral("an infinity"))
                               .arg(i));
}

// requireFiniteBits on a loaded tensor: float32, or F16/BF16 kept resident.
void requireFinite(const at::Tensor& t, const TensorView& view)
{
    switch (t.scalar_type()) {
    case at::kBFloat16:
        return requireFiniteBits(static_cast<const uint16_t*>(t.data_ptr()), t.numel(),
                                 uint16_t(0x7f80u), view);
    case at::kHalf:
        return requireFiniteBits(static_cast<const uint16_t*>(t.data_ptr()), t.numel(),
                                 uint16_t(0x7c00u), view);
    default:
        return requireFiniteBits(static_cast<const uint32_t*>(t.data_ptr()), t.numel(), 0x7f800000u,
                                 view);
    }
}

// The dtype a tensor is kept in: float32, except matrices loaded resident (their
// 16-bit file dtype, or the compute dtype when that is not float32).
at::ScalarType keptType(const TensorView& view, const WeightLoadOptions& options)
{
    if (view.shape.size() != 2)
        return at::kFloat;
    if (options.compute != at::kFloat)
        return options.compute;
    if (options.resident && view.dtype == DType::BF16)
        return at::kBFloat16;
    if (options.resident && view.dtype == DType::F16)
        return at::kHalf;
    return at::kFloat;
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

at::Tensor tensorOfView(const TensorView& view, at::ScalarType type)
{
    return toType(view, type);
}

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

ModelWeights loadModelWeights(const CheckpointDir& checkpoint, const WeightLoadOptions& options)
{
    const ModelConfig& config = checkpoint.config();
    if (options.compute != at::kFloat && !checkpoint.files().isEmpty())
        checkComputeDType(options.compute,
                          QDir(checkpoint.dir()).filePath(checkpoint.files().front()));
    ModelWeights w = emptyWeights(config);
    w.compute = options.compute;
    for (LayerWeights& layer : w.layers)
        layer.compute = options.compute;
    for (auto& [name, tensor] : w.named(config)) {
        const TensorView& view = checkpoint.tensor(name, expectedShape(config, name));
        *tensor = toType(view, keptType(view, options));
        requireFinite(*tensor, view);
    }
    if (config.tieWordEmbeddings)
        w.lmHead = w.embed;
    return w;
}

at::ScalarType computeDTypeFromName(const QString& name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("f32") || n == QLatin1String("float32") || n == QLatin1String("fp32"))
        return at::kFloat;
    if (n == QLatin1String("bf16") || n == QLatin1String("bfloat16"))
        return at::kBFloat16;
    if (n == QLatin1String("f16") || n == QLatin1String("float16") || n == QLatin1String("fp16") ||
        n == QLatin1String("half"))
        return at::kHalf;
    throw Error(QStringLiteral("--dtype"),
                QStringLiteral("unknown compute dtype '%1' (f32, bf16 or f16)").arg(name));
}

QString computeDTypeName(at::ScalarType type)
{
    switch (type) {
    case at::kBFloat16:
        return QStringLiteral("bf16");
    case at::kHalf:
        return QStringLiteral("f16");
    default:
        return QStringLiteral("f32");
    }
}

void checkComputeDType(at::ScalarType compute, const QString& file)
{
    if (compute == at::kFloat)
        return;
    // The product kvl::linear runs, on a few elements: a kernel the build lacks
    // fails here, with the reason torch gives, instead of in the middle of a pass.
    try {
        c10::InferenceMode guard;
        const auto options = at::TensorOptions().dtype(compute);
        const at::Tensor x = at::ones({2, 4}, options);
        (void)at::linear(x, at::ones({3, 4}, options), at::ones({3}, options));
    } catch (const c10::Error& e) {
        throw Error(file,
                    QStringLiteral("--dtype %1: this machine's libtorch cannot multiply "
                                   "%2 matrices on the CPU (%3); use --dtype f32 (F16 and "
                                   "BF16 weights stay 16-bit in memory with it)")
                        .arg(computeDTypeName(compute),
                             compute == at::kHalf ? QStringLiteral("F16") : QStringLiteral("BF16"),
                             QString::fromUtf8(e.what_without_backtrace())));
    }
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

void forEachRandomTensor(const ModelConfig& config, uint64_t seed, double scale,
                         const std::function<void(const QString&, const at::Tensor&)>& use)
{
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    ModelWeights names = emptyWeights(config);
    const auto options = at::TensorOptions().dtype(at::kFloat);
    for (const auto& named : names.named(config)) {
        const QString& name = named.first;
        const std::vector<int64_t> shape = expectedShape(config, name);
        if (name.endsWith(QLatin1String("norm.weight")))
            use(name, 1.0 + 0.1 * at::randn(shape, gen, options));
        else
            use(name, scale * at::randn(shape, gen, options));
    }
}

ModelWeights randomModelWeights(const ModelConfig& config, uint64_t seed, double scale)
{
    ModelWeights w = emptyWeights(config);
    std::map<QString, at::Tensor*> byName;
    for (auto& [name, tensor] : w.named(config))
        byName[name] = tensor;
    forEachRandomTensor(config, seed, scale,
                        [&](const QString& name, const at::Tensor& t) { *byName[name] = t; });
    if (config.tieWordEmbeddings)
        w.lmHead = w.embed;
    return w;
}

} // namespace kvl
