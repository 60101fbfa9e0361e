#include "model/attention.h"

#include "model/contextcache.h"

#include <torch/torch.h>

#include <limits>

namespace kvl {

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
    TORCH_CHECK(!in.ctxBias.defined() || in.ctxBias.dim() == (batch == 1 ? 3 : 4),
                "the context bias is [kv, 1, Tc] for one row, [B, kv, 1, Tc] for B rows");

    const at::Tensor selfK = in.selfK.reshape({batch * kvHeads, ts, hd});
    const at::Tensor selfV = in.selfV.reshape({batch * kvHeads, ts, hd});
    const at::Tensor ctxKT = hasContext ? in.ctxK.transpose(1, 2) : at::Tensor();
    const double negInf = -std::numeric_limits<double>::infinity();

    AttentionOutput result;
    std::vector<at::Tensor> outBlocks;
    std::vector<at::Tensor> ctxBlocks;
    std::vector<at::Tensor> rowBlocks;
    // Column sums of the self attention, over every query row and head of the group.
    at::Tensor received;
    if (in.accumulateReceived)
        received = at::zeros({batch * kvHeads, ts}, in.q.options());
    const int64_t step = std::max<int64_t>(1, in.blockRows);
    for (int64_t r0 = 0; r0 < tq; r0 += step) {
        const int64_t rows = std::min(step, tq - r0);
        const int64_t visible = offset + r0 + rows; // self keys the block can see
        const at::Tensor qb = in.q.narrow(3, r0, rows).reshape({batch * kvHeads, group * rows, hd});
        const at::Tensor kb = selfK.narrow(1, 0, visible);
        const at::Tensor vb = selfV.narrow(1, 0, visible);

        at::Tensor scores = at::bmm(qb, kb.transpose(1, 2)); // [B*kv, g*rows, visible]
        if (rows > 1) {
            // Only the block's own diagonal square holds future keys.
            const at::Tensor future =
                at::ones({rows, rows}, at::TensorOptions().dtype(at::kBool)).triu(1);
            scores.view({batch * kvHeads, group, rows, visible})
                .narrow(3, offset + r0, rows)
                .masked_fill_(future, negInf);
        }
        at::Tensor probs;
        at::Tensor out;
        if (hasContext) {
            const int64_t gr = group * rows;
            at::Tensor ctxScores; // [B*kv, g*rows, Tc]
            if (batch == 1) {
                ctxScores = at::bmm(qb, ctxKT);
                if (in.ctxBias.defined())
                    ctxScores.add_(in.ctxBias);
            } else {
                // Every row against the one shared K, batched per kv-head.
                const at::Tensor qk =
                    qb.view({batch, kvHeads, gr, hd}).transpose(0, 1).reshape({kvHeads, batch * gr, hd});
                ctxScores = at::bmm(qk, ctxKT).view({kvHeads, batch, gr, tc}).transpose(0, 1);
                if (in.ctxBias.defined())
                    ctxScores = ctxScores + in.ctxBias;
                ctxScores = ctxScores.reshape({batch * kvHeads, gr, tc});
            }
            probs = at::softmax(at::cat({ctxScores, scores}, 2), 2);
            const at::Tensor pCtx = probs.narrow(2, 0, tc);
            at::Tensor outCtx;
            if (batch == 1) {
                outCtx = at::bmm(pCtx, in.ctxV);
            } else {
                const at::Tensor pk = pCtx.reshape({batch, kvHeads, gr, tc})
                                          .transpose(0, 1)
                                          .reshape({kvHeads, batch * gr, tc});
                outCtx = at::bmm(pk, in.ctxV)
                             .view({kvHeads, batch, gr, hd})
                             .transpose(0, 1)
                             .reshape({batch * kvHeads, gr, hd});
            }
            out = outCtx + at::bmm(probs.narrow(2, tc, visible), vb);
            if (in.captureContext)
                ctxBlocks.push_back(pCtx.reshape({batch * kvHeads, group, rows, tc}).mean(1));
        } else {
            probs = at::softmax(scores, 2);
            out = at::bmm(probs, vb);
        }
        outBlocks.push_back(out.view({batch, kvHeads, group, rows, hd}));
        if (received.defined()) // one extra read of the block, no second softmax
            received.narrow(1, 0, visible).add_(probs.narrow(2, tc, visible).sum(1));

        for (const int64_t row : in.captureRows) {
            if (row < r0 || row >= r0 + rows)
                continue;
            const at::Tensor p =
                probs.view({batch * kvHeads, group, rows, tc + visible}).select(2, row - r0);
            // Over self keys only, padded with zeros for the keys the row cannot see.
            const at::Tensor selfPart = p.narrow(2, tc, visible).mean(1);
            rowBlocks.push_back(at::constant_pad_nd(selfPart, {0, ts - visible}).unsqueeze(1));
        }
    }

    const at::Tensor out = outBlocks.size() == 1 ? outBlocks.front() : at::cat(outBlocks, 3);
    result.out = out.permute({0, 3, 1, 2, 4}).reshape({batch, tq, kvHeads * group * hd});
    if (!ctxBlocks.empty())
        result.ctxAttention = at::cat(ctxBlocks, 1);
    if (!rowBlocks.empty())
        result.rowAttention = at::cat(rowBlocks, 1);
    if (received.defined())
        result.received = received.div_(double(group)).view({batch, kvHeads, ts});
    return result;
}

at::Tensor stepAttention(const at::Tensor& q, const at::Tensor& selfK, const at::Tensor& selfV,
                         const at::Tensor& hidden, const at::Tensor& ctxK, const at::Tensor& ctxV,
                         const at::Tensor& ctxBias)
{
    const int64_t b = q.size(0), kvHeads = q.size(1), group = q.size(2), hd = q.size(3);
    const int64_t tc = ctxK.size(1);
    // Context: the rows of every configuration against the one shared K, batched per
    // kv-head ([kv, B * group, hd] x [kv, hd, Tc]); then each row's own bias.
    const at::Tensor qc = q.permute({1, 0, 2, 3}).reshape({kvHeads, b * group, hd});
    const at::Tensor ctxScores = at::bmm(qc, ctxK.transpose(1, 2))
                                     .view({kvHeads, b, group, tc})
                                     .add_(ctxBias)
                                     .permute({1, 0, 2, 3}); // [B, kv, g, Tc]
    at::Tensor selfScores = at::matmul(q, selfK.transpose(2, 3)); // [B, kv, g, N]
    selfScores.masked_fill_(hidden, -std::numeric_limits<double>::infinity());
    const at::Tensor probs = at::softmax(at::cat({ctxScores, selfScores}, 3), 3);
    const at::Tensor pCtx = probs.narrow(3, 0, tc).permute({1, 0, 2, 3}).reshape(
        {kvHeads, b * group, tc});
    const at::Tensor outCtx =
        at::bmm(pCtx, ctxV).view({kvHeads, b, group, hd}).permute({1, 0, 2, 3});
    const at::Tensor outSelf = at::matmul(probs.narrow(3, tc, selfK.size(2)), selfV);
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
