#pragma once

#include <cstdint>
#include <vector>

namespace kvl {

// Where a product's bias enters the sum of one output.
enum class BiasOrder
{
    None,  // no bias: the first block's sum starts the output
    First, // the output starts at the bias, each block's sum added to it (sgemm, beta = 1)
    Last,  // the blocks' sums first, the bias added at the end (matmul, then add_)
};

// The order in which a BLAS sums y = x W^T + b, per output: K cut into `blocks` (their
// lengths, in order, summing to K); within a block one fused multiply-add after
// another in k order from zero; the blocks' sums then added in order (see BiasOrder).
// OpenBLAS's sgemm sums so, with blocks its level-3 driver chooses (docs/engine-speed.md,
// "A one-row product that sums as sgemm does").
struct SumOrder
{
    std::vector<int32_t> blocks;
    BiasOrder bias = BiasOrder::None;

    bool operator==(const SumOrder&) const = default;
};

// How the weights are stored: float32, or 16-bit and widened as they are read.
enum class WeightFormat
{
    F32,
    BF16,
    F16
};

// The products a few rows at a time (decode steps) spend their time on, summed in
// `order`, so they equal the BLAS's bits when `order` is the BLAS's. x [rows, K] and
// W [N, K] row-major and contiguous (in `format`; 16-bit weights are widened exactly,
// so the sums are those over the float32 matrix), bias [N] (null for BiasOrder::None),
// y [rows, N]. Streams W once for all rows, 16 outputs at a time turned into columns
// so that each lane sums one output in k order, in parallel over the outputs.
// Needs AVX2, FMA and F16C (exactGemvAvailable()).
void exactGemv(const float* x, int64_t rows, const void* w, WeightFormat format, int64_t n,
               int64_t k, const float* bias, const SumOrder& order, float* y);

// The same sums one scalar at a time: the definition the kernel is tested against, and
// what calibration uses on a few outputs.
void exactGemvReference(const float* x, int64_t rows, const void* w, WeightFormat format, int64_t n,
                        int64_t k, const float* bias, const SumOrder& order, float* y, int64_t ldy);

// The same sums for a K-major matrix v [K, N] (row stride ldv), y = x v + b: the
// attention's probabilities times a head's cached values. float32 only.
void exactKMajorProduct(const float* x, int64_t rows, const float* v, int64_t ldv, int64_t n,
                        int64_t k, const float* bias, const SumOrder& order, float* y);
void exactKMajorReference(const float* x, int64_t rows, const float* v, int64_t ldv, int64_t n,
                          int64_t k, const float* bias, const SumOrder& order, float* y,
                          int64_t ldy);

// A decode step's attention products for every kv-head in one parallel pass, where one
// call per head would fork and join twice per layer. `batch` independent float32
// products without bias (order.bias must be BiasOrder::None), each output summed as the
// one-head functions sum it, bit for bit:
// - exactGemvBatch: exactGemv's with x_i = x + i * rows * K (contiguous), W_i = w + i *
//   wStride [N, K] (the scores against cached keys), into y_i = y + i * yBatch, row
//   stride ldy (a strided view into a wider scores buffer);
// - exactKMajorBatch: exactKMajorProduct's with x_i = x + i * xBatch, row stride ldx
//   (the probabilities, a view into that buffer), v_i = v + i * vStride [K, N], row
//   stride ldv (the outputs from cached values), into y_i = y + i * rows * N.
void exactGemvBatch(const float* x, int64_t batch, int64_t rows, const float* w, int64_t wStride,
                    int64_t n, int64_t k, const SumOrder& order, float* y, int64_t yBatch,
                    int64_t ldy);
void exactKMajorBatch(const float* x, int64_t xBatch, int64_t ldx, int64_t batch, int64_t rows,
                      const float* v, int64_t vStride, int64_t ldv, int64_t n, int64_t k,
                      const SumOrder& order, float* y);

// Whether products of 4 rows or more, and exactKMajorBatch's, may use AVX-512 where the
// CPU has it (default on; the sums are the same bits either way). Returns the previous
// setting. For tests, which run both kernels on one machine.
bool setExactGemvWideKernels(bool enabled);

// Whether this CPU runs exactGemv (AVX2, FMA, F16C).
bool exactGemvAvailable();

} // namespace kvl
