#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>
#include <cstdint>

namespace kvl {

// The float32 workspace one 16-bit weight matrix is widened into before its product:
// 8 Mi floats (32 MB). A matrix with more elements (an LM head) is multiplied in row
// blocks of at most this size, so the float32 copy never grows to the model's size.
constexpr int64_t kLinearWorkspaceElements = int64_t(8) << 20;

// y = x W^T + b for activations x [..., in] and a weight W [out, in] in any dtype the
// loader keeps (see loadModelWeights):
//  - W in x's dtype: at::linear, nothing else.
//  - W in F16/BF16, `compute` float32: W is widened into a reused per-thread workspace
//    (whole, or in row blocks of `workspaceElements`) just before the product; the
//    result is what at::linear gives on W.to(float), bit for bit up to BLAS blocking.
//  - `compute` BF16/F16: x and W are multiplied in that dtype (W cast when stored
//    otherwise) and the result widened back to x's dtype. The caller has checked that
//    the machine can (checkComputeDType).
// `bias` (may be undefined) is float32 or W's dtype.
at::Tensor linear(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias = {},
                  at::ScalarType compute = at::kFloat,
                  int64_t workspaceElements = kLinearWorkspaceElements);

// Rows `ids` of an embedding table in any floating dtype, as float32 (only the rows
// are widened).
at::Tensor embeddingRows(const at::Tensor& table, const at::Tensor& ids);

// A float32 copy of a weight (a view when it already is float32): for the few
// consumers that read a matrix directly (one layer at a time).
at::Tensor floatWeight(const at::Tensor& weight);

// Widens `rows` rows from `row0` of a contiguous F16/BF16 matrix into `out`
// (rows x cols floats), in parallel, exactly (every bit pattern, subnormals and NaN
// payloads included).
void widenRows(const at::Tensor& weight, int64_t row0, int64_t rows, float* out);

} // namespace kvl
