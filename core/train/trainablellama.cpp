#include "train/trainablellama.h"

#include "checkpoint/checkpointdir.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <torch/torch.h>

namespace kvl {

namespace {

QString layerName(int layer, const char* rest)
{
    return QStringLiteral("model.layers.%1.%2").arg(layer).arg(QLatin1String(rest));
}

torch::Tensor rmsNorm(const torch::Tensor& x, const torch::Tensor& weight, double eps)
{
    return x * torch::rsqrt(x.pow(2).mean(-1, true) + eps) * weight;
}

// HF Llama rotary embedding, rotate-half convention: returns cos, sin [T, headDim].
std::pair<torch::Tensor, torch::Tensor> rotary(int64_t length, int headDim, double theta)
{
    const auto half = torch::arange(0, headDim, 2, torch::kFloat64) / double(headDim);
    const auto invFreq = torch::pow(theta, -half);
    const auto positions = torch::arange(length, torch::kFloat64);
    const auto freqs = torch::outer(positions, invFreq);
    const auto emb = torch::cat({freqs, freqs}, -1);
    return {emb.cos().to(torch::kFloat32), emb.sin().to(torch::kFloat32)};
}

torch::Tensor rotateHalf(const torch::Tensor& x)
{
    const int64_t half = x.size(-1) / 2;
    return torch::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
}

} // namespace

TrainableLlama::TrainableLlama(const ModelConfig& config) : m_config(config) {}

TrainableLlama::TrainableLlama(const ModelConfig& config, quint64 seed) : m_config(config)
{
    torch::manual_seed(seed);
    const int64_t d = config.hiddenSize;
    const int64_t qDim = int64_t(config.numHeads) * config.headDim;
    const int64_t kvDim = int64_t(config.numKvHeads) * config.headDim;
    const int64_t ff = config.intermediateSize;
    const double std = 0.02;
    const double residualStd = std / std::sqrt(2.0 * config.numLayers);
    auto normal = [](std::initializer_list<int64_t> shape, double s) {
        return torch::randn(shape, torch::kFloat32) * s;
    };
    m_params[QStringLiteral("model.embed_tokens.weight")] = normal({config.vocabSize, d}, std);
    for (int l = 0; l < config.numLayers; ++l) {
        m_params[layerName(l, "input_layernorm.weight")] = torch::ones({d});
        m_params[layerName(l, "post_attention_layernorm.weight")] = torch::ones({d});
        m_params[layerName(l, "self_attn.q_proj.weight")] = normal({qDim, d}, std);
        m_params[layerName(l, "self_attn.k_proj.weight")] = normal({kvDim, d}, std);
        m_params[layerName(l, "self_attn.v_proj.weight")] = normal({kvDim, d}, std);
        m_params[layerName(l, "self_attn.o_proj.weight")] = normal({d, qDim}, residualStd);
        m_params[layerName(l, "mlp.gate_proj.weight")] = normal({ff, d}, std);
        m_params[layerName(l, "mlp.up_proj.weight")] = normal({ff, d}, std);
        m_params[layerName(l, "mlp.down_proj.weight")] = normal({d, ff}, residualStd);
    }
    m_params[QStringLiteral("model.norm.weight")] = torch::ones({d});
    if (!config.tieWordEmbeddings)
        m_params[QStringLiteral("lm_head.weight")] = normal({config.vocabSize, d}, std);
    for (auto& [name, t] : m_params)
        t.set_requires_grad(true);
}

TrainableLlama TrainableLlama::load(const QString& dir)
{
    const auto checkpoint = CheckpointDir::open(dir);
    TrainableLlama model(checkpoint->config());
    for (const QString& name : checkpoint->tensorNames()) {
        const TensorView& view = checkpoint->tensor(name);
        if (view.dtype != DType::F32)
            throw Error(
                view.file,
                QStringLiteral("tensor %1: the trainer resumes from F32 weights only").arg(name));
        auto t =
            torch::from_blob(const_cast<void*>(view.data), view.shape, torch::kFloat32).clone();
        t.set_requires_grad(true);
        model.m_params[name] = t;
    }
    return model;
}

std::vector<torch::Tensor> TrainableLlama::parameters() const
{
    std::vector<torch::Tensor> out;
    for (const auto& [name, t] : m_params)
        out.push_back(t);
    return out;
}

bool TrainableLlama::decays(const QString& name) const
{
    return !name.endsWith(QLatin1String("norm.weight"));
}

torch::Tensor TrainableLlama::forward(const torch::Tensor& ids) const
{
    const ModelConfig& c = m_config;
    const int64_t B = ids.size(0), T = ids.size(1);
    const int64_t H = c.numHeads, Hkv = c.numKvHeads, hd = c.headDim;
    const auto embed = p(QStringLiteral("model.embed_tokens.weight"));
    auto x = embed.index_select(0, ids.reshape({-1})).view({B, T, c.hiddenSize});
    const auto [cos, sin] = rotary(T, int(hd), c.ropeTheta);
    const auto future = torch::ones({T, T}, torch::kBool).triu(1);
    const double scale = 1.0 / std::sqrt(double(hd));
    for (int l = 0; l < c.numLayers; ++l) {
        const auto h = rmsNorm(x, p(layerName(l, "input_layernorm.weight")), c.rmsNormEps);
        auto q = torch::matmul(h, p(layerName(l, "self_attn.q_proj.weight")).t())
                     .view({B, T, H, hd})
                     .transpose(1, 2);
        auto k = torch::matmul(h, p(layerName(l, "self_attn.k_proj.weight")).t())
                     .view({B, T, Hkv, hd})
                     .transpose(1, 2);
        auto v = torch::matmul(h, p(layerName(l, "self_attn.v_proj.weight")).t())
                     .view({B, T, Hkv, hd})
                     .transpose(1, 2);
        q = q * cos + rotateHalf(q) * sin;
        k = k * cos + rotateHalf(k) * sin;
        if (H != Hkv) {
            k = k.repeat_interleave(H / Hkv, 1);
            v = v.repeat_interleave(H / Hkv, 1);
        }
        auto scores = torch::matmul(q, k.transpose(-1, -2)) * scale;
        scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
        const auto attn = torch::matmul(torch::softmax(scores, -1), v);
        const auto merged = attn.transpose(1, 2).reshape({B, T, H * hd});
        x = x + torch::matmul(merged, p(layerName(l, "self_attn.o_proj.weight")).t());
        const auto g = rmsNorm(x, p(layerName(l, "post_attention_layernorm.weight")), c.rmsNormEps);
        const auto gate =
            torch::silu(torch::matmul(g, p(layerName(l, "mlp.gate_proj.weight")).t()));
        const auto up = torch::matmul(g, p(layerName(l, "mlp.up_proj.weight")).t());
        x = x + torch::matmul(gate * up, p(layerName(l, "mlp.down_proj.weight")).t());
    }
    x = rmsNorm(x, p(QStringLiteral("model.norm.weight")), c.rmsNormEps);
    const auto head = c.tieWordEmbeddings ? embed : p(QStringLiteral("lm_head.weight"));
    return torch::matmul(x, head.t());
}

QByteArray llamaConfigJson(const ModelConfig& c)
{
    QJsonArray eos;
    for (int id : c.eosTokenIds)
        eos.append(id);
    QJsonObject o{
        {QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")}},
        {QStringLiteral("model_type"), QStringLiteral("llama")},
        {QStringLiteral("vocab_size"), c.vocabSize},
        {QStringLiteral("hidden_size"), c.hiddenSize},
        {QStringLiteral("intermediate_size"), c.intermediateSize},
        {QStringLiteral("num_hidden_layers"), c.numLayers},
        {QStringLiteral("num_attention_heads"), c.numHeads},
        {QStringLiteral("num_key_value_heads"), c.numKvHeads},
        {QStringLiteral("head_dim"), c.headDim},
        {QStringLiteral("max_position_embeddings"), c.maxPositionEmbeddings},
        {QStringLiteral("rms_norm_eps"), c.rmsNormEps},
        {QStringLiteral("rope_theta"), c.ropeTheta},
        {QStringLiteral("rope_scaling"), QJsonValue::Null},
        {QStringLiteral("tie_word_embeddings"), c.tieWordEmbeddings},
        {QStringLiteral("attention_bias"), false},
        {QStringLiteral("hidden_act"), QStringLiteral("silu")},
        {QStringLiteral("torch_dtype"), QStringLiteral("float32")},
        {QStringLiteral("eos_token_id"), eos.size() == 1 ? QJsonValue(eos[0]) : QJsonValue(eos)},
    };
    if (c.bosTokenId)
        o.insert(QStringLiteral("bos_token_id"), *c.bosTokenId);
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

void TrainableLlama::save(const QString& dir, const QString& tokenizerPath) const
{
    if (!QDir().mkpath(dir))
        throw Error(dir, QStringLiteral("cannot create the checkpoint directory"));
    SafetensorsWriter writer;
    for (const auto& [name, t] : m_params) {
        const auto c = t.detach().contiguous();
        QByteArray bytes(reinterpret_cast<const char*>(c.data_ptr<float>()),
                         qsizetype(c.numel() * 4));
        writer.add(name, DType::F32, c.sizes().vec(), bytes);
    }
    writer.setMetadata(QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}});
    writer.write(QDir(dir).filePath(QStringLiteral("model.safetensors")));
    writeFileAtomically(QDir(dir).filePath(QStringLiteral("config.json")),
                        llamaConfigJson(m_config));
    if (!tokenizerPath.isEmpty()) {
        const QString target = QDir(dir).filePath(QStringLiteral("tokenizer.json"));
        if (QFileInfo(tokenizerPath).canonicalFilePath() != QFileInfo(target).canonicalFilePath())
            writeFileAtomically(target, readFileBytes(tokenizerPath));
    }
}

} // namespace kvl
