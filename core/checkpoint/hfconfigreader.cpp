#include "checkpoint/hfconfigreader.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <array>
#include <cmath>

namespace kvl {

namespace {
struct Family
{
    Architecture architecture;
    const char* className;
    const char* modelType;
    int defaultMaxPositions; // transformers' default when config.json omits it
};
constexpr std::array<Family, 4> kFamilies{
    {{Architecture::Llama, "LlamaForCausalLM", "llama", 2048},
     {Architecture::Mistral, "MistralForCausalLM", "mistral", 4096 * 32},
     {Architecture::Qwen2, "Qwen2ForCausalLM", "qwen2", 32768},
     {Architecture::Qwen3, "Qwen3ForCausalLM", "qwen3", 32768}}};

const Family& family(Architecture architecture)
{
    for (const Family& f : kFamilies)
        if (f.architecture == architecture)
            return f;
    return kFamilies[0];
}

QString jsonText(const QJsonValue& value)
{
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isNull())
        return QStringLiteral("null");
    if (value.isUndefined())
        return QStringLiteral("nothing");
    return QString::number(value.toDouble(), 'g', 17);
}

// Typed access to one JSON object with errors naming the file and the field.
class Fields
{
  public:
    Fields(const QJsonObject& object, QString path, QString prefix = {})
        : m_object(object), m_path(std::move(path)), m_prefix(std::move(prefix))
    {}

    [[noreturn]] void fail(const QString& key, const QString& problem) const
    {
        throw Error(m_path, QStringLiteral("field '%1%2' %3").arg(m_prefix, key, problem));
    }
    bool has(const QString& key) const
    {
        return m_object.contains(key) && !m_object.value(key).isNull();
    }
    QJsonValue value(const QString& key) const { return m_object.value(key); }

    int toInt(const QString& key, const QJsonValue& v) const
    {
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || std::abs(d) > 2147483647.0)
            fail(key, QStringLiteral("must be an integer, got %1").arg(jsonText(v)));
        return int(d);
    }
    int requiredInt(const QString& key) const
    {
        if (!has(key))
            fail(key, QStringLiteral("is missing"));
        return toInt(key, value(key));
    }
    std::optional<int> optionalInt(const QString& key) const
    {
        if (!has(key))
            return std::nullopt;
        return toInt(key, value(key));
    }
    int intOr(const QString& key, int fallback) const
    {
        return optionalInt(key).value_or(fallback);
    }
    double doubleOr(const QString& key, double fallback) const
    {
        if (!has(key))
            return fallback;
        if (!value(key).isDouble())
            fail(key, QStringLiteral("must be a number, got %1").arg(jsonText(value(key))));
        return value(key).toDouble();
    }
    double requiredDouble(const QString& key) const
    {
        if (!has(key))
            fail(key, QStringLiteral("is missing"));
        return doubleOr(key, 0.0);
    }
    bool boolOr(const QString& key, bool fallback) const
    {
        if (!has(key))
            return fallback;
        if (!value(key).isBool())
            fail(key, QStringLiteral("must be true or false, got %1").arg(jsonText(value(key))));
        return value(key).toBool();
    }
    QString stringOr(const QString& key, const QString& fallback) const
    {
        if (!has(key))
            return fallback;
        if (!value(key).isString())
            fail(key, QStringLiteral("must be a string, got %1").arg(jsonText(value(key))));
        return value(key).toString();
    }
    void requirePositive(const QString& key, double v) const
    {
        if (!(v > 0))
            fail(key, QStringLiteral("must be positive, got %1").arg(v));
    }

  private:
    QJsonObject m_object;
    QString m_path;
    QString m_prefix;
};

Architecture readArchitecture(const Fields& f, QString* name, const QString& path)
{
    const QString supported = supportedArchitectures().join(QStringLiteral(", "));
    if (f.has(QStringLiteral("architectures"))) {
        const QJsonArray list = f.value(QStringLiteral("architectures")).toArray();
        if (list.isEmpty() || !list.first().isString())
            f.fail(QStringLiteral("architectures"),
                   QStringLiteral("must be a non-empty list of class names, got %1")
                       .arg(jsonText(f.value(QStringLiteral("architectures")))));
        *name = list.first().toString();
        for (const Family& fam : kFamilies)
            if (*name == QLatin1String(fam.className))
                return fam.architecture;
        throw Error(
            path,
            QStringLiteral("unknown architecture '%1' (supported: %2)").arg(*name, supported));
    }
    const QString modelType = f.stringOr(QStringLiteral("model_type"), {});
    for (const Family& fam : kFamilies) {
        if (modelType == QLatin1String(fam.modelType)) {
            *name = QString::fromLatin1(fam.className);
            return fam.architecture;
        }
    }
    if (modelType.isEmpty())
        throw Error(path,
                    QStringLiteral("no 'architectures' or 'model_type' field: cannot tell the "
                                   "architecture (supported: %1)")
                        .arg(supported));
    throw Error(path, QStringLiteral("unknown architecture: model_type '%1' (supported: %2)")
                          .arg(modelType, supported));
}

RopeScaling readRopeScaling(const QJsonValue& value, const QString& path, const QString& key)
{
    RopeScaling scaling;
    if (value.isNull() || value.isUndefined())
        return scaling;
    if (!value.isObject())
        throw Error(path, QStringLiteral("field '%1' must be an object or null, got %2")
                              .arg(key, jsonText(value)));
    const Fields f(value.toObject(), path, key + QLatin1Char('.'));
    QString type = f.stringOr(QStringLiteral("rope_type"), f.stringOr(QStringLiteral("type"), {}));
    if (type.isEmpty() || type == QLatin1String("default"))
        return scaling;
    if (type == QLatin1String("linear")) {
        scaling.type = RopeScaling::Type::Linear;
        scaling.factor = f.requiredDouble(QStringLiteral("factor"));
        f.requirePositive(QStringLiteral("factor"), scaling.factor);
        return scaling;
    }
    if (type == QLatin1String("llama3")) {
        scaling.type = RopeScaling::Type::Llama3;
        scaling.factor = f.requiredDouble(QStringLiteral("factor"));
        scaling.lowFreqFactor = f.requiredDouble(QStringLiteral("low_freq_factor"));
        scaling.highFreqFactor = f.requiredDouble(QStringLiteral("high_freq_factor"));
        scaling.originalMaxPositionEmbeddings =
            f.requiredInt(QStringLiteral("original_max_position_embeddings"));
        f.requirePositive(QStringLiteral("factor"), scaling.factor);
        f.requirePositive(QStringLiteral("low_freq_factor"), scaling.lowFreqFactor);
        f.requirePositive(QStringLiteral("original_max_position_embeddings"),
                          scaling.originalMaxPositionEmbeddings);
        if (!(scaling.highFreqFactor > scaling.lowFreqFactor))
            f.fail(QStringLiteral("high_freq_factor"),
                   QStringLiteral("must be greater than low_freq_factor (%1), got %2")
                       .arg(scaling.lowFreqFactor)
                       .arg(scaling.highFreqFactor));
        return scaling;
    }
    throw Error(path,
                QStringLiteral("unsupported %1 type '%2' (supported: linear, llama3, or null)")
                    .arg(key, type));
}

// Bounds of the numbers a config.json can state absurdly and still parse. Released
// models use rms_norm_eps 1e-6 to 1e-5 (an eps near the squared activations would
// flatten the norm) and rope_theta 1e4 to a few 1e9 (long-context Llama 3 variants);
// theta must exceed 1 for the rotation frequencies to fall with the dimension.
constexpr double kMaxRmsNormEps = 0.1;
constexpr double kMaxRopeTheta = 1e12;

QString shortest(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

void requireTokenId(const Fields& f, const QString& key, int id, int vocabSize)
{
    if (id < 0 || id >= vocabSize)
        f.fail(key, QStringLiteral("must be a token id in [0, vocab_size %1), got %2")
                        .arg(vocabSize)
                        .arg(id));
}

void validate(const ModelConfig& c, const Fields& f, bool headDimGiven)
{
    f.requirePositive(QStringLiteral("vocab_size"), c.vocabSize);
    f.requirePositive(QStringLiteral("hidden_size"), c.hiddenSize);
    f.requirePositive(QStringLiteral("intermediate_size"), c.intermediateSize);
    f.requirePositive(QStringLiteral("num_hidden_layers"), c.numLayers);
    f.requirePositive(QStringLiteral("num_attention_heads"), c.numHeads);
    f.requirePositive(QStringLiteral("num_key_value_heads"), c.numKvHeads);
    f.requirePositive(QStringLiteral("max_position_embeddings"), c.maxPositionEmbeddings);
    f.requirePositive(QStringLiteral("rms_norm_eps"), c.rmsNormEps);
    if (!(c.rmsNormEps <= kMaxRmsNormEps))
        f.fail(QStringLiteral("rms_norm_eps"),
               QStringLiteral("must be in (0, %1] (released models use 1e-6 to 1e-5), got %2")
                   .arg(shortest(kMaxRmsNormEps), shortest(c.rmsNormEps)));
    if (!(c.ropeTheta > 1.0 && c.ropeTheta <= kMaxRopeTheta))
        f.fail(QStringLiteral("rope_theta"),
               QStringLiteral("must be in (1, %1] (released models use 1e4 to a few 1e9), got %2")
                   .arg(shortest(kMaxRopeTheta), shortest(c.ropeTheta)));
    if (c.bosTokenId)
        requireTokenId(f, QStringLiteral("bos_token_id"), *c.bosTokenId, c.vocabSize);
    for (int id : c.eosTokenIds)
        requireTokenId(f, QStringLiteral("eos_token_id"), id, c.vocabSize);
    if (c.numHeads % c.numKvHeads != 0)
        f.fail(QStringLiteral("num_key_value_heads"),
               QStringLiteral("(%1) must divide num_attention_heads (%2)")
                   .arg(c.numKvHeads)
                   .arg(c.numHeads));
    if (!headDimGiven && c.hiddenSize % c.numHeads != 0)
        f.fail(QStringLiteral("num_attention_heads"),
               QStringLiteral("(%1) must divide hidden_size (%2) when head_dim is not given")
                   .arg(c.numHeads)
                   .arg(c.hiddenSize));
    f.requirePositive(QStringLiteral("head_dim"), c.headDim);
    if (c.headDim % 2 != 0) // RoPE rotates pairs of dimensions
        f.fail(QStringLiteral("head_dim"),
               QStringLiteral("must be even for RoPE, got %1").arg(c.headDim));
    if (c.slidingWindow)
        f.requirePositive(QStringLiteral("sliding_window"), *c.slidingWindow);
}
} // namespace

QStringList supportedArchitectures()
{
    QStringList names;
    for (const Family& f : kFamilies)
        names << QString::fromLatin1(f.className);
    return names;
}

QString architectureClassName(Architecture architecture)
{
    return QString::fromLatin1(family(architecture).className);
}

QString architectureFamily(Architecture architecture)
{
    return QString::fromLatin1(family(architecture).modelType);
}

ModelConfig loadModelConfig(const QString& configJsonPath)
{
    return parseModelConfig(readJsonObject(configJsonPath), configJsonPath);
}

ModelConfig parseModelConfig(const QJsonObject& json, const QString& path)
{
    const Fields f(json, path);
    ModelConfig c;
    c.architecture = readArchitecture(f, &c.architectureName, path);

    const QString activation = f.stringOr(QStringLiteral("hidden_act"), QStringLiteral("silu"));
    if (activation != QLatin1String("silu"))
        f.fail(QStringLiteral("hidden_act"),
               QStringLiteral("is '%1'; only 'silu' (SwiGLU) is supported").arg(activation));
    if (f.boolOr(QStringLiteral("mlp_bias"), false))
        f.fail(QStringLiteral("mlp_bias"), QStringLiteral("is true; MLP biases are not supported"));

    c.vocabSize = f.requiredInt(QStringLiteral("vocab_size"));
    c.hiddenSize = f.requiredInt(QStringLiteral("hidden_size"));
    c.intermediateSize = f.requiredInt(QStringLiteral("intermediate_size"));
    c.numLayers = f.requiredInt(QStringLiteral("num_hidden_layers"));
    c.numHeads = f.requiredInt(QStringLiteral("num_attention_heads"));
    c.numKvHeads = f.intOr(QStringLiteral("num_key_value_heads"), c.numHeads);
    const std::optional<int> headDim = f.optionalInt(QStringLiteral("head_dim"));
    // hidden / heads when absent, for every family. (transformers' Qwen3Config would
    // default to 128, but released Qwen3 configs always state head_dim.)
    if (headDim)
        c.headDim = *headDim;
    else
        c.headDim = c.numHeads > 0 ? c.hiddenSize / c.numHeads : 0;
    c.maxPositionEmbeddings = f.intOr(QStringLiteral("max_position_embeddings"),
                                      family(c.architecture).defaultMaxPositions);
    c.rmsNormEps = f.doubleOr(QStringLiteral("rms_norm_eps"), 1e-6);

    // transformers 5 moves theta and scaling into "rope_parameters".
    if (f.has(QStringLiteral("rope_parameters"))) {
        const QJsonValue params = f.value(QStringLiteral("rope_parameters"));
        if (!params.isObject())
            f.fail(QStringLiteral("rope_parameters"), QStringLiteral("must be an object"));
        const Fields p(params.toObject(), path, QStringLiteral("rope_parameters."));
        c.ropeTheta = p.doubleOr(QStringLiteral("rope_theta"), 10000.0);
        c.ropeScaling = readRopeScaling(params, path, QStringLiteral("rope_parameters"));
    } else {
        c.ropeTheta = f.doubleOr(QStringLiteral("rope_theta"), 10000.0);
        c.ropeScaling = readRopeScaling(f.value(QStringLiteral("rope_scaling")), path,
                                        QStringLiteral("rope_scaling"));
    }

    c.tieWordEmbeddings = f.boolOr(QStringLiteral("tie_word_embeddings"), false);
    switch (c.architecture) {
    case Architecture::Llama:
        c.attentionBias = f.boolOr(QStringLiteral("attention_bias"), false);
        break;
    case Architecture::Mistral:
        c.slidingWindow = f.optionalInt(QStringLiteral("sliding_window"));
        break;
    case Architecture::Qwen2:
        c.attentionBias = true; // Qwen2Attention hard-codes q/k/v biases
        break;
    case Architecture::Qwen3:
        c.attentionBias = f.boolOr(QStringLiteral("attention_bias"), false);
        c.qkNorm = true;
        break;
    }
    if ((c.architecture == Architecture::Qwen2 || c.architecture == Architecture::Qwen3) &&
        f.boolOr(QStringLiteral("use_sliding_window"), false))
        c.slidingWindow = f.optionalInt(QStringLiteral("sliding_window"));

    c.bosTokenId = f.optionalInt(QStringLiteral("bos_token_id"));
    const QJsonValue eos = f.value(QStringLiteral("eos_token_id"));
    if (eos.isArray()) {
        for (const QJsonValue& id : eos.toArray())
            c.eosTokenIds.push_back(f.toInt(QStringLiteral("eos_token_id"), id));
    } else if (f.has(QStringLiteral("eos_token_id"))) {
        c.eosTokenIds.push_back(f.requiredInt(QStringLiteral("eos_token_id")));
    }
    c.torchDtype =
        f.stringOr(QStringLiteral("torch_dtype"), f.stringOr(QStringLiteral("dtype"), {}));

    validate(c, f, headDim.has_value());
    return c;
}

} // namespace kvl
