#include "compressors/compactorscores.h"

#include "common/error.h"
#include "compressors/windowattention.h"

#include <limits>
#include <torch/types.h>

namespace kvl {

at::Tensor zScore(const at::Tensor& x)
{
    return (x - x.mean()) / x.std().clamp_min(1e-6);
}

at::Tensor nonCausalAttentionScores(const LayerCache& layer, int64_t begin, int64_t end,
                                    int64_t chunk, const QString& who)
{
    const int64_t length = layer.keys.size(1);
    const int64_t stored = layer.windowQueries.defined() ? layer.windowQueries.size(1) : 0;
    if (length - stored > begin)
        throw Error(who, QStringLiteral("needs the queries of every scored position from %1 on "
                                        "but prefill captured the last %2 of %3 (raise "
                                        "PrefillOptions::window)")
                             .arg(begin)
                             .arg(stored)
                             .arg(length));
    const int64_t n = end - begin;
    const int64_t heads = layer.windowQueries.size(0), kvHeads = layer.keys.size(0);
    const int64_t d = layer.keys.size(2);
    const at::Tensor q = layer.windowQueries.narrow(1, begin - (length - stored), n);
    const at::Tensor k = repeatKv(layer.keys.narrow(1, begin, n), heads);
    const int64_t chunks = (n + chunk - 1) / chunk, padded = chunks * chunk;
    const at::Tensor qp =
        torch::constant_pad_nd(q, {0, 0, 0, padded - n}, 0.0).view({heads, chunks, chunk, d});
    const at::Tensor kp =
        torch::constant_pad_nd(k, {0, 0, 0, padded - n}, 0.0).view({heads, chunks, chunk, d});
    at::Tensor dots = torch::matmul(qp, kp.transpose(-2, -1)).to(torch::kFloat);
    // Padding sits in the last chunk only: its keys get no attention, its queries give none.
    const at::Tensor pad = torch::arange(padded - chunk, padded, torch::kLong) >= n;
    dots.select(1, chunks - 1)
        .masked_fill_(pad.view({1, 1, chunk}), std::numeric_limits<float>::lowest());
    at::Tensor attn = torch::softmax(dots, -1);
    attn.select(1, chunks - 1).masked_fill_(pad.view({1, chunk, 1}), 0.0);
    const at::Tensor received = attn.sum(-2).reshape({heads, padded}).narrow(1, 0, n);
    at::Tensor s = groupMean(received, kvHeads) *
                   layer.values.narrow(1, begin, n).to(torch::kFloat).norm(2, -1);
    s = torch::avg_pool1d(s.unsqueeze(0), {3}, {1}, {1}, false, true).squeeze(0);
    return zScore(s);
}

at::Tensor leverageScores(const LayerCache& layer, int64_t begin, int64_t end, int sketch,
                          at::Generator& gen, const QString& who)
{
    if (!layer.keysPreRope.defined())
        throw Error(who, QStringLiteral("needs the pre-RoPE keys"));
    const at::Tensor keys = layer.keysPreRope.narrow(1, begin, end - begin).to(torch::kFloat);
    const int64_t kvHeads = keys.size(0), d = keys.size(2);
    const at::Tensor phi =
        torch::randn({kvHeads, d, sketch}, gen, torch::kFloat) * (1.0 / std::sqrt(double(sketch)));
    const at::Tensor x = torch::matmul(keys - keys.mean(1, true), phi); // [kv, S, k]
    const at::Tensor xt = x.transpose(1, 2);
    at::Tensor g = torch::matmul(xt, x);
    g = 0.5 * (g + g.transpose(1, 2));
    const at::Tensor eye = torch::eye(sketch, torch::kFloat);
    double jitter = 1e-2;
    at::Tensor factor;
    for (int attempt = 0; attempt < 5 && !factor.defined(); ++attempt) {
        auto [l, info] = torch::linalg_cholesky_ex(g + jitter * eye, false, false);
        if (info.eq(0).all().item<bool>())
            factor = l;
        jitter *= 10.0;
    }
    if (!factor.defined())
        throw Error(who, QStringLiteral("Cholesky of the sketched key Gram matrix failed after 5 "
                                        "jitters"));
    const at::Tensor solved = torch::cholesky_solve(xt, factor, false); // [kv, k, S]
    return zScore((x * solved.transpose(1, 2)).sum(-1).clamp_min(0.0));
}

} // namespace kvl
