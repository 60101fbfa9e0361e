#pragma once

#include "checkpoint/modelconfig.h"

#include <QString>
#include <map>
#include <torch/types.h>

namespace kvl {

class Tokenizer;

// The bundled model while it trains: a Llama decoder whose parameters are plain
// tensors named as Hugging Face names them, so that saving is writing them out and
// the engine's normal loader reads the result. The forward is batched and causal
// (training needs [batch, time]); the engine's own forward serves inference, and a
// test checks that the two agree on a saved checkpoint.
class TrainableLlama
{
  public:
    // Fresh weights: normal(0, 0.02), residual projections scaled by 1/sqrt(2·layers).
    TrainableLlama(const ModelConfig& config, quint64 seed);
    // Weights from a checkpoint directory written by save() (for resuming).
    static TrainableLlama load(const QString& dir);

    const ModelConfig& config() const { return m_config; }
    // Parameters in a stable order (sorted by name); all require grad.
    std::vector<torch::Tensor> parameters() const;
    const std::map<QString, torch::Tensor>& named() const { return m_params; }
    // Names whose parameters take weight decay (matrices; not norms).
    bool decays(const QString& name) const;

    // ids int64 [B, T] -> logits float32 [B, T, vocab].
    torch::Tensor forward(const torch::Tensor& ids) const;

    // config.json + model.safetensors (+ tokenizer.json copied from tokenizerPath).
    void save(const QString& dir, const QString& tokenizerPath) const;

  private:
    explicit TrainableLlama(const ModelConfig& config);
    torch::Tensor p(const QString& name) const { return m_params.at(name); }

    ModelConfig m_config;
    std::map<QString, torch::Tensor> m_params;
};

// config.json text for a ModelConfig of the Llama family (what save() writes).
QByteArray llamaConfigJson(const ModelConfig& config);

} // namespace kvl
