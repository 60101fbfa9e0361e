#pragma once

#include "checkpoint/modelconfig.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

namespace kvl {

class CheckpointDir;

// Weights of one decoder layer, float32, Hugging Face layout ([out, in] matrices).
struct LayerWeights
{
    at::Tensor inputNorm;           // [hidden]
    at::Tensor q, k, v, o;          // [heads*hd, hidden], [kv*hd, hidden] x2, [hidden, heads*hd]
    at::Tensor qBias, kBias, vBias; // undefined unless config.attentionBias (Qwen2)
    at::Tensor qNorm, kNorm;        // [head_dim], undefined unless config.qkNorm (Qwen3)
    at::Tensor postAttentionNorm;   // [hidden]
    at::Tensor gate, up, down;      // [inter, hidden] x2, [hidden, inter]
};

// All weights of a model. Tensors loaded from F32 safetensors wrap the read-only
// memory map without copying: they are valid while the CheckpointDir lives and must
// never be written (clone them to train).
struct ModelWeights
{
    at::Tensor embed; // [vocab, hidden]
    std::vector<LayerWeights> layers;
    at::Tensor norm;   // [hidden]
    at::Tensor lmHead; // [vocab, hidden]; the same tensor as embed when tied

    // Every tensor with its Hugging Face name (lm_head.weight omitted when tied), in
    // checkpoint order; the pointers let a trainer swap in parameters.
    std::vector<std::pair<QString, at::Tensor*>> named(const ModelConfig& config);
};

// Reads and converts (F16/BF16 -> F32) every tensor the config asks for; a missing or
// mis-shaped tensor, or one holding NaN or Inf, throws kvl::Error naming the file and
// the tensor.
ModelWeights loadModelWeights(const CheckpointDir& checkpoint);

// Checks, without reading any weight, that every tensor the config asks for is there
// with its shape and a supported dtype (what `info` checks): kvl::Error naming the
// file and the tensor otherwise.
void checkModelTensors(const CheckpointDir& checkpoint);

// Random weights of the config's shapes (normal, std `scale`; norms near 1).
ModelWeights randomModelWeights(const ModelConfig& config, uint64_t seed, double scale = 0.02);

} // namespace kvl
