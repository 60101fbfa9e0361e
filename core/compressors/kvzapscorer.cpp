// KVzap (kvpress kvzap/kvzap_press.py; a learned surrogate of KVzip+, Jegou et al.,
// NVIDIA 2025): a small model per layer on the attention input (the hidden state after
// the input RMSNorm) predicts each entry's score per kv-head: linear (hidden -> kv_heads)
// or an MLP (Linear, exact GELU, Linear). Weights in the Hugging Face layout kvpress loads
// (nvidia/KVzap-<type>-<model>): dir/config.json {input_dim, output_dim, hidden_dim,
// n_modules} and dir/model.safetensors module_list.<l>.weight/.bias (linear) or
// module_list.<l>.0.* and .2.* (MLP).
#include "cache/pressparams.h"
#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "model/modelweights.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <torch/types.h>

namespace kvl {
namespace {

// An owning float32 copy: the file's mapping ends with the loader.
at::Tensor floatTensor(const SafetensorsFile& file, const QString& name)
{
    return tensorOfView(file.tensor(name), at::kFloat).clone();
}

struct KvzapLayer
{
    at::Tensor w1, b1, w2, b2; // w2/b2 undefined for the linear model
};

class KvzapScorer : public Scorer
{
  public:
    KvzapScorer(std::vector<KvzapLayer> layers, int64_t inputDim, int64_t outputDim, QString dir,
                QString spec)
        : m_layers(std::move(layers)), m_inputDim(inputDim), m_outputDim(outputDim),
          m_dir(std::move(dir)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    bool entryWise() const override { return true; }
    bool needsAttentionInputs() const override { return true; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        if (int64_t(m_layers.size()) != input.layers() || m_outputDim != input.kvHeads() ||
            m_inputDim != input.config->hiddenSize)
            throw Error(m_dir,
                        QStringLiteral("KVzap model is for %1 layers, hidden %2, %3 kv-heads; "
                                       "the model has %4, %5, %6")
                            .arg(m_layers.size())
                            .arg(m_inputDim)
                            .arg(m_outputDim)
                            .arg(input.layers())
                            .arg(input.config->hiddenSize)
                            .arg(input.kvHeads()));
        std::vector<at::Tensor> out;
        for (size_t l = 0; l < m_layers.size(); ++l) {
            const at::Tensor& h = input.cache->layers[l].attentionInputs;
            if (!h.defined())
                throw Error(m_spec, QStringLiteral("needs the attention inputs "
                                                   "(PrefillOptions::keepAttentionInputs)"));
            const KvzapLayer& m = m_layers[l];
            at::Tensor y = torch::linear(h.to(torch::kFloat), m.w1, m.b1);
            if (m.w2.defined())
                y = torch::linear(torch::gelu(y), m.w2, m.b2);
            out.push_back(y.t()); // [kv, T]
        }
        return torch::stack(out);
    }

  private:
    std::vector<KvzapLayer> m_layers;
    int64_t m_inputDim;
    int64_t m_outputDim;
    QString m_dir;
    QString m_spec;
};

std::unique_ptr<Scorer> makeKvzap(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const QString dir = p.text(QStringLiteral("dir"), {});
    p.finish();
    if (dir.isEmpty())
        throw Error(p.canonical(), QStringLiteral("kvzap needs dir=FOLDER holding config.json and "
                                                  "model.safetensors (nvidia/KVzap-* layout)"));
    const QString configPath = QDir(dir).filePath(QStringLiteral("config.json"));
    QFile file(configPath);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(configPath, QStringLiteral("cannot open: %1").arg(file.errorString()));
    QJsonParseError parseError;
    const QJsonObject config = QJsonDocument::fromJson(file.readAll(), &parseError).object();
    if (parseError.error != QJsonParseError::NoError)
        throw Error(configPath, QStringLiteral("not JSON: %1").arg(parseError.errorString()));
    for (const char* key : {"input_dim", "output_dim", "n_modules"})
        if (!config.value(QLatin1String(key)).isDouble())
            throw Error(configPath, QStringLiteral("needs a number '%1'").arg(QLatin1String(key)));
    const int64_t inputDim = config.value(QStringLiteral("input_dim")).toInteger();
    const int64_t outputDim = config.value(QStringLiteral("output_dim")).toInteger();
    const int64_t modules = config.value(QStringLiteral("n_modules")).toInteger();
    const bool mlp = config.value(QStringLiteral("hidden_dim")).isDouble();
    const int64_t hidden = mlp ? config.value(QStringLiteral("hidden_dim")).toInteger() : 0;
    const auto weights =
        SafetensorsFile::open(QDir(dir).filePath(QStringLiteral("model.safetensors")));
    std::vector<KvzapLayer> layers;
    const auto expect = [&](const at::Tensor& t, const QString& name, std::vector<int64_t> shape) {
        if (t.sizes().vec() != shape)
            throw Error(weights->path(),
                        QStringLiteral("tensor %1 has the wrong shape for config.json").arg(name));
        return t;
    };
    for (int64_t l = 0; l < modules; ++l) {
        const QString base = QStringLiteral("module_list.%1.").arg(l);
        const QString first = mlp ? base + QStringLiteral("0.") : base;
        const int64_t mid = mlp ? hidden : outputDim;
        KvzapLayer m;
        m.w1 = expect(floatTensor(*weights, first + QStringLiteral("weight")),
                      first + QStringLiteral("weight"), {mid, inputDim});
        m.b1 = expect(floatTensor(*weights, first + QStringLiteral("bias")),
                      first + QStringLiteral("bias"), {mid});
        if (mlp) {
            const QString second = base + QStringLiteral("2.");
            m.w2 = expect(floatTensor(*weights, second + QStringLiteral("weight")),
                          second + QStringLiteral("weight"), {outputDim, hidden});
            m.b2 = expect(floatTensor(*weights, second + QStringLiteral("bias")),
                          second + QStringLiteral("bias"), {outputDim});
        }
        layers.push_back(std::move(m));
    }
    return std::make_unique<KvzapScorer>(std::move(layers), inputDim, outputDim, dir,
                                         p.canonical());
}

} // namespace

PressEntry kvzapEntry()
{
    return {.name = QStringLiteral("kvzap"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "KVzap (kvpress kvzap/kvzap_press.py, a trained surrogate of KVzip+): "
                "score per kv-head = a per-layer linear or MLP (Linear, GELU, Linear) "
                "model of the attention input; weights from dir=FOLDER "
                "(config.json + model.safetensors, the nvidia/KVzap-* layout)"),
            .params = {{QStringLiteral("dir"), QString(),
                        QStringLiteral("folder with config.json and model.safetensors")}},
            .makeScorer = &makeKvzap};
}

} // namespace kvl
