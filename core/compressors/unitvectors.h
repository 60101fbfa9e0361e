#pragma once

#include <ATen/ATen.h>

namespace kvl {

// Rows scaled to unit L2 norm along the last dimension, exactly as
// torch.nn.functional.normalize(x, p=2, dim=-1) computes them (eps 1e-12). Written out
// so that the presses using it need only ATen's headers, not torch::nn's.
inline at::Tensor unitVectors(const at::Tensor& x)
{
    return x / x.norm(2, -1, true).clamp_min(1e-12).expand_as(x);
}

} // namespace kvl
