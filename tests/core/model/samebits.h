#pragma once

#include <ATen/core/Tensor.h>

#include <cstring>

namespace kvltest {

// Whether two float32 tensors hold the same values bit for bit (the same shapes; -0.0 and
// 0.0 differ): what the decode paths that must keep the BLAS's sums are held to.
inline bool sameBits(const at::Tensor& a, const at::Tensor& b)
{
    const at::Tensor x = a.contiguous(), y = b.contiguous();
    return x.sizes() == y.sizes() &&
           std::memcmp(x.data_ptr<float>(), y.data_ptr<float>(), size_t(x.numel()) * 4) == 0;
}

} // namespace kvltest
