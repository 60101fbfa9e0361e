// blockAttention (blocked over queries and keys, online softmax, a second blockwise
// pass for the analysis quantities) against a dense reference written here: one plain
// softmax over the full [queries, context + self keys] score matrix in float64.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "model/attention.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace kvl;

namespace {

enum class Bias
{
    None,
    Dropped,
    Boosted
};

struct Case
{
    int64_t batch = 1, kvHeads = 2, group = 2, tq = 1, ts = 1, tc = 0, hd = 8;
    Bias bias = Bias::None;
    int64_t blockRows = 4, blockKeys = 4;
};

struct Inputs
{
    at::Tensor q, selfK, selfV, ctxK, ctxV, ctxBias; // float32, as AttentionInputs takes them
    std::vector<int64_t> rows;                       // captured query rows
};

// Scores of a few units, so that the softmax is far from uniform and a wrong mask or
// a wrong normaliser shows.
Inputs makeInputs(const Case& c, uint64_t seed)
{
    at::manual_seed(seed);
    Inputs in;
    in.q = at::randn({c.batch, c.kvHeads, c.group, c.tq, c.hd}) * 0.8;
    in.selfK = at::randn({c.batch, c.kvHeads, c.ts, c.hd});
    in.selfV = at::randn({c.batch, c.kvHeads, c.ts, c.hd});
    if (c.tc > 0) {
        in.ctxK = at::randn({c.kvHeads, c.tc, c.hd});
        in.ctxV = at::randn({c.kvHeads, c.tc, c.hd});
        if (c.bias != Bias::None) {
            at::Tensor bias = at::zeros({c.batch, c.kvHeads, 1, c.tc});
            for (int64_t b = 0; b < c.batch; ++b)
                for (int64_t h = 0; h < c.kvHeads; ++h) {
                    // A run of entries longer than a key block (a whole block can be
                    // -inf for a row) and a scatter of single ones, different per row.
                    const int64_t start = (3 * b + h) % c.tc;
                    const int64_t span = std::min<int64_t>(c.blockKeys + 2, c.tc - start);
                    const double value = c.bias == Bias::Dropped
                                             ? -std::numeric_limits<double>::infinity()
                                             : std::log(3.0 + double(b));
                    bias[b][h][0].narrow(0, start, span).fill_(value);
                    for (int64_t j = (b + 2 * h) % 5; j < c.tc; j += 5)
                        bias[b][h][0][j] = c.bias == Bias::Dropped ? value : std::log(0.5);
                }
            in.ctxBias = c.batch == 1 ? bias[0] : bias;
        }
    }
    in.rows = {0, c.tq - 1, c.tq / 2};
    std::sort(in.rows.begin(), in.rows.end());
    in.rows.erase(std::unique(in.rows.begin(), in.rows.end()), in.rows.end());
    return in;
}

struct Dense
{
    at::Tensor out, ctxAttention, rowAttention, received;
};

// The definition, in float64: every query's softmax over [context | self keys], the
// context shifted by its row's bias, self key j visible to query i iff j <= Ts - Tq + i.
Dense denseAttention(const Case& c, const Inputs& in)
{
    const auto d = [](const at::Tensor& t) { return t.to(at::kDouble); };
    const at::Tensor q = d(in.q); // [B, kv, g, Tq, hd]
    at::Tensor scores = at::matmul(q, d(in.selfK).unsqueeze(2).transpose(3, 4)); // [.., Tq, Ts]
    const at::Tensor visible =
        at::arange(c.ts).view({1, c.ts}) <= (at::arange(c.tq) + (c.ts - c.tq)).view({c.tq, 1});
    scores = scores.masked_fill(visible.logical_not(), -std::numeric_limits<double>::infinity());
    at::Tensor values = d(in.selfV).unsqueeze(2); // [B, kv, 1, Ts, hd]
    if (c.tc > 0) {
        at::Tensor ctxScores =
            at::matmul(q, d(in.ctxK).unsqueeze(1).transpose(2, 3)); // [.., Tq, Tc]
        if (in.ctxBias.defined())
            ctxScores = ctxScores + d(in.ctxBias).view({c.batch, c.kvHeads, 1, 1, c.tc});
        scores = at::cat({ctxScores, scores}, 4);
        values = at::cat(
            {d(in.ctxV).unsqueeze(1).unsqueeze(0).expand({c.batch, -1, -1, -1, -1}), values}, 3);
    }
    const at::Tensor probs = at::softmax(scores, 4); // [B, kv, g, Tq, Tc + Ts]
    Dense dense;
    dense.out = at::matmul(probs, values)
                    .permute({0, 3, 1, 2, 4})
                    .reshape({c.batch, c.tq, c.kvHeads * c.group * c.hd});
    const at::Tensor self = probs.narrow(4, c.tc, c.ts);
    if (c.tc > 0)
        dense.ctxAttention =
            probs.narrow(4, 0, c.tc).mean(2).reshape({c.batch * c.kvHeads, c.tq, c.tc});
    dense.rowAttention = self.index_select(3, at::tensor(in.rows, at::kLong))
                             .mean(2)
                             .reshape({c.batch * c.kvHeads, int64_t(in.rows.size()), c.ts});
    dense.received = self.sum(3).mean(2); // [B, kv, Ts]
    return dense;
}

// Largest difference relative to the reference's scale (at least 1).
double relativeDiff(const at::Tensor& got, const at::Tensor& want)
{
    if (!got.defined() || got.sizes() != want.sizes())
        return std::numeric_limits<double>::infinity();
    const double scale = std::max(1.0, want.abs().max().item<double>());
    return (got.to(at::kDouble) - want).abs().max().item<double>() / scale;
}

AttentionInputs attentionInputs(const Case& c, const Inputs& in)
{
    AttentionInputs a;
    a.q = in.q;
    a.selfK = in.selfK;
    a.selfV = in.selfV;
    a.ctxK = in.ctxK;
    a.ctxV = in.ctxV;
    a.ctxBias = in.ctxBias;
    a.blockRows = c.blockRows;
    a.blockKeys = c.blockKeys;
    return a;
}

} // namespace

class TestBlockAttention : public QObject
{
    Q_OBJECT

  private slots:
    void equalsDense_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("tq");
        QTest::addColumn<int>("past"); // self keys before the first query
        QTest::addColumn<int>("tc");
        QTest::addColumn<int>("bias");
        // Blocks of 4 rows and 4 keys: 1, 3, 4, 5 and 19 = 3 * 4 + 7 cross the edges.
        for (const int t : {1, 3, 4, 5, 19}) {
            QTest::addRow("prefill T=%d", t) << 1 << 2 << t << 0 << 0 << int(Bias::None);
            QTest::addRow("prefill T=%d group 1", t) << 1 << 1 << t << 0 << 0 << int(Bias::None);
            QTest::addRow("prefill T=%d B=2", t) << 2 << 3 << t << 0 << 0 << int(Bias::None);
        }
        for (const int tc : {1, 4, 5, 19}) {
            QTest::addRow("extend Tc=%d", tc) << 1 << 2 << 5 << 0 << tc << int(Bias::None);
            QTest::addRow("extend Tc=%d dropped", tc)
                << 1 << 2 << 6 << 0 << tc << int(Bias::Dropped);
            QTest::addRow("extend Tc=%d boosted", tc)
                << 1 << 2 << 3 << 0 << tc << int(Bias::Boosted);
            QTest::addRow("extend Tc=%d B=3 dropped", tc)
                << 3 << 2 << 9 << 0 << tc << int(Bias::Dropped);
            QTest::addRow("extend Tc=%d B=3 boosted", tc)
                << 3 << 3 << 4 << 0 << tc << int(Bias::Boosted);
        }
        // A continuation: queries after earlier self keys (extend, decoding steps).
        QTest::addRow("continuation 1 after 18") << 1 << 2 << 1 << 18 << 19 << int(Bias::Dropped);
        QTest::addRow("continuation 7 after 6") << 1 << 2 << 7 << 6 << 13 << int(Bias::Boosted);
        QTest::addRow("continuation B=2 5 after 9") << 2 << 2 << 5 << 9 << 10 << int(Bias::Dropped);
        QTest::addRow("prefill after self 9") << 1 << 2 << 11 << 9 << 0 << int(Bias::None);
    }

    void equalsDense()
    {
        QFETCH(int, batch);
        QFETCH(int, group);
        QFETCH(int, tq);
        QFETCH(int, past);
        QFETCH(int, tc);
        QFETCH(int, bias);
        c10::InferenceMode guard;
        Case c;
        c.batch = batch;
        c.group = group;
        c.tq = tq;
        c.ts = tq + past;
        c.tc = tc;
        c.bias = Bias(bias);
        const Inputs in = makeInputs(c, uint64_t(7 * tq + 31 * tc + past + batch));
        const Dense dense = denseAttention(c, in);

        AttentionInputs a = attentionInputs(c, in);
        // The output alone first: no analysis pass.
        const AttentionOutput plain = blockAttention(a);
        QVERIFY(!plain.ctxAttention.defined() && !plain.rowAttention.defined() &&
                !plain.received.defined());
        QVERIFY2(relativeDiff(plain.out, dense.out) <= 1e-5,
                 qPrintable(QString::number(relativeDiff(plain.out, dense.out))));

        a.captureContext = true;
        a.captureRows = in.rows;
        a.accumulateReceived = true;
        const AttentionOutput got = blockAttention(a);
        QVERIFY(relativeDiff(got.out, dense.out) <= 1e-5);
        QVERIFY2(relativeDiff(got.rowAttention, dense.rowAttention) <= 1e-5,
                 qPrintable(QString::number(relativeDiff(got.rowAttention, dense.rowAttention))));
        QVERIFY2(relativeDiff(got.received, dense.received) <= 1e-5,
                 qPrintable(QString::number(relativeDiff(got.received, dense.received))));
        if (tc > 0)
            QVERIFY2(
                relativeDiff(got.ctxAttention, dense.ctxAttention) <= 1e-5,
                qPrintable(QString::number(relativeDiff(got.ctxAttention, dense.ctxAttention))));
        else
            QVERIFY(!got.ctxAttention.defined());
    }

    // The block sizes only change the order of the sums: from one block holding
    // everything down to one row and one key per block.
    void blockSizesAgree_data()
    {
        QTest::addColumn<int>("blockRows");
        QTest::addColumn<int>("blockKeys");
        QTest::newRow("1 x 1") << 1 << 1;
        QTest::newRow("2 x 3") << 2 << 3;
        QTest::newRow("7 x 2") << 7 << 2;
        QTest::newRow("one block") << 64 << 64;
    }

    void blockSizesAgree()
    {
        QFETCH(int, blockRows);
        QFETCH(int, blockKeys);
        c10::InferenceMode guard;
        Case c;
        c.batch = 2;
        c.tq = 13;
        c.ts = 16;
        c.tc = 11;
        c.bias = Bias::Dropped;
        c.blockRows = blockRows;
        c.blockKeys = blockKeys;
        const Inputs in = makeInputs(c, 5);
        const Dense dense = denseAttention(c, in);
        AttentionInputs a = attentionInputs(c, in);
        a.captureContext = true;
        a.captureRows = in.rows;
        a.accumulateReceived = true;
        const AttentionOutput got = blockAttention(a);
        QVERIFY(relativeDiff(got.out, dense.out) <= 1e-5);
        QVERIFY(relativeDiff(got.ctxAttention, dense.ctxAttention) <= 1e-5);
        QVERIFY(relativeDiff(got.rowAttention, dense.rowAttention) <= 1e-5);
        QVERIFY(relativeDiff(got.received, dense.received) <= 1e-5);
    }

    // Training differentiates blockAttention: the gradients of the online softmax equal
    // those of the dense definition.
    void gradientsEqualDense()
    {
        Case c;
        c.batch = 2;
        c.tq = 11;
        c.ts = 11;
        c.blockRows = 3;
        c.blockKeys = 2;
        Inputs in = makeInputs(c, 9);
        in.q.requires_grad_(true);
        in.selfK.requires_grad_(true);
        in.selfV.requires_grad_(true);
        const at::Tensor weight = at::randn({c.batch, c.tq, c.kvHeads * c.group * c.hd});

        const AttentionOutput got = blockAttention(attentionInputs(c, in));
        (got.out * weight).sum().backward();
        const at::Tensor gq = in.q.grad().clone(), gk = in.selfK.grad().clone(),
                         gv = in.selfV.grad().clone();

        Inputs ref;
        ref.q = in.q.detach().to(at::kDouble).requires_grad_(true);
        ref.selfK = in.selfK.detach().to(at::kDouble).requires_grad_(true);
        ref.selfV = in.selfV.detach().to(at::kDouble).requires_grad_(true);
        ref.rows = in.rows;
        (denseAttention(c, ref).out * weight.to(at::kDouble)).sum().backward();
        QVERIFY2(relativeDiff(gq, ref.q.grad()) <= 1e-5,
                 qPrintable(QString::number(relativeDiff(gq, ref.q.grad()))));
        QVERIFY(relativeDiff(gk, ref.selfK.grad()) <= 1e-5);
        QVERIFY(relativeDiff(gv, ref.selfV.grad()) <= 1e-5);
    }
};

QTEST_GUILESS_MAIN(TestBlockAttention)
#include "tst_blockattention.moc"
