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
#include <torch/types.h>

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

// The usual GPT-2 style initialisation in the engine's shapes (or PyTorch's module
// defaults), drawn in name order so that a seed means the same weights.
ModelWeights initialWeights(const ModelConfig& config, quint64 seed,
                            WeightInit init = WeightInit::Gpt2)
{
    ModelWeights weights = randomModelWeights(config, seed);
    at::manual_seed(seed);
    const double std = 0.02;
    const double residualStd = std / std::sqrt(2.0 * config.numLayers);
    auto named = weights.named(config);
    std::sort(named.begin(), named.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [name, tensor] : named) {
        if (name.endsWith(QLatin1String("norm.weight")))
            *tensor = torch::ones_like(*tensor);
        else if (init == WeightInit::Torch) {
            if (name == QLatin1String("model.embed_tokens.weight"))
                *tensor = torch::randn_like(*tensor);
            else { // nn.Linear: weight and bias within ±1/sqrt(in_features)
                const QString weight = name.endsWith(QLatin1String(".bias"))
                                           ? name.chopped(5) + QStringLiteral(".weight")
                                           : name;
                const auto it = std::find_if(named.begin(), named.end(),
                                             [&](const auto& p) { return p.first == weight; });
                const double bound = 1.0 / std::sqrt(double(it->second->size(1)));
                *tensor = (torch::rand_like(*tensor) * 2.0 - 1.0) * bound;
            }
        } else if (name.endsWith(QLatin1String(".bias")))
            *tensor = torch::zeros_like(*tensor);
        else if (name.endsWith(QLatin1String("o_proj.weight")) ||
                 name.endsWith(QLatin1String("down_proj.weight")))
            *tensor = torch::randn_like(*tensor) * residualStd;
        else
            *tensor = torch::randn_like(*tensor) * std;
    }
    return weights;
}

// Layer 0's kv-head 0 and its query heads attend to the previous token whatever the
// tokens. Their q and k must be the same at every position; RoPE then makes the score
// depend on the offset alone, and q is pre-rotated by one position so that every
// frequency pair used peaks at offset 1. With attention biases (Qwen2 layout) the biases
// are that constant and the head's q/k weights start at zero. Without them, every
// embedding gets one shared component (hidden dim 0), the only input those q/k rows read.
// Only the fast pairs (theta >= 0.05) are used: slow ones add a near-constant score that
// would let small per-token differences outvote the offset. The head's V/O copy the
// previous token into the residual stream at the embeddings' scale. This is the first
// half of an induction circuit; the recall warm-up otherwise waits thousands of steps
// for it (issue 5 notes).
void plantPreviousTokenHead(ModelWeights& w, const ModelConfig& config)
{
    at::NoGradGuard noGrad;
    const int64_t d = config.hiddenSize, hd = config.headDim, half = hd / 2;
    const int64_t group = config.numHeads / config.numKvHeads;
    constexpr double kShared = 0.5;    // the shared embedding component (rows have |r| ~ 0.23)
    constexpr double kMargin = 12.0;   // logit margin of offset 1 over offsets 0 and 2
    constexpr double kFastPair = 0.05; // slowest RoPE frequency used (radians per position)
    // The constant that q and k are made of: the bias itself, or the RMSNorm'd value of
    // the shared component for a typical row (std 0.02 elsewhere).
    double shared = 1.0;
    if (!config.attentionBias) {
        w.embed.select(1, 0).fill_(kShared);
        shared = kShared * std::sqrt(double(d)) /
                 std::sqrt(kShared * kShared + double(d - 1) * 0.02 * 0.02);
    }
    double spread = 0.0; // sum over the used pairs of 1 - cos(theta_i)
    std::vector<double> theta;
    for (int64_t i = 0; i < half; ++i) {
        const double t = std::pow(config.ropeTheta, -2.0 * double(i) / double(hd));
        if (t < kFastPair && theta.size() >= 2)
            break;
        theta.push_back(t);
        spread += 1.0 - std::cos(t);
    }
    const double scale = std::sqrt(kMargin * std::sqrt(double(hd)) / (shared * shared * spread));
    LayerWeights& l = w.layers.front();
    // Where the constant enters: bias entries, or the weights' column 0.
    auto entry = [&](at::Tensor& weight, at::Tensor& bias, int64_t row) {
        return config.attentionBias ? bias.narrow(0, row, 1) : weight[row].narrow(0, 0, 1);
    };
    l.k.narrow(0, 0, hd).zero_();
    if (config.attentionBias)
        l.kBias.narrow(0, 0, hd).zero_();
    for (size_t i = 0; i < theta.size(); ++i)
        entry(l.k, l.kBias, int64_t(i)).fill_(scale);
    for (int64_t h = 0; h < group; ++h) {
        l.q.narrow(0, h * hd, hd).zero_();
        if (config.attentionBias)
            l.qBias.narrow(0, h * hd, hd).zero_();
        for (size_t i = 0; i < theta.size(); ++i) {
            entry(l.q, l.qBias, h * hd + int64_t(i)).fill_(scale * std::cos(theta[i]));
            entry(l.q, l.qBias, h * hd + int64_t(i) + half).fill_(-scale * std::sin(theta[i]));
        }
    }
    // V: a unit-gain projection of the normalised input; O: back at the embeddings' scale
    // (entries about 1.5 x the embeddings' std: 0.03 for the gpt2 start's 0.02).
    l.v.narrow(0, 0, hd).copy_(torch::randn({hd, d}) / std::sqrt(double(d)));
    const double embedStd = w.embed.narrow(1, 1, d - 1).std().item<double>();
    const double outScale =
        0.25 / (std::sqrt(double(hd)) * std::sqrt(double(d))) * (embedStd / 0.02);
    l.o.narrow(1, 0, group * hd).copy_(torch::randn({d, group * hd}) * outScale);
}

} // namespace

TrainableLlama::TrainableLlama(const ModelConfig& config, quint64 seed, bool previousTokenHead,
                               WeightInit init)
    : TrainableLlama(config, [&] {
          ModelWeights w = initialWeights(config, seed, init);
          if (previousTokenHead)
              plantPreviousTokenHead(w, config);
          return w;
      }())
{}

TrainableLlama TrainableLlama::grownFrom(const QString& dir, const ModelConfig& config,
                                         quint64 seed)
{
    const auto checkpoint = CheckpointDir::open(dir);
    const ModelConfig& from = checkpoint->config();
    const QString where = QDir(dir).filePath(QStringLiteral("config.json"));
    if (from.hiddenSize != config.hiddenSize || from.numHeads != config.numHeads ||
        from.numKvHeads != config.numKvHeads || from.intermediateSize != config.intermediateSize ||
        from.vocabSize != config.vocabSize || from.tieWordEmbeddings != config.tieWordEmbeddings ||
        from.attentionBias != config.attentionBias)
        throw Error(where, QStringLiteral("init_from needs the same hidden size, heads, kv heads, "
                                          "intermediate size, vocabulary, embedding tying and attention biases as "
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
    return !name.endsWith(QLatin1String("norm.weight")) && !name.endsWith(QLatin1String(".bias"));
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
