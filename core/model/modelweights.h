#pragma once

#include "checkpoint/modelconfig.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <c10/core/ScalarType.h>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace kvl {

class CheckpointDir;
struct TensorView;

// A tensor of `type` over a safetensors view's mapped bytes: wrapped without a copy when
// the file holds that dtype (it then lives only as long as the mapping), converted
// otherwise. Throws kvl::Error naming the file and tensor for a dtype other than F32,
// F16, BF16 or F64.
at::Tensor tensorOfView(const TensorView& view, at::ScalarType type);

// Weights of one decoder layer, Hugging Face layout ([out, in] matrices). Vectors
// (norms, biases) are float32; matrices are float32 or, loaded resident, the
// checkpoint's F16/BF16 (see loadModelWeights). Multiply them with kvl::linear.
struct LayerWeights
{
    at::Tensor inputNorm;           // [hidden]
    at::Tensor q, k, v, o;          // [heads*hd, hidden], [kv*hd, hidden] x2, [hidden, heads*hd]
    at::Tensor qBias, kBias, vBias; // undefined unless config.attentionBias (Qwen2)
    at::Tensor qNorm, kNorm;        // [head_dim], undefined unless config.qkNorm (Qwen3)
    at::Tensor postAttentionNorm;   // [hidden]
    at::Tensor gate, up, down;      // [inter, hidden] x2, [hidden, inter]
    at::ScalarType compute = at::kFloat; // the dtype the projections multiply in
};

// All weights of a model. Tensors loaded from F32 safetensors (and, loaded resident,
// F16/BF16 matrices) wrap the read-only memory map without copying: they are valid
// while the CheckpointDir lives and must never be written (clone them to train).
struct ModelWeights
{
    at::Tensor embed; // [vocab, hidden]
    std::vector<LayerWeights> layers;
    at::Tensor norm;                     // [hidden]
    at::Tensor lmHead;                   // [vocab, hidden]; the same tensor as embed when tied
    at::ScalarType compute = at::kFloat; // the LM head's product dtype, as the layers'

    // Every tensor with its Hugging Face name (lm_head.weight omitted when tied), in
    // checkpoint order; the pointers let a trainer swap in parameters.
    std::vector<std::pair<QString, at::Tensor*>> named(const ModelConfig& config);
};

// How loadModelWeights keeps the weights.
struct WeightLoadOptions
{
    // False: every tensor float32 (F16/BF16 converted; what the trainer needs). True:
    // F16/BF16 matrices stay 16-bit over the memory map, without a copy, and
    // kvl::linear widens one matrix at a time just before its product: the model
    // takes about its file size in memory, not twice that. Vectors become float32.
    bool resident = false;
    // The dtype products run in: float32, or BF16/F16 (matrices stored otherwise are
    // converted to it once at load). Checked with checkComputeDType first.
    at::ScalarType compute = at::kFloat;
};

// Reads every tensor the config asks for, as `options` say; a missing or mis-shaped
// tensor, or one holding NaN or Inf, throws kvl::Error naming the file and the tensor.
ModelWeights loadModelWeights(const CheckpointDir& checkpoint,
                              const WeightLoadOptions& options = {});

// The compute dtype a --dtype value names: f32 (float32), bf16 (bfloat16), f16
// (float16, half); kvl::Error naming the option otherwise.
at::ScalarType computeDTypeFromName(const QString& name);
QString computeDTypeName(at::ScalarType type); // "f32", "bf16", "f16"

// Throws kvl::Error naming `file` (the model's weights) when this machine's libtorch
// cannot multiply matrices in `compute` (e.g. F16 on a CPU build); does nothing for
// float32.
void checkComputeDType(at::ScalarType compute, const QString& file);

// Checks, without reading any weight, that every tensor the config asks for is there
// with its shape and a supported dtype (what `info` checks): kvl::Error naming the
// file and the tensor otherwise.
void checkModelTensors(const CheckpointDir& checkpoint);

// Random weights of the config's shapes (normal, std `scale`; norms near 1).
ModelWeights randomModelWeights(const ModelConfig& config, uint64_t seed, double scale = 0.02);
// The same tensors one at a time, in checkpoint order (HF name, float32 values), so a
// writer need not hold the whole float32 model: randomModelWeights is built from it.
void forEachRandomTensor(const ModelConfig& config, uint64_t seed, double scale,
                         const std::function<void(const QString&, const at::Tensor&)>& use);

} // namespace kvl
