// A decode step's attention (stepAttention) against the formula it replaced: scores
// over the context (plus each row's bias) and over the row's own entries concatenated,
// one softmax, the context's and the own entries' outputs summed, every product
// through at::bmm. stepAttention now writes the scores into one kv-head-major buffer
// and reads the probabilities in place, skips an undefined bias, and runs the context's
// products as the exact kernels once their order is learned: the bits must not move.
#include "model/attention.h"
#include "model/blassumorder.h"
#include "model/engineinfo.h"
#include "samebits.h"

#include <torch/types.h>

#include <QtTest>

#include <limits>

using namespace kvl;
using kvltest::sameBits;

namespace {

// The step as it was written before (zeros for a missing bias, as DecodeBatch held).
at::Tensor formerStepAttention(const at::Tensor& q, const at::Tensor& selfK,
                               const at::Tensor& selfV, const at::Tensor& hidden,
                               const at::Tensor& ctxK, const at::Tensor& ctxV, at::Tensor ctxBias)
{
    const int64_t b = q.size(0), kvHeads = q.size(1), group = q.size(2), hd = q.size(3);
    const int64_t tc = ctxK.size(1);
    if (!ctxBias.defined())
        ctxBias = at::zeros({kvHeads, b, 1, tc});
    const at::Tensor qc = q.permute({1, 0, 2, 3}).reshape({kvHeads, b * group, hd});
    const at::Tensor ctxScores = at::bmm(qc, ctxK.transpose(1, 2))
                                     .view({kvHeads, b, group, tc})
                                     .add_(ctxBias)
                                     .permute({1, 0, 2, 3});
    at::Tensor selfScores = at::matmul(q, selfK.transpose(2, 3));
    selfScores.masked_fill_(hidden, -std::numeric_limits<double>::infinity());
    const at::Tensor probs = at::softmax(at::cat({ctxScores, selfScores}, 3), 3);
    const at::Tensor pCtx =
        probs.narrow(3, 0, tc).permute({1, 0, 2, 3}).reshape({kvHeads, b * group, tc});
    const at::Tensor outCtx =
        at::bmm(pCtx, ctxV).view({kvHeads, b, group, hd}).permute({1, 0, 2, 3});
    const at::Tensor outSelf = at::matmul(probs.narrow(3, tc, selfK.size(2)), selfV);
    return (outCtx + outSelf).reshape({b, kvHeads * group * hd});
}

} // namespace

class TestStepAttention : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        initEngineThreads();
        at::manual_seed(36);
    }

    // One configuration (the 0.5B shape's 7 query heads per kv-head: its context
    // products are learned from 640 positions on) or a lockstep batch of three with
    // padded own entries; no bias, a bias with dropped (-inf) positions, or one that
    // only some rows carry.
    void equalsTheFormerStep_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("context");
        QTest::addColumn<QString>("bias");
        QTest::newRow("one row, 1111, no bias") << 1 << 1111 << QStringLiteral("none");
        QTest::newRow("one row, 1111, dropped") << 1 << 1111 << QStringLiteral("dropped");
        QTest::newRow("one row, 300, no bias") << 1 << 300 << QStringLiteral("none");
        QTest::newRow("three rows, 900, some rows") << 3 << 900 << QStringLiteral("some");
    }

    void equalsTheFormerStep()
    {
        QFETCH(int, rows);
        QFETCH(int, context);
        QFETCH(QString, bias);
        c10::InferenceMode guard;
        BlasSumOrders::instance().reset();
        const int64_t kv = 2, group = 7, hd = 64, own = 4;
        const at::Tensor ctxK = at::randn({kv, context, hd}), ctxV = at::randn({kv, context, hd});
        at::Tensor ctxBias;
        if (bias != QLatin1String("none")) {
            ctxBias = at::randn({kv, rows, 1, context});
            // Dropped positions, as a kept mask gives them; a FullCache row has zeros.
            ctxBias.masked_fill_(at::rand({kv, rows, 1, context}) < 0.3,
                                 -std::numeric_limits<double>::infinity());
            if (bias == QLatin1String("some"))
                ctxBias.narrow(1, 0, 1).zero_();
        }
        // Row r has r + 2 own entries; the rest of its buffer is padding.
        at::Tensor hidden = at::zeros({rows, 1, 1, own}, at::kBool);
        for (int r = 0; r < rows; ++r)
            hidden[r].narrow(2, std::min<int64_t>(own, r + 2), own - std::min<int64_t>(own, r + 2))
                .fill_(true);
        for (int call = 0; call < 5; ++call) {
            const at::Tensor q = at::randn({rows, kv, group, hd}) * 0.125;
            const at::Tensor selfK = at::randn({rows, kv, own, hd});
            const at::Tensor selfV = at::randn({rows, kv, own, hd});
            const at::Tensor now = stepAttention(q, selfK, selfV, hidden, ctxK, ctxV, ctxBias);
            const at::Tensor before =
                formerStepAttention(q, selfK, selfV, hidden, ctxK, ctxV, ctxBias);
            QVERIFY2(sameBits(now, before), qPrintable(QStringLiteral("call %1").arg(call)));
        }
        qInfo("%s", qPrintable(BlasSumOrders::instance().summary()));
        BlasSumOrders::instance().reset();
    }
};

QTEST_GUILESS_MAIN(TestStepAttention)
#include "tst_stepattention.moc"
