#include "model/stepbmm.h"

#include "model/blassumorder.h"
#include "model/exactgemv.h"

#include <torch/types.h>

namespace kvl {

namespace {

// Query rows of a step (the group's heads for every configuration of a lockstep batch)
// up to which the products run as exactGemv; a prefill-sized product stays with sgemm.
constexpr int64_t kMaxStepRows = 128;

// What stepBmm can run as exactGemvBatch or exactKMajorBatch: float32, rows with unit
// element stride, keys as the transpose of contiguous rows or values K-major.
struct StepProduct
{
    bool exact = false;
    bool kMajor = false;
    int64_t batch = 0, rows = 0, k = 0, n = 0;
    BlasSumOrders::Shape shape;
};

StepProduct classify(const at::Tensor& a, const at::Tensor& b)
{
    StepProduct p;
    const bool floats = a.dim() == 3 && b.dim() == 3 && a.scalar_type() == at::kFloat &&
                        b.scalar_type() == at::kFloat && a.size(0) == b.size(0) &&
                        a.size(2) == b.size(1) && !a.requires_grad() && !b.requires_grad();
    if (!floats || !exactGemvEnabled())
        return p;
    p.batch = a.size(0);
    p.rows = a.size(1);
    p.k = a.size(2);
    p.n = b.size(2);
    // Keys: b[i] = K^T with K [N, K] contiguous. Values: b[i] = V [K, N], columns adjacent.
    const bool transposedRows = b.stride(1) == 1 && b.stride(2) == p.k;
    p.kMajor = !transposedRows && b.stride(2) == 1 && b.stride(1) >= p.n;
    // The values' product reads the probabilities in place, row by row.
    const bool rowsInPlace = a.stride(2) == 1 && a.stride(1) >= p.k;
    p.exact = p.rows >= 1 && p.rows <= kMaxStepRows && p.k >= 1 && p.n >= 1 && p.batch >= 1 &&
              (transposedRows || (p.kMajor && rowsInPlace));
    p.shape.rows = p.rows;
    p.shape.n = p.n;
    p.shape.k = p.k;
    p.shape.inputDims = 3;
    p.shape.inputContiguous = a.is_contiguous();
    p.shape.kMajor = p.kMajor;
    p.shape.batch = p.batch;
    return p;
}

// The product through the exact kernels into y (batch stride yBatch, row stride ldy; the
// values' outputs are always contiguous).
void runExact(const StepProduct& p, const SumOrder& order, const at::Tensor& a,
              const at::Tensor& b, float* y, int64_t yBatch, int64_t ldy)
{
    if (p.kMajor) {
        exactKMajorBatch(a.data_ptr<float>(), a.stride(0), a.stride(1), p.batch, p.rows,
                         b.data_ptr<float>(), b.stride(0), b.stride(1), p.n, p.k, order, y);
        return;
    }
    const at::Tensor x = a.contiguous(); // the step's query rows: a few hundred floats
    exactGemvBatch(x.data_ptr<float>(), p.batch, p.rows, b.data_ptr<float>(), b.stride(0), p.n,
                   p.k, order, y, yBatch, ldy);
}

// at::bmm's product, which teaches BlasSumOrders the shape's order.
at::Tensor learnFrom(const StepProduct& p, const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor reference = at::bmm(a, b);
    // Every batch is the same call: the first one teaches.
    BlasSumOrders::instance().learn(p.shape, a[0].contiguous(), p.kMajor ? b[0] : b[0].t(), {},
                                    reference[0]);
    return reference;
}

} // namespace

at::Tensor stepBmm(const at::Tensor& a, const at::Tensor& b)
{
    const StepProduct p = classify(a, b);
    if (!p.exact)
        return at::bmm(a, b);
    if (const std::optional<SumOrder> order = BlasSumOrders::instance().orderOf(p.shape)) {
        // Every kv-head in one pass: a call per head forked twice per layer, 96 times
        // in a step of a 24-layer model.
        at::Tensor y = at::empty({p.batch, p.rows, p.n}, a.options());
        runExact(p, *order, a, b, y.data_ptr<float>(), p.rows * p.n, p.n);
        return y;
    }
    return learnFrom(p, a, b);
}

void stepBmmInto(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out)
{
    const StepProduct p = classify(a, b);
    const bool direct = p.exact && !p.kMajor && out.scalar_type() == at::kFloat &&
                        out.dim() == 3 && out.size(0) == p.batch && out.size(1) == p.rows &&
                        out.size(2) == p.n && out.stride(2) == 1 && out.stride(1) >= p.n;
    if (direct)
        if (const std::optional<SumOrder> order = BlasSumOrders::instance().orderOf(p.shape)) {
            runExact(p, *order, a, b, out.data_ptr<float>(), out.stride(0), out.stride(1));
            return;
        }
    out.copy_(p.exact ? learnFrom(p, a, b) : at::bmm(a, b));
}

} // namespace kvl
