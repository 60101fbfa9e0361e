#include "model/attention.h"

#include "model/contextcache.h"
#include "model/fusedattention.h"
#include "model/stepbmm.h"

#include <torch/types.h>

#include <limits>

namespace kvl {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// The softmax of one block of query rows, built up one key block at a time (the online
// softmax of flash attention): the running row maximum and the output accumulated under
// that maximum. The values carry an extra column of ones, so the accumulator's last
// column is the running denominator and one product updates both. Only [N, R, keys of
// one block] scores exist at any time. The maximum is a constant of the computation
// (the result does not depend on it), so it is taken from detached scores; every
// in-place update then only touches tensors autograd does not need back, and training
// differentiates the same code.
struct OnlineSoftmax
{
    at::Tensor max; // [N, R, 1]
    at::Tensor acc; // [N, R, hd + 1], sums of exp(score - max) * [value, 1]

    // Folds in the scores of one key block; `times(p, acc)` multiplies probabilities by
    // the block's values, into a fresh tensor when acc is undefined, else adding to acc.
    // `scores` is a fresh tensor and is overwritten.
    template <typename Times> void absorb(at::Tensor scores, const Times& times)
    {
        const at::Tensor blockMax = at::amax(scores.detach(), {-1}, true);
        if (!max.defined()) {
            // The first block is the diagonal one: every row sees its own key, so the
            // maximum starts finite and no later block can produce exp(-inf + inf).
            max = blockMax;
            times(scores.sub_(max).exp_(), acc);
            return;
        }
        const at::Tensor newMax = at::maximum(max, blockMax);
        acc.mul_((max - newMax).exp_());
        times(scores.sub_(newMax).exp_(), acc);
        max = newMax;
    }

    at::Tensor output() const
    {
        const int64_t hd = acc.size(2) - 1;
        return acc.narrow(2, 0, hd) / acc.narrow(2, hd, 1);
    }
    at::Tensor logSumExp() const { return max + acc.narrow(2, acc.size(2) - 1, 1).log(); }
};

// p @ values into a fresh `acc`, or added to it.
void multiplyInto(const at::Tensor& p, const at::Tensor& values, at::Tensor& acc)
{
    if (acc.defined())
        acc.baddbmm_(p, values);
    else
        acc = at::bmm(p, values);
}

// Scores of a block of queries against a block of the shared context's keys, with each
// batch row's bias. qb [N = B * kv, R, hd]; qShared the same queries as [kv, B * R, hd]
// (B > 1 only); keysT [kv, hd, keys]; bias [kv, 1, keys] or [B, kv, 1, keys] or undefined,
// or [kv, R, keys] with one bias per query row (B = 1; qb's rows are group-major).
at::Tensor contextScores(const at::Tensor& qb, const at::Tensor& qShared, const at::Tensor& keysT,
                         const at::Tensor& bias, int64_t batch)
{
    if (batch == 1) {
        at::Tensor scores = at::bmm(qb, keysT);
        if (!bias.defined())
            return scores;
        if (bias.size(1) == 1)
            return scores.add_(bias);
        const int64_t rows = bias.size(1);
        scores.view({scores.size(0), scores.size(1) / rows, rows, scores.size(2)})
            .add_(bias.unsqueeze(1));
        return scores;
    }
    const int64_t kvHeads = keysT.size(0), rows = qb.size(1), keys = keysT.size(2);
    // Every row against the one shared K, batched per kv-head.
    at::Tensor scores = at::bmm(qShared, keysT).view({kvHeads, batch, rows, keys}).transpose(0, 1);
    if (bias.defined())
        scores = scores + bias;
    return scores.reshape({batch * kvHeads, rows, keys});
}

// Probabilities [N, R, keys] of a context block times its values [kv, keys, hd].
at::Tensor contextProduct(const at::Tensor& p, const at::Tensor& values, int64_t batch)
{
    if (batch == 1)
        return at::bmm(p, values);
    const int64_t kvHeads = values.size(0), rows = p.size(1), keys = p.size(2);
    const int64_t hd = values.size(2);
    const at::Tensor pk =
        p.view({batch, kvHeads, rows, keys}).transpose(0, 1).reshape({kvHeads, batch * rows, keys});
    return at::bmm(pk, values)
        .view({kvHeads, batch, rows, hd})
        .transpose(0, 1)
        .reshape({batch * kvHeads, rows, hd});
}

// The causal mask of a diagonal block of `rows` queries over their own `rows` keys.
at::Tensor futureMask(int64_t rows)
{
    return at::ones({rows, rows}, at::TensorOptions().dtype(at::kBool)).triu(1);
}

} // namespace

AttentionOutput blockAttention(const AttentionInputs& in)
{
    const int64_t batch = in.q.size(0);
    const int64_t kvHeads = in.q.size(1);
    const int64_t group = in.q.size(2);
    const int64_t tq = in.q.size(3);
    const int64_t hd = in.q.size(4);
    const int64_t ts = in.selfK.size(2);
    const int64_t offset = ts - tq; // self keys before the first query
    const bool hasContext = in.ctxK.defined();
    const int64_t tc = hasContext ? in.ctxK.size(1) : 0;
    const int64_t n = batch * kvHeads;
    TORCH_CHECK(!in.ctxBias.defined() || in.ctxBias.dim() == (batch == 1 ? 3 : 4),
                "the context bias is [kv, 1, Tc] for one row, [B, kv, 1, Tc] for B rows");
    // One bias per query row ([kv, Tq, Tc], B = 1 only).
    const bool perRowBias = in.ctxBias.defined() && in.ctxBias.size(-2) != 1;
    TORCH_CHECK(!perRowBias || (batch == 1 && in.ctxBias.size(1) == tq),
                "a per-row context bias is [kv, Tq, Tc] and needs B = 1");

    const at::Tensor selfK = in.selfK.reshape({n, ts, hd});
    const at::Tensor selfV = in.selfV.reshape({n, ts, hd});
    // Inference on one sequence without context (the prefill) runs the fused kernel: the
    // same output and logsumexp, and the analysis pass below is shared.
    const bool fused = fusedAttentionApplies(in);
    // Values with a column of ones: the products also sum the probabilities.
    const at::Tensor selfVOnes =
        fused ? at::Tensor() : at::cat({selfV, at::ones({n, ts, 1}, selfV.options())}, 2);
    const at::Tensor ctxVOnes =
        hasContext ? at::cat({in.ctxV, at::ones({kvHeads, tc, 1}, in.ctxV.options())}, 2)
                   : at::Tensor();
    const at::Tensor ctxKT = hasContext ? in.ctxK.transpose(1, 2) : at::Tensor();
    const int64_t step = std::max<int64_t>(1, in.blockRows);
    const int64_t blockKeys = std::max<int64_t>(1, in.blockKeys);

    // The queries of rows [r0, r0 + rows) as [N, group * rows, hd], and as [kv, B * R, hd]
    // for the shared context.
    auto queryBlock = [&](int64_t r0, int64_t rows) {
        return in.q.narrow(3, r0, rows).reshape({n, group * rows, hd});
    };
    auto sharedQueries = [&](const at::Tensor& qb) {
        if (batch == 1 || !hasContext)
            return at::Tensor();
        return qb.view({batch, kvHeads, qb.size(1), hd})
            .transpose(0, 1)
            .reshape({kvHeads, batch * qb.size(1), hd});
    };
    // Keys per block: the scores of one step hold at most group x blockRows x blockKeys
    // entries per (batch row, kv-head), so a short query block (a decoding step, a
    // question) takes its keys in one or a few wide blocks.
    auto keysPerBlock = [&](int64_t rows) { return std::max(blockKeys, step * blockKeys / rows); };
    // The bias of query rows [r0, r0 + rows) on context keys [c0, c0 + keys).
    auto contextBias = [&](int64_t r0, int64_t rows, int64_t c0, int64_t keys) {
        if (!in.ctxBias.defined())
            return at::Tensor();
        const at::Tensor columns = in.ctxBias.narrow(-1, c0, keys);
        return perRowBias ? columns.narrow(1, r0, rows) : columns;
    };
    auto diagonalScores = [&](const at::Tensor& qb, int64_t r0, int64_t rows) {
        at::Tensor scores = at::bmm(qb, selfK.narrow(1, offset + r0, rows).transpose(1, 2));
        if (rows > 1)
            scores.view({n, group, rows, rows}).masked_fill_(futureMask(rows), kNegInf);
        return scores;
    };

    std::vector<at::Tensor> outBlocks;
    // log of each query row's softmax denominator, [N, group, Tq]: what turns a block of
    // scores back into probabilities in the analysis pass.
    std::vector<at::Tensor> lseBlocks;
    const bool analysis = in.captureContext || in.accumulateReceived || !in.captureRows.empty();
    AttentionOutput result;
    if (fused) {
        FusedAttentionOutput f = fusedAttention(in.q, in.selfK, in.selfV, analysis);
        result.out = f.out;
        if (analysis)
            lseBlocks.push_back(f.lse);
    }
    for (int64_t r0 = 0; r0 < tq && !fused; r0 += step) {
        const int64_t rows = std::min(step, tq - r0);
        const int64_t keyStep = keysPerBlock(rows);
        const at::Tensor qb = queryBlock(r0, rows);
        const at::Tensor qShared = sharedQueries(qb);
        OnlineSoftmax softmax;
        const at::Tensor diagonalV = selfVOnes.narrow(1, offset + r0, rows);
        softmax.absorb(diagonalScores(qb, r0, rows), [&](const at::Tensor& p, at::Tensor& acc) {
            multiplyInto(p, diagonalV, acc);
        });
        // Self keys before the diagonal: fully visible, no mask.
        for (int64_t k0 = 0; k0 < offset + r0; k0 += keyStep) {
            const int64_t keys = std::min(keyStep, offset + r0 - k0);
            const at::Tensor v = selfVOnes.narrow(1, k0, keys);
            softmax.absorb(at::bmm(qb, selfK.narrow(1, k0, keys).transpose(1, 2)),
                           [&](const at::Tensor& p, at::Tensor& acc) { multiplyInto(p, v, acc); });
        }
        for (int64_t c0 = 0; c0 < tc; c0 += keyStep) {
            const int64_t keys = std::min(keyStep, tc - c0);
            const at::Tensor v = ctxVOnes.narrow(1, c0, keys);
            softmax.absorb(contextScores(qb, qShared, ctxKT.narrow(2, c0, keys),
                                         contextBias(r0, rows, c0, keys), batch),
                           [&](const at::Tensor& p, at::Tensor& acc) {
                               if (batch == 1)
                                   multiplyInto(p, v, acc);
                               else
                                   acc.add_(contextProduct(p, v, batch)); // the diagonal came first
                           });
        }
        outBlocks.push_back(softmax.output().view({batch, kvHeads, group, rows, hd}));
        if (analysis)
            lseBlocks.push_back(softmax.logSumExp().detach().view({n, group, rows}));
    }

    if (!fused) {
        const at::Tensor out = outBlocks.size() == 1 ? outBlocks.front() : at::cat(outBlocks, 3);
        result.out = out.permute({0, 3, 1, 2, 4}).reshape({batch, tq, kvHeads * group * hd});
    }
    if (!analysis)
        return result;

    // The analysis quantities need normalised probabilities: a second pass forms
    // exp(score - lse) one key block at a time, so it too never holds more than a block.
    at::NoGradGuard noGrad;
    const at::Tensor lse = lseBlocks.size() == 1 ? lseBlocks.front() : at::cat(lseBlocks, 2);
    if (in.captureContext && hasContext)
        result.ctxAttention = at::empty({n, tq, tc}, in.q.options());
    if (in.accumulateReceived)
        result.received = at::zeros({n, ts}, in.q.options());
    for (int64_t r0 = 0; r0 < tq && (result.ctxAttention.defined() || result.received.defined());
         r0 += step) {
        const int64_t rows = std::min(step, tq - r0);
        const int64_t keyStep = keysPerBlock(rows);
        const at::Tensor qb = queryBlock(r0, rows).detach();
        const at::Tensor blockLse = lse.narrow(2, r0, rows).reshape({n, group * rows, 1});
        auto probabilities = [&](at::Tensor scores) { return scores.sub_(blockLse).exp_(); };
        if (result.ctxAttention.defined()) {
            const at::Tensor qShared = sharedQueries(qb);
            for (int64_t c0 = 0; c0 < tc; c0 += keyStep) {
                const int64_t keys = std::min(keyStep, tc - c0);
                const at::Tensor p =
                    probabilities(contextScores(qb, qShared, ctxKT.narrow(2, c0, keys),
                                                contextBias(r0, rows, c0, keys), batch));
                result.ctxAttention.narrow(1, r0, rows)
                    .narrow(2, c0, keys)
                    .copy_(p.view({n, group, rows, keys}).mean(1));
            }
        }
        if (result.received.defined()) {
            // Column sums over every query row and head of the group.
            result.received.narrow(1, offset + r0, rows)
                .add_(probabilities(diagonalScores(qb, r0, rows)).sum(1));
            for (int64_t k0 = 0; k0 < offset + r0; k0 += keyStep) {
                const int64_t keys = std::min(keyStep, offset + r0 - k0);
                result.received.narrow(1, k0, keys)
                    .add_(probabilities(at::bmm(qb, selfK.narrow(1, k0, keys).transpose(1, 2)))
                              .sum(1));
            }
        }
    }
    if (result.received.defined())
        result.received = result.received.div_(double(group)).view({batch, kvHeads, ts});

    // A captured row over self keys only, padded with zeros for the keys it cannot see:
    // one row's scores are O(group x Ts).
    std::vector<at::Tensor> rowBlocks;
    for (const int64_t row : in.captureRows) {
        const int64_t visible = offset + row + 1;
        const at::Tensor qr = in.q.select(3, row).detach().reshape({n, group, hd});
        const at::Tensor p = at::bmm(qr, selfK.narrow(1, 0, visible).transpose(1, 2))
                                 .sub_(lse.select(2, row).unsqueeze(2))
                                 .exp_()
                                 .mean(1);
        rowBlocks.push_back(at::constant_pad_nd(p, {0, ts - visible}).unsqueeze(1));
    }
    if (!rowBlocks.empty())
        result.rowAttention = at::cat(rowBlocks, 1);
    return result;
}

at::Tensor stepAttention(const at::Tensor& q, const at::Tensor& selfK, const at::Tensor& selfV,
                         const at::Tensor& hidden, const at::Tensor& ctxK, const at::Tensor& ctxV,
                         const at::Tensor& ctxBias)
{
    const int64_t b = q.size(0), kvHeads = q.size(1), group = q.size(2), hd = q.size(3);
    const int64_t tc = ctxK.size(1), ns = selfK.size(2), width = tc + ns;
    // Every row's scores over the context and then its own entries, kv-head-major: the
    // context's part is then one strided [kv, B * group, Tc] view, which the keys'
    // product writes and the values' product reads in place, where a concatenation and
    // a reshape copied it twice per layer. The softmax runs along each row, whatever
    // the order of the rows.
    const at::Tensor scores = at::empty({kvHeads, b, group, width}, q.options());
    const at::Tensor ctxScores = scores.narrow(3, 0, tc);
    const at::Tensor qc = q.permute({1, 0, 2, 3}).reshape({kvHeads, b * group, hd});
    stepBmmInto(qc, ctxK.transpose(1, 2), ctxScores.view({kvHeads, b * group, tc}));
    if (ctxBias.defined())
        ctxScores.add_(ctxBias); // [kv, B, 1, Tc]
    at::Tensor selfScores = at::matmul(q, selfK.transpose(2, 3)); // [B, kv, g, N]
    selfScores.masked_fill_(hidden, -std::numeric_limits<double>::infinity());
    scores.narrow(3, tc, ns).copy_(selfScores.permute({1, 0, 2, 3}));
    const at::Tensor probs = at::softmax(scores, 3);
    const at::Tensor outCtx = stepBmm(probs.narrow(3, 0, tc).view({kvHeads, b * group, tc}), ctxV)
                                  .view({kvHeads, b, group, hd})
                                  .permute({1, 0, 2, 3});
    const at::Tensor outSelf = at::matmul(probs.narrow(3, tc, ns).permute({1, 0, 2, 3}), selfV);
    return (outCtx + outSelf).reshape({b, kvHeads * group * hd});
}

at::Tensor windowAttention(const LayerCache& layer)
{
    const at::Tensor& q = layer.windowQueries; // [heads, W, hd]
    const at::Tensor& k = layer.keys;          // [kv, T, hd]
    const int64_t heads = q.size(0), w = q.size(1), hd = q.size(2);
    const int64_t kvHeads = k.size(0), t = k.size(1);
    const int64_t group = heads / kvHeads;
    at::Tensor scores = at::bmm(q.reshape({kvHeads, group * w, hd}), k.transpose(1, 2))
                            .mul_(1.0 / std::sqrt(double(hd)))
                            .view({kvHeads, group, w, t});
    if (w > 1)
        scores.narrow(3, t - w, w)
            .masked_fill_(at::ones({w, w}, at::TensorOptions().dtype(at::kBool)).triu(1),
                          -std::numeric_limits<double>::infinity());
    return at::softmax(scores, 3).view({heads, w, t});
}

} // namespace kvl
