#include "model/ggufmodelwriter.h"

#include "common/error.h"
#include "model/modelweights.h"
#include "model/rope.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <QRegularExpression>

namespace kvl {

namespace {

// llama_ftype: what most of the file's matrices are.
uint32_t fileType(DType matrices)
{
    switch (matrices) {
    case DType::F16:
        return 1; // MOSTLY_F16
    case DType::BF16:
        return 32; // MOSTLY_BF16
    default:
        return 0; // ALL_F32
    }
}

std::optional<DType> dtypeOf(at::ScalarType t)
{
    switch (t) {
    case at::kFloat:
        return DType::F32;
    case at::kHalf:
        return DType::F16;
    case at::kBFloat16:
        return DType::BF16;
    default:
        return std::nullopt;
    }
}

// Rows [heads * head_dim, ...] from rotate-half to interleaved pairs within each head:
// output row 2j + r of a head is its input row r * head_dim / 2 + j.
at::Tensor interleaveHalves(const at::Tensor& t, int64_t heads)
{
    const int64_t rows = t.size(0);
    std::vector<int64_t> split{heads, 2, rows / heads / 2};
    for (int64_t d = 1; d < t.dim(); ++d)
        split.push_back(t.size(d));
    return t.reshape(split).transpose(1, 2).reshape(t.sizes()).contiguous();
}

} // namespace

QString GgufModelWriter::architecture(const ModelConfig& config)
{
    switch (config.architecture) {
    case Architecture::Llama:
    case Architecture::Mistral:
        return QStringLiteral("llama");
    case Architecture::Qwen2:
        return QStringLiteral("qwen2");
    case Architecture::Qwen3:
        return QStringLiteral("qwen3");
    }
    return {};
}

QString GgufModelWriter::tensorName(const QString& hf)
{
    if (hf == QLatin1String("model.embed_tokens.weight"))
        return QStringLiteral("token_embd.weight");
    if (hf == QLatin1String("model.norm.weight"))
        return QStringLiteral("output_norm.weight");
    if (hf == QLatin1String("lm_head.weight"))
        return QStringLiteral("output.weight");
    static const QRegularExpression layer(QStringLiteral("^model\\.layers\\.(\\d+)\\.(.+)$"));
    const QRegularExpressionMatch m = layer.match(hf);
    if (!m.hasMatch())
        return {};
    static const std::vector<std::pair<const char*, const char*>> parts{
        {"input_layernorm.weight", "attn_norm.weight"},
        {"self_attn.q_proj.weight", "attn_q.weight"},
        {"self_attn.k_proj.weight", "attn_k.weight"},
        {"self_attn.v_proj.weight", "attn_v.weight"},
        {"self_attn.q_proj.bias", "attn_q.bias"},
        {"self_attn.k_proj.bias", "attn_k.bias"},
        {"self_attn.v_proj.bias", "attn_v.bias"},
        {"self_attn.o_proj.weight", "attn_output.weight"},
        {"self_attn.q_norm.weight", "attn_q_norm.weight"},
        {"self_attn.k_norm.weight", "attn_k_norm.weight"},
        {"post_attention_layernorm.weight", "ffn_norm.weight"},
        {"mlp.gate_proj.weight", "ffn_gate.weight"},
        {"mlp.up_proj.weight", "ffn_up.weight"},
        {"mlp.down_proj.weight", "ffn_down.weight"}};
    for (const auto& [from, to] : parts)
        if (m.captured(2) == QLatin1String(from))
            return QStringLiteral("blk.%1.%2").arg(m.captured(1), QLatin1String(to));
    return {};
}

GgufModelWriter::GgufModelWriter(const ModelConfig& c, const GgufVocab& vocab, const QString& name)
    : m_config(c), m_arch(architecture(c))
{
    const QString what = QStringLiteral("GGUF export of %1").arg(name);
    if (c.architecture == Architecture::Qwen2 && int64_t(c.numHeads) * c.headDim != c.hiddenSize)
        throw Error(what, QStringLiteral("llama.cpp's qwen2 needs heads x head_dim = hidden "
                                         "(%1 x %2 is not %3)")
                              .arg(c.numHeads)
                              .arg(c.headDim)
                              .arg(c.hiddenSize));
    if (c.architecture == Architecture::Llama || c.architecture == Architecture::Mistral) {
        if (c.headDim % 2 != 0)
            throw Error(what, QStringLiteral("odd head_dim %1").arg(c.headDim));
    }
    if (c.ropeScaling.type == RopeScaling::Type::Llama3 && m_arch != QLatin1String("llama"))
        throw Error(what, QStringLiteral("llama3 rope scaling is written for the llama "
                                         "architecture only"));
    if (vocab.tokens.size() != c.vocabSize)
        throw Error(what, QStringLiteral("the vocabulary has %1 tokens, the model %2 rows")
                              .arg(vocab.tokens.size())
                              .arg(c.vocabSize));

    const QString a = m_arch + QLatin1Char('.');
    m_writer.setString(QStringLiteral("general.architecture"), m_arch);
    m_writer.setString(QStringLiteral("general.name"), name);
    m_writer.setUint32(a + "vocab_size", uint32_t(c.vocabSize));
    m_writer.setUint32(a + "context_length", uint32_t(c.maxPositionEmbeddings));
    m_writer.setUint32(a + "embedding_length", uint32_t(c.hiddenSize));
    m_writer.setUint32(a + "block_count", uint32_t(c.numLayers));
    m_writer.setUint32(a + "feed_forward_length", uint32_t(c.intermediateSize));
    m_writer.setUint32(a + "attention.head_count", uint32_t(c.numHeads));
    m_writer.setUint32(a + "attention.head_count_kv", uint32_t(c.numKvHeads));
    m_writer.setUint32(a + "attention.key_length", uint32_t(c.headDim));
    m_writer.setUint32(a + "attention.value_length", uint32_t(c.headDim));
    m_writer.setFloat32(a + "attention.layer_norm_rms_epsilon", float(c.rmsNormEps));
    m_writer.setFloat32(a + "rope.freq_base", float(c.ropeTheta));
    m_writer.setUint32(a + "rope.dimension_count", uint32_t(c.headDim));
    if (c.ropeScaling.type == RopeScaling::Type::Linear) {
        m_writer.setString(a + "rope.scaling.type", QStringLiteral("linear"));
        m_writer.setFloat32(a + "rope.scaling.factor", float(c.ropeScaling.factor));
    }
    vocab.addTo(m_writer);

    if (c.ropeScaling.type == RopeScaling::Type::Llama3) {
        // llama.cpp divides each base frequency by its rope_freqs entry.
        ModelConfig plain = c;
        plain.ropeScaling = RopeScaling{};
        const at::Tensor factors =
            (Rope(plain).invFreq() / Rope(c).invFreq()).to(at::kFloat).contiguous();
        m_kept.push_back(factors);
        m_writer.addTensor(QStringLiteral("rope_freqs.weight"), DType::F32, {factors.numel()},
                           QByteArray::fromRawData(static_cast<const char*>(factors.data_ptr()),
                                                   qsizetype(factors.nbytes())));
    }
}

void GgufModelWriter::add(const QString& hfName, const at::Tensor& tensor)
{
    const QString name = tensorName(hfName);
    if (name.isEmpty())
        throw Error(QStringLiteral("GGUF export: tensor '%1'").arg(hfName),
                    QStringLiteral("has no llama.cpp counterpart"));
    at::Tensor t = tensor;
    const std::optional<DType> given = dtypeOf(t.scalar_type());
    DType stored = DType::F32;
    if (t.dim() >= 2 && given) {
        stored = *given;
        if (!m_sawMatrix && !hfName.startsWith(QLatin1String("model.embed_tokens"))) {
            m_matrixType = stored;
            m_sawMatrix = true;
        }
    }
    if (t.scalar_type() != at::kFloat && stored == DType::F32)
        t = t.to(at::kFloat);
    if (m_arch == QLatin1String("llama")) {
        const bool q = hfName.contains(QLatin1String("self_attn.q_proj."));
        const bool k = hfName.contains(QLatin1String("self_attn.k_proj."));
        if (q || k) {
            const int64_t heads = q ? m_config.numHeads : m_config.numKvHeads;
            if (t.size(0) != heads * m_config.headDim)
                throw Error(QStringLiteral("GGUF export: tensor '%1'").arg(hfName),
                            QStringLiteral("%1 rows, not heads x head_dim = %2")
                                .arg(t.size(0))
                                .arg(heads * m_config.headDim));
            t = interleaveHalves(t, heads);
        }
    }
    t = t.contiguous();
    m_kept.push_back(t);
    m_writer.addTensor(
        name, stored, t.sizes().vec(),
        QByteArray::fromRawData(static_cast<const char*>(t.data_ptr()), qsizetype(t.nbytes())));
}

void GgufModelWriter::addModel(const Transformer& model)
{
    ModelWeights weights = model.weights(); // shares the tensors; named() wants it mutable
    for (const auto& [hfName, tensor] : weights.named(model.config()))
        add(hfName, *tensor);
}

void GgufModelWriter::write(const QString& path)
{
    m_writer.setUint32(QStringLiteral("general.file_type"), fileType(m_matrixType));
    m_writer.write(path);
}

} // namespace kvl
