#include "model/stepbmm.h"

#include "model/blassumorder.h"
#include "model/exactgemv.h"

#include <torch/types.h>

namespace kvl {

namespace {

// Query rows of a step (the group's heads for every configuration of a lockstep batch)
// up to which the products run as exactGemv; a prefill-sized product stays with sgemm.
constexpr int64_t kMaxStepRows = 128;

} // namespace

at::Tensor stepBmm(const at::Tensor& a, const at::Tensor& b)
{
    const bool floats = a.dim() == 3 && b.dim() == 3 && a.scalar_type() == at::kFloat &&
                        b.scalar_type() == at::kFloat && a.size(0) == b.size(0) &&
                        a.size(2) == b.size(1) && !a.requires_grad() && !b.requires_grad();
    if (!floats || !exactGemvEnabled())
        return at::bmm(a, b);
    const int64_t batch = a.size(0), rows = a.size(1), k = a.size(2), n = b.size(2);
    // Keys: b[i] = K^T with K [N, K] contiguous. Values: b[i] = V [K, N], columns adjacent.
    const bool transposedRows = b.stride(1) == 1 && b.stride(2) == k;
    const bool kMajor = !transposedRows && b.stride(2) == 1 && b.stride(1) >= n;
    if (rows < 1 || rows > kMaxStepRows || k < 1 || n < 1 || batch < 1 ||
        (!transposedRows && !kMajor))
        return at::bmm(a, b);

    BlasSumOrders::Shape shape;
    shape.rows = rows;
    shape.n = n;
    shape.k = k;
    shape.inputDims = 3;
    shape.inputContiguous = a.is_contiguous();
    shape.kMajor = kMajor;
    shape.batch = batch;
    BlasSumOrders& orders = BlasSumOrders::instance();
    const at::Tensor x = a.contiguous();
    if (const std::optional<SumOrder> order = orders.orderOf(shape)) {
        // Every kv-head in one pass: a call per head forked twice per layer, 96 times
        // in a step of a 24-layer model.
        at::Tensor y = at::empty({batch, rows, n}, a.options());
        if (kMajor)
            exactKMajorBatch(x.data_ptr<float>(), batch, rows, b.data_ptr<float>(), b.stride(0),
                             b.stride(1), n, k, *order, y.data_ptr<float>());
        else
            exactGemvBatch(x.data_ptr<float>(), batch, rows, b.data_ptr<float>(), b.stride(0), n,
                           k, *order, y.data_ptr<float>());
        return y;
    }
    at::Tensor reference = at::bmm(a, b);
    // Every batch is the same call: the first one teaches.
    orders.learn(shape, x[0], kMajor ? b[0] : b[0].t(), {}, reference[0]);
    return reference;
}

} // namespace kvl
