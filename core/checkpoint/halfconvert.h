#pragma once

#include "checkpoint/tensorview.h"

#include <cstdint>
#include <vector>

namespace kvl {

// Exact IEEE conversions between float32 and the 16-bit float formats checkpoints
// are stored in. Widening (to float) is exact for every bit pattern, subnormals,
// infinities and NaN payloads included. Narrowing rounds to nearest, ties to even,
// as numpy and PyTorch do; overflow gives infinity, NaN stays NaN.
float halfToFloat(uint16_t bits);
float bf16ToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
uint16_t floatToBf16(float value);

// Bulk forms (n elements).
void halfToFloat(const uint16_t* in, float* out, int64_t n);
void bf16ToFloat(const uint16_t* in, float* out, int64_t n);

// A floating-point tensor (F32, F16, BF16 or F64) as float32 values: `out` holds
// tensor.numel() floats. Any other dtype throws kvl::Error naming the file and tensor.
void tensorToFloat(const TensorView& tensor, float* out);
std::vector<float> tensorToFloat(const TensorView& tensor);

} // namespace kvl
