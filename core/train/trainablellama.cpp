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

TrainableLlama::TrainableLlama(const ModelConfig& config, quint64 seed)
    : TrainableLlama(config, [&] {
          // The shapes come from the engine; the values from the usual GPT-2 style
          // initialisation, drawn in name order so that a seed means the same weights.
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
      }())
{}

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
