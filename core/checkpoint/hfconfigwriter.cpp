#include "checkpoint/hfconfigwriter.h"

#include "checkpoint/hfconfigreader.h"
#include "common/jsonio.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace kvl {

QJsonObject toHfConfigJson(const ModelConfig& c)
{
    QJsonObject o;
    o.insert(QStringLiteral("architectures"), QJsonArray{architectureClassName(c.architecture)});
    o.insert(QStringLiteral("model_type"), architectureFamily(c.architecture));
    o.insert(QStringLiteral("hidden_act"), QStringLiteral("silu"));
    o.insert(QStringLiteral("vocab_size"), c.vocabSize);
    o.insert(QStringLiteral("hidden_size"), c.hiddenSize);
    o.insert(QStringLiteral("intermediate_size"), c.intermediateSize);
    o.insert(QStringLiteral("num_hidden_layers"), c.numLayers);
    o.insert(QStringLiteral("num_attention_heads"), c.numHeads);
    o.insert(QStringLiteral("num_key_value_heads"), c.numKvHeads);
    o.insert(QStringLiteral("head_dim"), c.headDim);
    o.insert(QStringLiteral("max_position_embeddings"), c.maxPositionEmbeddings);
    o.insert(QStringLiteral("rms_norm_eps"), c.rmsNormEps);
    o.insert(QStringLiteral("rope_theta"), c.ropeTheta);
    switch (c.ropeScaling.type) {
    case RopeScaling::Type::None:
        o.insert(QStringLiteral("rope_scaling"), QJsonValue::Null);
        break;
    case RopeScaling::Type::Linear:
        o.insert(QStringLiteral("rope_scaling"),
                 QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("linear")},
                             {QStringLiteral("factor"), c.ropeScaling.factor}});
        break;
    case RopeScaling::Type::Llama3:
        o.insert(QStringLiteral("rope_scaling"),
                 QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("llama3")},
                             {QStringLiteral("factor"), c.ropeScaling.factor},
                             {QStringLiteral("low_freq_factor"), c.ropeScaling.lowFreqFactor},
                             {QStringLiteral("high_freq_factor"), c.ropeScaling.highFreqFactor},
                             {QStringLiteral("original_max_position_embeddings"),
                              c.ropeScaling.originalMaxPositionEmbeddings}});
        break;
    }
    o.insert(QStringLiteral("tie_word_embeddings"), c.tieWordEmbeddings);
    if (c.architecture == Architecture::Llama || c.architecture == Architecture::Qwen3)
        o.insert(QStringLiteral("attention_bias"), c.attentionBias);
    if (c.architecture == Architecture::Mistral)
        o.insert(QStringLiteral("sliding_window"),
                 c.slidingWindow ? QJsonValue(*c.slidingWindow) : QJsonValue(QJsonValue::Null));
    if (c.architecture == Architecture::Qwen2 || c.architecture == Architecture::Qwen3) {
        o.insert(QStringLiteral("use_sliding_window"), c.slidingWindow.has_value());
        if (c.slidingWindow)
            o.insert(QStringLiteral("sliding_window"), *c.slidingWindow);
    }
    if (c.bosTokenId)
        o.insert(QStringLiteral("bos_token_id"), *c.bosTokenId);
    if (c.eosTokenIds.size() == 1) {
        o.insert(QStringLiteral("eos_token_id"), c.eosTokenIds.front());
    } else if (!c.eosTokenIds.empty()) {
        QJsonArray ids;
        for (int id : c.eosTokenIds)
            ids.append(id);
        o.insert(QStringLiteral("eos_token_id"), ids);
    }
    if (!c.torchDtype.isEmpty())
        o.insert(QStringLiteral("torch_dtype"), c.torchDtype);
    return o;
}

void writeModelConfig(const QString& configJsonPath, const ModelConfig& config)
{
    writeFileAtomically(configJsonPath, QJsonDocument(toHfConfigJson(config)).toJson());
}

} // namespace kvl
