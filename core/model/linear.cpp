#include "model/linear.h"

#include "checkpoint/halfconvert.h"
#include "model/blassumorder.h"
#include "model/cpufeatures.h"

#include <torch/types.h>

#include <ATen/Parallel.h>

#include <immintrin.h>
#include <memory>

namespace kvl {

namespace {

// The per-thread float32 buffer 16-bit weights are widened into. Raw memory, wrapped
// by at::from_blob for each product: the tensor never outlives the call that fills it
// (linear() returns a fresh result), and it is not an inference tensor, so the same
// buffer serves inference and no-grad code alike.
struct Workspace
{
    std::unique_ptr<float[]> data;
    int64_t size = 0;

    float* reserve(int64_t elements)
    {
        if (elements > size) {
            data.reset(new float[size_t(elements)]);
            size = elements;
        }
        return data.get();
    }
};

Workspace& workspace()
{
    thread_local Workspace w;
    return w;
}

bool isHalfType(at::ScalarType t)
{
    return t == at::kHalf || t == at::kBFloat16;
}

// F16 -> F32 with the F16C instruction (exact for every finite value and subnormals;
// MXCSR's flush modes do not apply to it); the scalar conversion for the tail.
__attribute__((target("avx,f16c"))) void halfToFloatF16c(const uint16_t* in, float* out, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i)
        out[i] = halfToFloat(in[i]);
}

bool hasF16c()
{
    return cpuFeatures().avx && cpuFeatures().f16c;
}

void widen(at::ScalarType type, const uint16_t* in, float* out, int64_t n)
{
    if (type == at::kBFloat16)
        bf16ToFloat(in, out, n); // a shift per element: the compiler vectorizes it
    else if (hasF16c())
        halfToFloatF16c(in, out, n);
    else
        halfToFloat(in, out, n);
}

// Rows of a 16-bit matrix widened at once into a workspace of `workspaceElements`
// floats: the whole matrix when it has at most this many rows, else row blocks.
int64_t widenedBlockRows(int64_t workspaceElements, int64_t columns)
{
    return std::max<int64_t>(1, workspaceElements / std::max<int64_t>(1, columns));
}

// Products of at most this many rows (a decode step: one row per configuration) may run
// as exactGemv; larger ones are matrix products sgemm runs near its peak.
constexpr int64_t kMaxExactGemvRows = 16;

// Whether y = x W^T + b may run as exactGemv: a few float32 rows, a contiguous float32
// or 16-bit weight, a float32 bias, nothing autograd must see.
bool exactGemvCandidate(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    const int64_t k = x.dim() > 0 ? x.size(-1) : 0;
    const int64_t rows = k > 0 ? x.numel() / k : 0;
    const at::ScalarType w = weight.scalar_type();
    return rows >= 1 && rows <= kMaxExactGemvRows && x.scalar_type() == at::kFloat &&
           weight.dim() == 2 && weight.size(1) == k && weight.is_contiguous() &&
           (w == at::kFloat || isHalfType(w)) && !x.requires_grad() && !weight.requires_grad() &&
           (!bias.defined() || (bias.scalar_type() == at::kFloat && bias.dim() == 1 &&
                                bias.is_contiguous() && !bias.requires_grad())) &&
           exactGemvEnabled();
}

// The product through the BLAS: at::linear, 16-bit weights widened into the workspace
// first (whole, or in row blocks when larger than it).
at::Tensor blasLinear(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                      int64_t workspaceElements)
{
    if (weight.scalar_type() == x.scalar_type() || !isHalfType(weight.scalar_type()))
        return at::linear(x, weight, bias);
    // Gradients through x would keep the workspace for the backward pass, which the
    // next call overwrites: give autograd its own copy.
    if (at::GradMode::is_enabled() && x.requires_grad())
        return at::linear(x, weight.to(x.scalar_type()), bias);

    const int64_t out = weight.size(0), in = weight.size(1);
    const at::Tensor w = weight.contiguous();
    const auto options = at::TensorOptions().dtype(at::kFloat);
    const int64_t blockRows = widenedBlockRows(workspaceElements, in);
    if (out <= blockRows) {
        float* buffer = workspace().reserve(out * in);
        widenRows(w, 0, out, buffer);
        return at::linear(x, at::from_blob(buffer, {out, in}, options), bias);
    }
    // A matrix larger than the workspace (an LM head): row blocks, each product written
    // straight into its columns of the result.
    std::vector<int64_t> shape = x.sizes().vec();
    shape.back() = out;
    const at::Tensor x2 = x.reshape({-1, in});
    at::Tensor y = at::empty({x2.size(0), out}, options);
    float* buffer = workspace().reserve(blockRows * in);
    for (int64_t r = 0; r < out; r += blockRows) {
        const int64_t n = std::min(blockRows, out - r);
        widenRows(w, r, n, buffer);
        at::Tensor slice = y.narrow(1, r, n);
        at::mm_out(slice, x2, at::from_blob(buffer, {n, in}, options).t());
    }
    if (bias.defined())
        y.add_(bias);
    return y.view(shape);
}

} // namespace

void widenRows(const at::Tensor& weight, int64_t row0, int64_t rows, float* out)
{
    const int64_t cols = weight.size(1);
    const auto* in = static_cast<const uint16_t*>(weight.data_ptr()) + row0 * cols;
    const at::ScalarType type = weight.scalar_type();
    constexpr int64_t kGrain = int64_t(1) << 16; // elements per task: ~0.2 ms of work
    at::parallel_for(0, rows * cols, kGrain, [&](int64_t begin, int64_t end) {
        widen(type, in + begin, out + begin, end - begin);
    });
}

at::Tensor linear(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                  at::ScalarType compute, int64_t workspaceElements)
{
    if (compute != at::kFloat) {
        const at::Tensor w = weight.scalar_type() == compute ? weight : weight.to(compute);
        const at::Tensor b = bias.defined() ? bias.to(compute) : bias;
        return at::linear(x.to(compute), w, b).to(x.scalar_type());
    }
    if (!exactGemvCandidate(x, weight, bias))
        return blasLinear(x, weight, bias, workspaceElements);
    // A few rows: exactGemv in the BLAS's own order once BlasSumOrders has learned it
    // for this shape and path; until then (and where it never does) the BLAS, whose
    // result teaches it. Either way the bits are the BLAS path's.
    const int64_t k = x.size(-1), rows = x.numel() / k, n = weight.size(0);
    const bool rowBlocks =
        isHalfType(weight.scalar_type()) && n > widenedBlockRows(workspaceElements, k);
    const BlasSumOrders::Shape shape{
        rows, n, k, weight.scalar_type(), bias.defined(), x.dim(), x.is_contiguous(), rowBlocks};
    BlasSumOrders& orders = BlasSumOrders::instance();
    const at::Tensor x2 = x.reshape({rows, k}).contiguous();
    if (const std::optional<SumOrder> order = orders.orderOf(shape)) {
        at::Tensor y = at::empty({rows, n}, x.options());
        exactGemv(x2.data_ptr<float>(), rows, weight.data_ptr(),
                  weightFormatOf(weight.scalar_type()), n, k,
                  bias.defined() ? bias.data_ptr<float>() : nullptr, *order, y.data_ptr<float>());
        std::vector<int64_t> shapeOut = x.sizes().vec();
        shapeOut.back() = n;
        return y.view(shapeOut);
    }
    at::Tensor reference = blasLinear(x, weight, bias, workspaceElements);
    orders.learn(shape, x2, weight, bias, reference);
    return reference;
}

at::Tensor embeddingRows(const at::Tensor& table, const at::Tensor& ids)
{
    const at::Tensor rows = at::embedding(table, ids);
    return rows.scalar_type() == at::kFloat ? rows : rows.to(at::kFloat);
}

at::Tensor floatWeight(const at::Tensor& weight)
{
    return weight.scalar_type() == at::kFloat ? weight : weight.to(at::kFloat);
}

} // namespace kvl
