#pragma once

#include <ATen/core/Tensor.h>
#include <QString>

namespace kvl {

// Reads a NumPy .npy file (format 1.0-3.0, little-endian float32/float64, C order) into
// a float32 tensor. Throws kvl::Error naming the file and the problem otherwise.
at::Tensor readNpy(const QString& path);

} // namespace kvl
