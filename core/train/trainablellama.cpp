#include "train/trainablellama.h"

#include "checkpoint/checkpointdir.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "model/modelweights.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <torch/torch.h>

namespace kvl {

TrainableLlama::TrainableLlama(const ModelConfig& config, ModelWeights weights)
{
    for (auto& [name, tensor] : weights.named(config)) {
        *tensor = tensor->detach().clone().set_requires_grad(true);
        m_params[name] = *tensor;
    }
    if (config.tieWordEmbeddings)
        weights.lmHead = weights.embed;
    m_model = std::make_unique<Transformer>(config, std::move(weights), QStringLiteral("trainer"));
}

namespace {

// The usual GPT-2 style initialisation in the engine's shapes, drawn in name order so
// that a seed means the same weights.
ModelWeights initialWeights(const ModelConfig& config, quint64 seed)
{
    ModelWeights weights = randomModelWeights(config, seed);
    torch::manual_seed(seed);
    const double std = 0.02;
    const double residualStd = std / std::sqrt(2.0 * config.numLayers);
    auto named = weights.named(config);
    std::sort(named.begin(), named.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [name, tensor] : named) {
        if (name.endsWith(QLatin1String("norm.weight")))
            *tensor = torch::ones_like(*tensor);
        else if (name.endsWith(QLatin1String("o_proj.weight")) ||
                 name.endsWith(QLatin1String("down_proj.weight")))
            *tensor = torch::randn_like(*tensor) * residualStd;
        else
            *tensor = torch::randn_like(*tensor) * std;
    }
    return weights;
}

} // namespace

TrainableLlama::TrainableLlama(const ModelConfig& config, quint64 seed)
    : TrainableLlama(config, initialWeights(config, seed))
{}

TrainableLlama TrainableLlama::grownFrom(const QString& dir, const ModelConfig& config,
                                         quint64 seed)
{
    const auto checkpoint = CheckpointDir::open(dir);
    const ModelConfig& from = checkpoint->config();
    const QString where = QDir(dir).filePath(QStringLiteral("config.json"));
    if (from.hiddenSize != config.hiddenSize || from.numHeads != config.numHeads ||
        from.numKvHeads != config.numKvHeads || from.intermediateSize != config.intermediateSize ||
        from.vocabSize != config.vocabSize || from.tieWordEmbeddings != config.tieWordEmbeddings)
        throw Error(where, QStringLiteral("init_from needs the same hidden size, heads, kv heads, "
                                          "intermediate size, vocabulary and embedding tying as "
                                          "the spec's model"));
    if (from.numLayers > config.numLayers)
        throw Error(where, QStringLiteral("init_from has %1 layers, more than the spec's %2")
                               .arg(from.numLayers)
                               .arg(config.numLayers));
    ModelWeights grown = initialWeights(config, seed);
    ModelWeights source = loadModelWeights(*checkpoint);
    std::map<QString, at::Tensor*> sourceByName;
    for (auto& [name, tensor] : source.named(from))
        sourceByName[name] = tensor;
    for (auto& [name, tensor] : grown.named(config)) {
        const auto it = sourceByName.find(name);
        if (it != sourceByName.end())
            *tensor = it->second->to(at::kFloat).clone();
        else if (name.endsWith(QLatin1String("o_proj.weight")) ||
                 name.endsWith(QLatin1String("down_proj.weight")))
            *tensor = torch::zeros_like(*tensor); // a new layer adds nothing at first
    }
    return TrainableLlama(config, std::move(grown));
}

TrainableLlama TrainableLlama::load(const QString& dir)
{
    const auto checkpoint = CheckpointDir::open(dir);
    return TrainableLlama(checkpoint->config(), loadModelWeights(*checkpoint));
}

bool TrainableLlama::decays(const QString& name) const
{
    return !name.endsWith(QLatin1String("norm.weight"));
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
    writeModelConfig(QDir(dir).filePath(QStringLiteral("config.json")), config());
    if (!tokenizerPath.isEmpty()) {
        const QString target = QDir(dir).filePath(QStringLiteral("tokenizer.json"));
        if (QFileInfo(tokenizerPath).canonicalFilePath() != QFileInfo(target).canonicalFilePath())
            writeFileAtomically(target, readFileBytes(tokenizerPath));
    }
}

} // namespace kvl
