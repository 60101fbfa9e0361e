#pragma once

#include <ATen/core/Tensor.h>

namespace kvl {

// at::bmm(a, b) for a decode step's attention over its context: a [B, M, K] (the
// step's query rows, or their probabilities), b [B, K, N] either the transpose of a
// contiguous [B, N, K] (cached keys: scores) or K-major with unit column stride (cached
// values: outputs). Each batch is the same BLAS call, which OpenBLAS runs on all threads,
// handing packed panels between them through sched_yield loops: on a virtual machine
// that costs more than the product. So, as kvl::linear does, the product runs as
// exactGemv (or its K-major twin) in the BLAS's own order once BlasSumOrders has
// learned it for this shape, and as at::bmm until then. The bits are at::bmm's.
// `a` may be a strided view whose rows have unit stride (the probabilities inside the
// scores buffer of stepAttention): the values' product reads it in place.
at::Tensor stepBmm(const at::Tensor& a, const at::Tensor& b);

// The same product written into `out` [B, M, N], which may be a view with unit column
// stride and a longer row stride (the context's part of a scores buffer whose rows go on
// with the step's own keys): the keys' product writes there directly, anything else is
// computed as stepBmm and copied. The bits are at::bmm's either way.
void stepBmmInto(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out);

} // namespace kvl
