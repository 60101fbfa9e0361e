// `kvlens-cli info --model DIR`: what a model directory holds, as JSON: the
// architecture and sizes from config.json, the weights' dtypes and parameter count,
// and the identity hash run files record.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/checkpointdir.h"
#include "checkpoint/hfconfigreader.h"
#include "common/error.h"
#include "model/modelweights.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <map>

namespace kvl::cli {
namespace {

QJsonValue ropeScalingJson(const RopeScaling& s)
{
    switch (s.type) {
    case RopeScaling::Type::None:
        return QJsonValue::Null;
    case RopeScaling::Type::Linear:
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("linear")},
                           {QStringLiteral("factor"), s.factor}};
    case RopeScaling::Type::Llama3:
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("llama3")},
            {QStringLiteral("factor"), s.factor},
            {QStringLiteral("low_freq_factor"), s.lowFreqFactor},
            {QStringLiteral("high_freq_factor"), s.highFreqFactor},
            {QStringLiteral("original_max_position_embeddings"), s.originalMaxPositionEmbeddings}};
    }
    return QJsonValue::Null;
}

QJsonObject infoJson(const CheckpointDir& model)
{
    const ModelConfig& c = model.config();
    std::map<QString, qint64> dtypeCounts; // dtype -> tensors
    qint64 weightBytes = 0;
    for (const QString& name : model.tensorNames()) {
        const TensorView& t = model.tensor(name);
        ++dtypeCounts[dtypeName(t.dtype)];
        weightBytes += t.byteSize;
    }
    QJsonObject dtypes;
    for (const auto& [name, count] : dtypeCounts)
        dtypes.insert(name, count);
    QJsonArray eos;
    for (int id : c.eosTokenIds)
        eos.append(id);

    return {
        {QStringLiteral("dir"), QDir(model.dir()).absolutePath()},
        {QStringLiteral("architecture"), c.architectureName},
        {QStringLiteral("family"), architectureFamily(c.architecture)},
        {QStringLiteral("vocab_size"), c.vocabSize},
        {QStringLiteral("hidden_size"), c.hiddenSize},
        {QStringLiteral("intermediate_size"), c.intermediateSize},
        {QStringLiteral("num_layers"), c.numLayers},
        {QStringLiteral("num_heads"), c.numHeads},
        {QStringLiteral("num_kv_heads"), c.numKvHeads},
        {QStringLiteral("head_dim"), c.headDim},
        {QStringLiteral("rope"),
         QJsonObject{{QStringLiteral("theta"), c.ropeTheta},
                     {QStringLiteral("scaling"), ropeScalingJson(c.ropeScaling)}}},
        {QStringLiteral("max_position_embeddings"), c.maxPositionEmbeddings},
        {QStringLiteral("rms_norm_eps"), c.rmsNormEps},
        {QStringLiteral("tie_word_embeddings"), c.tieWordEmbeddings},
        {QStringLiteral("attention_bias"), c.attentionBias},
        {QStringLiteral("qk_norm"), c.qkNorm},
        {QStringLiteral("sliding_window"),
         c.slidingWindow ? QJsonValue(*c.slidingWindow) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("bos_token_id"),
         c.bosTokenId ? QJsonValue(*c.bosTokenId) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("eos_token_ids"), eos},
        {QStringLiteral("torch_dtype"), c.torchDtype},
        {QStringLiteral("dtypes"), dtypes},
        {QStringLiteral("parameters"), qint64(model.parameterCount())},
        {QStringLiteral("tensors"), qint64(model.tensorNames().size())},
        {QStringLiteral("weight_bytes"), weightBytes},
        {QStringLiteral("files"), QJsonArray::fromStringList(model.files())},
        {QStringLiteral("identity_hash"), model.identityHash()},
        {QStringLiteral("tokenizer"), !model.tokenizerPath().isEmpty()},
    };
}

int runInfo(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print a model directory's architecture, sizes, weight dtypes, parameter "
                       "count and identity hash as JSON."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("model"),
                      QStringLiteral("Hugging Face model directory, or 'bundled'."),
                      QStringLiteral("DIR")});
    parser.process(args);
    if (!parser.isSet(QStringLiteral("model")))
        throw Error(QStringLiteral("--model DIR is required (a model directory, or 'bundled')"));
    const QString dir = modelDirOption(parser.value(QStringLiteral("model")));
    const auto model = CheckpointDir::open(dir);
    // A directory the engine cannot load is an error here too, not a description.
    checkModelTensors(*model);
    printJson(infoJson(*model));
    return 0;
}

const CommandRegistrar infoCommand("info", "describe a model directory (sizes, parameters) as JSON",
                                   &runInfo);
} // namespace
} // namespace kvl::cli
