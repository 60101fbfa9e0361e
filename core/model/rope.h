#pragma once

#include "checkpoint/modelconfig.h"

#include <ATen/core/Tensor.h>
#include <utility>

namespace kvl {

// Rotary position embedding as Hugging Face computes it (rotate_half layout, float32
// frequencies), with rope_scaling none / linear / llama3.
class Rope
{
  public:
    explicit Rope(const ModelConfig& config);

    const at::Tensor& invFreq() const { return m_invFreq; } // [head_dim / 2]
    // cos and sin [T, head_dim] for int64 positions [T].
    std::pair<at::Tensor, at::Tensor> cosSin(const at::Tensor& positions) const;
    // x [..., T, n, head_dim] rotated with cos/sin [T, head_dim].
    static at::Tensor apply(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin);

  private:
    at::Tensor m_invFreq;
};

} // namespace kvl
