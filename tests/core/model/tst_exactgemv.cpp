// The decode-sized products (issue 36, item 2): exactGemv sums exactly as its order
// says (against a scalar definition, over tiles, tails, row groups and block lengths
// that are not multiples of 8); BlasSumOrders learns an order only when one candidate,
// and only one, equals the BLAS's bits, twice; and kvl::linear returns at::linear's
// bits for the products of a 0.5B model's decode step, learned or not; stepBmm returns
// at::bmm's for its attention over the context.
#include "model/blaskernels.h"
#include "model/blassumorder.h"
#include "model/engineinfo.h"
#include "model/exactgemv.h"
#include "model/linear.h"
#include "model/stepbmm.h"
#include "samebits.h"

#include <ATen/Parallel.h>
#include <torch/types.h>

#include <QtTest>

using namespace kvl;
using kvltest::sameBits;

namespace {

// kvl::linear's BLAS path for a 16-bit matrix larger than its workspace: products of
// row blocks of the widened matrix into their columns, then the bias. (With some kernel
// families a product over a block of rows sums otherwise than over the whole matrix.)
at::Tensor rowBlockProduct(const at::Tensor& x, const at::Tensor& wide, const at::Tensor& bias)
{
    const int64_t n = wide.size(0), k = wide.size(1);
    const int64_t blockRows = kLinearWorkspaceElements / k;
    const at::Tensor x2 = x.reshape({-1, k});
    at::Tensor y = at::empty({x2.size(0), n});
    for (int64_t r = 0; r < n; r += blockRows) {
        const int64_t rowsHere = std::min(blockRows, n - r);
        at::Tensor slice = y.narrow(1, r, rowsHere);
        at::mm_out(slice, x2, wide.narrow(0, r, rowsHere).t());
    }
    if (bias.defined())
        y.add_(bias);
    std::vector<int64_t> shape = x.sizes().vec();
    shape.back() = n;
    return y.view(shape);
}

SumOrder orderOf(std::vector<int32_t> blocks, BiasOrder bias)
{
    return SumOrder{std::move(blocks), bias};
}

} // namespace

class TestExactGemv : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        initEngineThreads();
        at::manual_seed(36);
    }

    void kernelSumsInItsOrder_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("n");
        QTest::addColumn<QList<int>>("blocks");
        QTest::addColumn<int>("bias");
        QTest::addColumn<int>("format");
        // Rows 1-3 read the weights straight into registers, 4 and more through the
        // buffer in groups of 6; n = 40 leaves 8 outputs past the last tile of 16.
        QTest::newRow("one row, 896 = 320+288+288")
            << 1 << 896 << QList<int>{320, 288, 288} << 0 << 0;
        QTest::newRow("two rows, bias first") << 2 << 128 << QList<int>{320, 288, 288} << 1 << 0;
        QTest::newRow("three rows, bias last") << 3 << 64 << QList<int>{448, 448} << 2 << 0;
        QTest::newRow("four rows, odd blocks") << 4 << 48 << QList<int>{13, 100, 7, 1} << 1 << 0;
        QTest::newRow("seven rows (6 + 1)") << 7 << 40 << QList<int>{64, 36} << 0 << 0;
        QTest::newRow("thirteen rows, bias last") << 13 << 40 << QList<int>{5, 3} << 2 << 0;
        QTest::newRow("one row, tail only") << 1 << 9 << QList<int>{33} << 1 << 0;
        QTest::newRow("25 rows (12 + 12 + 1 wide)") << 25 << 48 << QList<int>{320, 17} << 1 << 0;
        QTest::newRow("direct, odd blocks") << 3 << 32 << QList<int>{21, 11, 50} << 0 << 0;
        QTest::newRow("one row, 3 tiles") << 1 << 48 << QList<int>{320, 17} << 0 << 0;
        QTest::newRow("two rows, 5 tiles + 3") << 2 << 83 << QList<int>{100, 5} << 2 << 0;
        QTest::newRow("one row, 7 tiles, 3 columns") << 1 << 112 << QList<int>{2, 1} << 1 << 0;
        // 16-bit weights, widened as they are read.
        QTest::newRow("bf16, one row") << 1 << 40 << QList<int>{320, 288, 288} << 1 << 1;
        QTest::newRow("bf16, five rows, odd blocks") << 5 << 48 << QList<int>{13, 100, 7} << 2 << 1;
        QTest::newRow("f16, two rows") << 2 << 40 << QList<int>{64, 36, 5} << 0 << 2;
        QTest::newRow("f16, one row, 3 tiles") << 1 << 48 << QList<int>{320, 27} << 1 << 2;
        QTest::newRow("bf16, three rows, 5 tiles") << 3 << 80 << QList<int>{40, 9} << 2 << 1;
        QTest::newRow("f16, eight rows") << 8 << 32 << QList<int>{320, 192} << 1 << 2;
    }

    void kernelSumsInItsOrder()
    {
        if (!exactGemvAvailable())
            QSKIP("no AVX2/FMA/F16C: exactGemv is never used on this CPU");
        QFETCH(int, rows);
        QFETCH(int, n);
        QFETCH(QList<int>, blocks);
        QFETCH(int, bias);
        QFETCH(int, format);
        SumOrder order;
        int64_t k = 0;
        for (int b : blocks) {
            order.blocks.push_back(b);
            k += b;
        }
        order.bias = BiasOrder(bias);
        const at::ScalarType dtype = format == 1   ? at::kBFloat16
                                     : format == 2 ? at::kHalf
                                                   : at::kFloat;
        const at::Tensor x = at::randn({rows, k}), w = at::randn({n, k}).to(dtype),
                         b = at::randn({n});
        const float* bp = order.bias == BiasOrder::None ? nullptr : b.data_ptr<float>();
        at::Tensor fast = at::empty({rows, n}), slow = at::empty({rows, n}),
                   narrow = at::empty({rows, n});
        exactGemv(x.data_ptr<float>(), rows, w.data_ptr(), WeightFormat(format), n, k, bp, order,
                  fast.data_ptr<float>());
        // From 4 rows on, AVX-512 machines take 16-wide kernels: the AVX2 ones must agree.
        setExactGemvWideKernels(false);
        exactGemv(x.data_ptr<float>(), rows, w.data_ptr(), WeightFormat(format), n, k, bp, order,
                  narrow.data_ptr<float>());
        setExactGemvWideKernels(true);
        QVERIFY(sameBits(fast, narrow));
        exactGemvReference(x.data_ptr<float>(), rows, w.data_ptr(), WeightFormat(format), n, k, bp,
                           order, slow.data_ptr<float>(), n);
        QVERIFY(sameBits(fast, slow));
        // And the sum is the product (the order only moves the last bits).
        at::Tensor expected = at::matmul(x.to(at::kDouble), w.to(at::kFloat).to(at::kDouble).t());
        if (bp)
            expected += b.to(at::kDouble);
        QVERIFY(at::allclose(fast.to(at::kDouble), expected, 1e-4, 1e-4));
    }

    // The K-major product (a head's cached values [T, hd]) against its definition.
    void kMajorSumsInItsOrder()
    {
        if (!exactGemvAvailable())
            QSKIP("no AVX2/FMA/F16C");
        for (const auto& [rows, n, blocks] :
             std::vector<std::tuple<int, int, std::vector<int32_t>>>{{7, 64, {320, 320, 192, 192}},
                                                                     {1, 64, {33}},
                                                                     {14, 40, {5, 320, 11}},
                                                                     {70, 64, {448, 448, 101}}}) {
            int64_t k = 0;
            for (int32_t b : blocks)
                k += b;
            for (BiasOrder bias : {BiasOrder::None, BiasOrder::First, BiasOrder::Last}) {
                const SumOrder order{blocks, bias};
                const int64_t ldv = n + 3; // a view with a row stride of its own
                const at::Tensor x = at::randn({rows, k}), v = at::randn({k, ldv}),
                                 b = at::randn({n});
                const float* bp = bias == BiasOrder::None ? nullptr : b.data_ptr<float>();
                at::Tensor fast = at::empty({rows, n}), slow = at::empty({rows, n}),
                           narrow = at::empty({rows, n});
                exactKMajorProduct(x.data_ptr<float>(), rows, v.data_ptr<float>(), ldv, n, k, bp,
                                   order, fast.data_ptr<float>());
                setExactGemvWideKernels(false);
                exactKMajorProduct(x.data_ptr<float>(), rows, v.data_ptr<float>(), ldv, n, k, bp,
                                   order, narrow.data_ptr<float>());
                setExactGemvWideKernels(true);
                QVERIFY(sameBits(fast, narrow));
                exactKMajorReference(x.data_ptr<float>(), rows, v.data_ptr<float>(), ldv, n, k, bp,
                                     order, slow.data_ptr<float>(), n);
                QVERIFY2(sameBits(fast, slow),
                         qPrintable(QStringLiteral("rows %1, n %2, k %3").arg(rows).arg(n).arg(k)));
            }
        }
    }

    void candidatesHoldOpenBlasBlocks()
    {
        auto has = [](int64_t k, const std::vector<int32_t>& blocks) {
            for (const SumOrder& o : BlasSumOrders::candidates(k, false))
                if (o.blocks == blocks)
                    return true;
            return false;
        };
        // Haswell (GEMM_Q 320) and SkylakeX (448) on the 0.5B shape's inner dimensions.
        QVERIFY(has(896, {320, 288, 288}));
        QVERIFY(has(896, {448, 448}));
        std::vector<int32_t> down(14, 320);
        down.push_back(192);
        down.push_back(192);
        QVERIFY(has(4864, down));
        for (int64_t k : {1, 17, 896, 4864, 18944}) {
            const std::vector<SumOrder> all = BlasSumOrders::candidates(k, true);
            for (size_t i = 0; i < all.size(); ++i) {
                int64_t sum = 0;
                for (int32_t len : all[i].blocks) {
                    QVERIFY(len > 0);
                    sum += len;
                }
                QCOMPARE(sum, k);
                for (size_t j = 0; j < i; ++j)
                    QVERIFY(!(all[i] == all[j]));
            }
        }
    }

    // A BLAS that sums in a candidate order is learned after two calls; one that sums in
    // no candidate order is refused; inputs that cannot tell candidates apart teach
    // nothing.
    void learnsOnlyAnOrderItCanTell()
    {
        if (!exactGemvAvailable())
            QSKIP("no AVX2/FMA/F16C");
        BlasSumOrders& orders = BlasSumOrders::instance();
        orders.reset();
        const int64_t rows = 2, n = 64, k = 896;
        const at::Tensor w = at::randn({n, k});
        const SumOrder truth = orderOf({320, 288, 288}, BiasOrder::None);
        const BlasSumOrders::Shape shape{.rows = rows, .n = n, .k = k};
        auto blasLike = [&](const at::Tensor& x, const SumOrder& order, const at::Tensor& b = {}) {
            at::Tensor y = at::empty({rows, n});
            exactGemvReference(x.data_ptr<float>(), rows, w.data_ptr<float>(), WeightFormat::F32, n,
                               k, b.defined() ? b.data_ptr<float>() : nullptr, order,
                               y.data_ptr<float>(), n);
            return y;
        };
        // Zeros: every candidate gives zeros, so none is chosen.
        const at::Tensor zeros = at::zeros({rows, k});
        orders.learn(shape, zeros, w, {}, blasLike(zeros, truth));
        QVERIFY(!orders.orderOf(shape));
        for (int call = 0; call < 2; ++call) {
            QVERIFY(!orders.orderOf(shape));
            const at::Tensor x = at::randn({rows, k});
            orders.learn(shape, x, w, {}, blasLike(x, truth));
        }
        const std::optional<SumOrder> learned = orders.orderOf(shape);
        QVERIFY(learned);
        QVERIFY(*learned == truth);

        // Sums in double, rounded once: no candidate's bits.
        const BlasSumOrders::Shape other{
            .rows = rows, .n = n, .k = k, .bias = true, .inputDims = 3};
        const at::Tensor x = at::randn({rows, k}), b = at::randn({n});
        const at::Tensor exact =
            (at::matmul(x.to(at::kDouble), w.to(at::kDouble).t()) + b.to(at::kDouble))
                .to(at::kFloat);
        orders.learn(other, x, w, b, exact);
        QVERIFY(!orders.orderOf(other));
        for (int call = 0; call < 3; ++call) {
            const at::Tensor x2 = at::randn({rows, k});
            orders.learn(other, x2, w, b,
                         blasLike(x2, orderOf({320, 288, 288}, BiasOrder::First), b));
        }
        QVERIFY2(!orders.orderOf(other), "a refused shape stays refused");
        QVERIFY(orders.summary().contains(QStringLiteral("1 of 2")));
        orders.reset();
    }

    // The products of a decode step of the 0.5B shape (q/k/v with biases as Qwen2 has
    // them, o, gate/up, down, a 32k LM head) for 1-9 rows, 2-D and 3-D inputs: every
    // call returns at::linear's bits, the first ones (learning) and the later ones
    // (exactGemv) alike. With OpenBLAS's FMA kernels the shapes are learned.
    void linearKeepsBlasBits_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<int>("dtype");
        const int f32 = int(at::kFloat), bf16 = int(at::kBFloat16), f16 = int(at::kHalf);
        QTest::newRow("q 896x896 + bias") << 896 << 896 << true << f32;
        QTest::newRow("k 128x896 + bias") << 128 << 896 << true << f32;
        QTest::newRow("o 896x896") << 896 << 896 << false << f32;
        QTest::newRow("up 4864x896") << 4864 << 896 << false << f32;
        QTest::newRow("down 896x4864") << 896 << 4864 << false << f32;
        QTest::newRow("head 32000x896") << 32000 << 896 << false << f32;
        // 16-bit weights: widened whole into the workspace, or (a head larger than it)
        // in row blocks with the bias added after.
        QTest::newRow("q 896x896 + bias, bf16") << 896 << 896 << true << bf16;
        QTest::newRow("up 4864x896, f16") << 4864 << 896 << false << f16;
        QTest::newRow("down 896x4864, bf16") << 896 << 4864 << false << bf16;
        QTest::newRow("head 32000x896, bf16 (row blocks)") << 32000 << 896 << false << bf16;
        QTest::newRow("head 12000x896 + bias, f16 (row blocks)") << 12000 << 896 << true << f16;
    }

    void linearKeepsBlasBits()
    {
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(bool, bias);
        QFETCH(int, dtype);
        c10::InferenceMode guard;
        BlasSumOrders& orders = BlasSumOrders::instance();
        orders.reset();
        const at::Tensor w = (at::randn({n, k}) * 0.05).to(at::ScalarType(dtype));
        const at::Tensor wide = w.to(at::kFloat);
        const at::Tensor b = bias ? at::randn({n}) : at::Tensor();
        for (int rows : {1, 2, 3, 4, 9})
            for (bool batched : {false, true})
                for (int call = 0; call < 4; ++call) {
                    const at::Tensor x = batched ? at::randn({1, rows, k}) : at::randn({rows, k});
                    // The BLAS path: at::linear on the widened matrix, or for a 16-bit
                    // matrix larger than the workspace its row blocks, the bias added last.
                    const bool rowBlocks =
                        dtype != int(at::kFloat) && int64_t(n) * k > kLinearWorkspaceElements;
                    const at::Tensor blas =
                        rowBlocks ? rowBlockProduct(x, wide, b) : at::linear(x, wide, b);
                    QVERIFY2(sameBits(linear(x, w, b), blas),
                             qPrintable(QStringLiteral("rows %1, %2-D, call %3")
                                            .arg(rows)
                                            .arg(batched ? 3 : 2)
                                            .arg(call)));
                }
        const QString summary = orders.summary();
        const QString core = blasCoreName();
        qInfo("%s %s: %s", qPrintable(blasName()), qPrintable(core), qPrintable(summary));
        // OpenBLAS's Haswell kernels (Zen runs them too) sum every shape in a candidate
        // order; the SkylakeX family sends small products (m n k below about 10^6) to
        // kernels of another order, which stay with at::linear; older families do not
        // fuse the multiply-add, so nothing is learned there.
        const bool everyShape = core == QLatin1String("Haswell") || core == QLatin1String("Zen") ||
                                (core == QLatin1String("SkylakeX") && int64_t(n) * k >= 4864 * 896);
        if (exactGemvEnabled() && blasName() == QLatin1String("OpenBLAS") && everyShape)
            QVERIFY2(summary.startsWith(QStringLiteral("sgemm's order learned for 10 of 10")),
                     qPrintable(summary));
        orders.reset();
    }

    // OpenBLAS cuts K differently on one thread (level3.c rounds the last halves to the
    // kernel's unroll) and on several (level3_thread.c halves them): K = 961 leaves 321,
    // cut 160 + 161 or 161 + 160. An order learned on two threads must not be used on
    // one: kvl::linear keeps at::linear's bits when the thread count changes.
    void threadCountIsPartOfTheShape()
    {
        c10::InferenceMode guard;
        BlasSumOrders& orders = BlasSumOrders::instance();
        orders.reset();
        const int threads = at::get_num_threads();
        const at::Tensor w = at::randn({4864, 961}) * 0.05;
        for (int t : {threads, 1, threads})
            for (int call = 0; call < 4; ++call) {
                at::set_num_threads(t);
                const at::Tensor x = at::randn({1, 961});
                QVERIFY2(sameBits(kvl::linear(x, w), at::linear(x, w)),
                         qPrintable(QStringLiteral("%1 threads, call %2").arg(t).arg(call)));
            }
        at::set_num_threads(threads);
        qInfo("%s", qPrintable(orders.summary()));
        orders.reset();
    }

    // A decode step's attention over its context (stepBmm): scores against the cached
    // keys (the transpose of [kv, T, hd]) and outputs from the cached values ([kv, T, hd],
    // K-major), for one configuration (7 rows: Qwen2-0.5B's group) or a lockstep batch
    // of ten, and contexts whose length leaves odd remainders for the block halves; the
    // heads' caches contiguous, or views of longer buffers (a head's stride past its
    // context). Both heads run in one pass (exactGemvBatch, exactKMajorBatch), the
    // values' blocks as separate tasks. Every call equals at::bmm's bits; with
    // OpenBLAS's Haswell kernels both kinds are learned.
    void stepBmmKeepsBlasBits_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("context");
        QTest::addColumn<int>("spare"); // buffer positions past the context
        QTest::newRow("7 rows, 300") << 7 << 300 << 0;
        QTest::newRow("7 rows, 1024") << 7 << 1024 << 0;
        QTest::newRow("7 rows, 1111") << 7 << 1111 << 0;
        QTest::newRow("7 rows, 1111, in a longer buffer") << 7 << 1111 << 37;
        QTest::newRow("7 rows, 4096") << 7 << 4096 << 0;
        QTest::newRow("70 rows, 2049") << 70 << 2049 << 0;
    }

    void stepBmmKeepsBlasBits()
    {
        QFETCH(int, rows);
        QFETCH(int, context);
        QFETCH(int, spare);
        c10::InferenceMode guard;
        BlasSumOrders& orders = BlasSumOrders::instance();
        orders.reset();
        const int64_t kv = 2, hd = 64;
        const at::Tensor keys = at::randn({kv, context + spare, hd}).narrow(1, 0, context);
        const at::Tensor values = at::randn({kv, context + spare, hd}).narrow(1, 0, context);
        for (int call = 0; call < 4; ++call) {
            const at::Tensor q = at::randn({kv, rows, hd});
            const at::Tensor p = at::softmax(at::randn({kv, rows, context}), 2);
            QVERIFY2(sameBits(stepBmm(q, keys.transpose(1, 2)), at::bmm(q, keys.transpose(1, 2))),
                     qPrintable(QStringLiteral("scores, call %1").arg(call)));
            QVERIFY2(sameBits(stepBmm(p, values), at::bmm(p, values)),
                     qPrintable(QStringLiteral("outputs, call %1").arg(call)));
            // The values' AVX-512 pass (4 tiles at once) and AVX2's agree.
            setExactGemvWideKernels(false);
            QVERIFY2(sameBits(stepBmm(p, values), at::bmm(p, values)),
                     qPrintable(QStringLiteral("outputs without AVX-512, call %1").arg(call)));
            setExactGemvWideKernels(true);
            // As stepAttention runs them: the scores written into a buffer whose rows go
            // on past the context (the step's own entries), the probabilities read from
            // there in place. Nothing is written past the context.
            const at::Tensor buffer = at::full({kv, rows, context + 5}, -7.0f);
            const at::Tensor inContext = buffer.narrow(2, 0, context);
            stepBmmInto(q, keys.transpose(1, 2), inContext);
            QVERIFY2(sameBits(inContext, at::bmm(q, keys.transpose(1, 2))),
                     qPrintable(QStringLiteral("scores in a buffer, call %1").arg(call)));
            QVERIFY(at::equal(buffer.narrow(2, context, 5), at::full({kv, rows, 5}, -7.0f)));
            inContext.copy_(p);
            QVERIFY2(sameBits(stepBmm(inContext, values), at::bmm(p, values)),
                     qPrintable(QStringLiteral("outputs from a buffer, call %1").arg(call)));
        }
        const QString summary = orders.summary();
        qInfo("%s", qPrintable(summary));
        // Measured with Debian's libtorch and OpenBLAS: one configuration's 7 rows over
        // 640 context positions or more are learned (scores, outputs from contiguous
        // probabilities, outputs from the buffer); shorter contexts and more rows take
        // paths of another order, which stay with at::bmm.
        if (exactGemvEnabled() && blasCoreName() == QLatin1String("Haswell") && rows == 7 &&
            context >= 640)
            QVERIFY2(summary.startsWith(QStringLiteral("sgemm's order learned for 3 of 3")),
                     qPrintable(summary));
        orders.reset();
    }
};

QTEST_GUILESS_MAIN(TestExactGemv)
#include "tst_exactgemv.moc"
