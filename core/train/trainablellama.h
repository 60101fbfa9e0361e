#pragma once

#include "checkpoint/modelconfig.h"
#include "train/trainspec.h"
#include "model/transformer.h"

#include <QString>
#include <map>
#include <memory>
#include <torch/types.h>

namespace kvl {

// The bundled model while it trains: the engine's own Transformer over weights that
// require grad, so training and inference run one forward. Parameters are kept by
// their Hugging Face names; saving writes them out as a checkpoint the engine's
// normal loader reads.
class TrainableLlama
{
  public:
    // Fresh weights drawn as `init` says (trainspec.h), norms at 1. With
    // `previousTokenHead`, layer 0's first kv-head (and its query heads) starts as a
    // previous-token head (plantPreviousTokenHead).
    TrainableLlama(const ModelConfig& config, quint64 seed, bool previousTokenHead = false,
                   WeightInit init = WeightInit::Gpt2);
    // Weights from a checkpoint directory written by save() (for resuming).
    static TrainableLlama load(const QString& dir);
    // `config`'s shape with the checkpoint's weights; layers beyond the checkpoint's are
    // appended with fresh weights (seeded) and zero o_proj / down_proj, so the grown
    // model's logits equal the checkpoint's. Throws kvl::Error naming the directory
    // when the shapes (other than the layer count) differ or it has more layers.
    static TrainableLlama grownFrom(const QString& dir, const ModelConfig& config, quint64 seed);

    const ModelConfig& config() const { return m_model->config(); }
    // Every parameter by name (sorted); all require grad and alias the model's tensors.
    const std::map<QString, torch::Tensor>& named() const { return m_params; }
    // Whether a parameter takes weight decay (matrices; not norms or biases).
    bool decays(const QString& name) const;

    // ids int64 [B, T] -> logits float32 [B, T, vocab], differentiable.
    torch::Tensor forward(const torch::Tensor& ids) const { return m_model->forward(ids); }
    // The same in two steps: hidden states [B, T, hidden], then logits of any of them.
    torch::Tensor finalHidden(const torch::Tensor& ids) const { return m_model->finalHidden(ids); }
    torch::Tensor logits(const torch::Tensor& hidden) const { return m_model->logits(hidden); }

    // config.json + model.safetensors (+ tokenizer.json copied from tokenizerPath).
    void save(const QString& dir, const QString& tokenizerPath) const;

  private:
    TrainableLlama(const ModelConfig& config, ModelWeights weights);

    std::unique_ptr<Transformer> m_model;
    std::map<QString, torch::Tensor> m_params;
};

} // namespace kvl
