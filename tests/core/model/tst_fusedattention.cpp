// The fused inference attention (fusedAttention) against a float64 dense softmax and
// against blockAttention's generic path; its exp against std::exp; and the dispatch:
// inference on one sequence without context takes the fused kernel, training does not.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "model/attention.h"
#include "model/fusedattention.h"

#include <QtTest>
#include <cfloat>
#include <cmath>
#include <limits>

using namespace kvl;

namespace {

struct Inputs
{
    at::Tensor q, k, v; // q [1, kv, g, Tq, hd] (a permuted view, as the engine passes it)
    int64_t kvHeads = 2, group = 1, tq = 1, ts = 1, hd = 8;
};

Inputs makeInputs(int64_t group, int64_t hd, int64_t tq, int64_t past, uint64_t seed)
{
    at::manual_seed(seed);
    Inputs in;
    in.group = group;
    in.hd = hd;
    in.tq = tq;
    in.ts = tq + past;
    // Scores of a few units, so that the softmax is far from uniform and a wrong mask
    // or normaliser shows. q is laid out [1, Tq, kv, g, hd] like the engine's projection.
    in.q = (at::randn({1, tq, in.kvHeads, group, hd}) * (2.5 / std::sqrt(double(hd))))
               .permute({0, 2, 3, 1, 4});
    in.k = at::randn({1, in.kvHeads, in.ts, hd});
    in.v = at::randn({1, in.kvHeads, in.ts, hd});
    return in;
}

struct Dense
{
    at::Tensor out, lse, received, rowAttention;
};

// The definition in float64: query i sees self keys j <= Ts - Tq + i.
Dense dense(const Inputs& in, const std::vector<int64_t>& rows)
{
    const at::Tensor q = in.q.to(at::kDouble); // [1, kv, g, Tq, hd]
    const at::Tensor k = in.k.to(at::kDouble).unsqueeze(2);
    at::Tensor scores = at::matmul(q, k.transpose(3, 4)); // [1, kv, g, Tq, Ts]
    const at::Tensor visible = at::arange(in.ts).view({1, in.ts}) <=
                               (at::arange(in.tq) + (in.ts - in.tq)).view({in.tq, 1});
    scores = scores.masked_fill(visible.logical_not(), -std::numeric_limits<double>::infinity());
    const at::Tensor probs = at::softmax(scores, 4);
    Dense d;
    d.out = at::matmul(probs, in.v.to(at::kDouble).unsqueeze(2))
                .permute({0, 3, 1, 2, 4})
                .reshape({1, in.tq, in.kvHeads * in.group * in.hd});
    d.lse = at::logsumexp(scores, 4).squeeze(0); // [kv, g, Tq]
    d.received = probs.sum(3).mean(2);           // [1, kv, Ts]
    d.rowAttention = probs.index_select(3, at::tensor(rows, at::kLong)).mean(2).squeeze(0);
    return d;
}

// Largest difference relative to the reference's scale (at least 1).
double relativeDiff(const at::Tensor& got, const at::Tensor& want)
{
    if (!got.defined() || got.sizes() != want.sizes())
        return std::numeric_limits<double>::infinity();
    const double scale = std::max(1.0, want.abs().max().item<double>());
    return (got.to(at::kDouble) - want).abs().max().item<double>() / scale;
}

AttentionInputs attentionInputs(const Inputs& in)
{
    AttentionInputs a;
    a.q = in.q;
    a.selfK = in.k;
    a.selfV = in.v;
    a.blockRows = 5;
    a.blockKeys = 7;
    return a;
}

#define VERIFY_CLOSE(got, want)                                                                    \
    QVERIFY2(relativeDiff(got, want) <= 1e-5,                                                      \
             qPrintable(QStringLiteral(#got ": %1").arg(relativeDiff(got, want))))

} // namespace

class TestFusedAttention : public QObject
{
    Q_OBJECT

  private slots:
    // Within 4 ulp of the correctly rounded exp wherever the result is a normal float;
    // 0 below ln(FLT_MIN) and for -inf (a masked score).
    void expMatchesStd()
    {
        std::vector<float> x;
        for (float t = -87.3f; t <= 88.5f; t += 0.0137f)
            x.push_back(t);
        for (const float t : {0.0f, -0.0f, 1e-8f, -1e-8f, 0.5f, -0.34657f, 0.34657f, 88.37f})
            x.push_back(t);
        std::vector<float> got = x;
        fusedExp(got.data(), int64_t(got.size()));
        double worstUlp = 0.0;
        for (size_t i = 0; i < x.size(); ++i) {
            const double want = std::exp(double(x[i]));
            if (want < FLT_MIN || want > FLT_MAX)
                continue;
            const double ulp = std::ldexp(1.0, std::ilogb(float(want)) - 23);
            worstUlp = std::max(worstUlp, std::abs(double(got[i]) - want) / ulp);
        }
        QVERIFY2(worstUlp <= 4.0, qPrintable(QString::number(worstUlp)));
        std::vector<float> low = {-std::numeric_limits<float>::infinity(), -1e30f, -200.0f, -88.0f,
                                  -87.5f};
        fusedExp(low.data(), int64_t(low.size()));
        for (const float value : low)
            QCOMPARE(value, 0.0f);
        // The scalar fallback is std::exp itself; lengths not a multiple of 8 take the tail.
        std::vector<float> tail(x.begin(), x.begin() + 13), scalar = tail;
        fusedExp(tail.data(), 13);
        fusedExp(scalar.data(), 13, false);
        for (size_t i = 0; i < tail.size(); ++i) {
            QCOMPARE(scalar[i], std::exp(x[i]));
            QVERIFY(std::abs(tail[i] - scalar[i]) <= 4e-7f * scalar[i]);
        }
    }

    void equalsDenseAndGeneric_data()
    {
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("hd");
        QTest::addColumn<int>("tq");
        QTest::addColumn<int>("past");
        QTest::addColumn<int>("rows"); // query rows per task
        QTest::addColumn<int>("keys"); // keys per tile
        // Tasks of 4 rows and tiles of 8 keys: T crosses both edges; offsets put the
        // diagonal inside a tile and across two.
        for (const int group : {1, 2, 7})
            for (const int hd : {64, 24, 5})
                for (const int t : {1, 3, 4, 9, 19, 37}) {
                    QTest::addRow("g%d hd%d T=%d", group, hd, t) << group << hd << t << 0 << 4 << 8;
                    QTest::addRow("g%d hd%d T=%d after 11", group, hd, t)
                        << group << hd << t << 11 << 4 << 8;
                }
        QTest::newRow("rows > keys") << 2 << 24 << 29 << 3 << 16 << 5;
        QTest::newRow("one task, one tile") << 7 << 64 << 40 << 6 << 64 << 64;
        QTest::newRow("1 x 1 tiles") << 2 << 8 << 9 << 2 << 1 << 1;
        // The engine's tile on the 0.5B shape (group 7, head_dim 64), past one key tile.
        QTest::newRow("default tile")
            << 7 << 64 << int(kFusedKeys + 70) << 0 << int(kFusedRows) << int(kFusedKeys);
        QTest::newRow("default tile after 300")
            << 7 << 64 << 200 << int(kFusedKeys + 100) << int(kFusedRows) << int(kFusedKeys);
    }

    void equalsDenseAndGeneric()
    {
        QFETCH(int, group);
        QFETCH(int, hd);
        QFETCH(int, tq);
        QFETCH(int, past);
        QFETCH(int, rows);
        QFETCH(int, keys);
        const Inputs in = makeInputs(group, hd, tq, past, uint64_t(1000 * group + 10 * tq + hd));
        const std::vector<int64_t> captured = {0, int64_t(tq) / 2, int64_t(tq) - 1};
        const Dense want = dense(in, captured);

        {
            c10::InferenceMode guard;
            const FusedAttentionOutput fused = fusedAttention(in.q, in.k, in.v, true, rows, keys);
            VERIFY_CLOSE(fused.out, want.out);
            VERIFY_CLOSE(fused.lse, want.lse);
            const FusedAttentionOutput noLse = fusedAttention(in.q, in.k, in.v, false, rows, keys);
            QVERIFY(!noLse.lse.defined());
            QVERIFY(at::equal(noLse.out, fused.out));

            // blockAttention in inference dispatches here (default tile) and runs its
            // analysis pass on the fused logsumexp.
            AttentionInputs a = attentionInputs(in);
            QVERIFY(fusedAttentionApplies(a));
            a.captureRows = captured;
            a.accumulateReceived = true;
            const AttentionOutput got = blockAttention(a);
            VERIFY_CLOSE(got.out, want.out);
            VERIFY_CLOSE(got.received, want.received);
            VERIFY_CLOSE(got.rowAttention, want.rowAttention);
            QVERIFY(at::equal(got.out, fusedAttention(in.q, in.k, in.v, false).out));
        }
        // Grad mode on (no tensor needs a gradient): the generic path, same results.
        AttentionInputs a = attentionInputs(in);
        QVERIFY(!fusedAttentionApplies(a));
        a.captureRows = captured;
        a.accumulateReceived = true;
        const AttentionOutput generic = blockAttention(a);
        VERIFY_CLOSE(generic.out, want.out);
        VERIFY_CLOSE(generic.received, want.received);
        VERIFY_CLOSE(generic.rowAttention, want.rowAttention);
    }

    // Only inference on one sequence without context is fused; training differentiates
    // the generic path.
    void dispatch()
    {
        const Inputs in = makeInputs(2, 8, 6, 0, 3);
        AttentionInputs a = attentionInputs(in);
        QVERIFY(!fusedAttentionApplies(a)); // grad mode on
        {
            at::NoGradGuard noGrad;
            QVERIFY(fusedAttentionApplies(a));
            AttentionInputs batch = a;
            batch.q = in.q.expand({2, -1, -1, -1, -1});
            batch.selfK = in.k.expand({2, -1, -1, -1});
            batch.selfV = in.v.expand({2, -1, -1, -1});
            QVERIFY(!fusedAttentionApplies(batch));
            AttentionInputs context = a;
            context.ctxK = in.k[0];
            context.ctxV = in.v[0];
            QVERIFY(!fusedAttentionApplies(context));
            AttentionInputs doubles = a;
            doubles.q = in.q.to(at::kDouble);
            QVERIFY(!fusedAttentionApplies(doubles));
        }
        // Training: the output carries a gradient.
        a.q = in.q.detach().clone().requires_grad_(true);
        QVERIFY(!fusedAttentionApplies(a));
        const AttentionOutput got = blockAttention(a);
        QVERIFY(got.out.requires_grad());
        got.out.sum().backward();
        QVERIFY(a.q.grad().defined() && a.q.grad().abs().sum().item<double>() > 0.0);
    }
};

QTEST_GUILESS_MAIN(TestFusedAttention)
#include "tst_fusedattention.moc"
