#pragma once

#include "checkpoint/tensorview.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace kvl {

// What the tensor writers (safetensors, GGUF) check of a tensor before they take it: that
// `bytes` is exactly the size of `shape` in `dtype`. kvl::Error naming `what` otherwise.
// The shape itself must already be valid (checkedElementCount).
void checkTensorBytes(const QString& what, const std::vector<int64_t>& shape, DType dtype,
                      int64_t bytes);

} // namespace kvl
