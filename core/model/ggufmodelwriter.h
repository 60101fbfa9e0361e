#pragma once

#include "checkpoint/ggufvocab.h"
#include "checkpoint/ggufwriter.h"
#include "checkpoint/modelconfig.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <vector>

namespace kvl {

class Transformer;

// A model as a GGUF file in llama.cpp's conventions, computing the same function as the
// Hugging Face checkpoint it came from: Llama and Mistral as llama.cpp's `llama`
// architecture, Qwen2 as `qwen2`, Qwen3 as `qwen3`; llama.cpp's tensor names
// (token_embd, blk.N.attn_q, ...) and hyperparameter keys (<arch>.block_count, ...).
//
// For `llama` the rows of q_proj and k_proj (and their biases) are permuted within each
// head from Hugging Face's rotate-half layout (first half of a head's dimensions paired
// with the second) to the interleaved pairs llama.cpp's rope rotates (dimension 2i with
// 2i + 1); qwen2 and qwen3 rotate halves in llama.cpp too, so they are written as they
// are. Llama 3 rope scaling becomes the per-frequency divisors llama.cpp reads from
// rope_freqs.weight, computed from the engine's own frequencies (model/rope.h).
//
// Matrices are written in the dtype they are given (F32, F16 or BF16; other dtypes
// become F32), vectors (norms, biases) as F32, as llama.cpp's converter keeps them.
class GgufModelWriter
{
  public:
    // `name` becomes general.name. Throws kvl::Error for an architecture or rope
    // scaling llama.cpp's conventions here do not cover.
    GgufModelWriter(const ModelConfig& config, const GgufVocab& vocab, const QString& name);

    // One tensor by its Hugging Face name (model.layers.3.self_attn.q_proj.weight, ...);
    // kvl::Error for a name with no GGUF counterpart or a shape the config does not give.
    // The tensor is kept (not copied when already contiguous and of the written dtype)
    // until write().
    void add(const QString& hfName, const at::Tensor& tensor);
    // Every tensor of `weights` as the engine holds them.
    void addModel(const Transformer& model);

    void write(const QString& path);

    // llama.cpp's name for the architecture of `config` ("llama", "qwen2", "qwen3").
    static QString architecture(const ModelConfig& config);
    // llama.cpp's name for a Hugging Face tensor name; empty when there is none.
    static QString tensorName(const QString& hfName);

  private:
    ModelConfig m_config;
    QString m_arch;
    GgufWriter m_writer;
    std::vector<at::Tensor> m_kept; // the bytes m_writer points at
    DType m_matrixType = DType::F32;
    bool m_sawMatrix = false;
};

} // namespace kvl
