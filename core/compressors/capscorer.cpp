// CAPKV (arXiv:2604.25975; kvpress cap_press.py): with a query anchor mu (mean of the
// pre-RoPE context queries after the sinks, rotated by the RoPE averaged over the next
// n_future_positions positions), w_i = exp(tau (cos(mu, k_i) - max)) and u_i = v_i, an
// entry's score is w_i u_i^T A^-1 u_i with A = I + sum_j (w_j + eps) u_j u_j^T, per query
// head, then mean over the GQA group; the first n_sink entries get the max + 1.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/unitvectors.h"
#include "compressors/windowattention.h"
#include "model/rope.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kTau = 5.0;             // kvpress tau
constexpr int kCapFuturePositions = 512; // kvpress n_future_positions
constexpr int kCapSinks = 4;             // kvpress n_sink
constexpr double kCapEpsilon = 1e-6;     // kvpress epsilon

class CapScorer : public Scorer
{
  public:
    CapScorer(double tau, int future, int sinks, double eps, QString spec)
        : m_tau(tau), m_future(future), m_sinks(sinks), m_eps(eps), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length <= m_sinks)
            throw Error(m_spec, QStringLiteral("input cache length (%1) must be larger than "
                                               "n_sink = %2")
                                    .arg(length)
                                    .arg(m_sinks));
        const int64_t d = input.headDim(), heads = input.heads();
        // RoPE is linear in the query: the mean rotation of the mean query is the mean of
        // its rotations, q cos + rotate_half(q) sin with cos, sin averaged over positions.
        const Rope own(*input.config);
        const Rope& rope = input.rope ? *input.rope : own;
        const auto [cos, sin] = rope.cosSin(torch::arange(length, length + m_future, torch::kLong));
        const at::Tensor cosMean = cos.mean(0), sinMean = sin.mean(0); // [d]
        const at::Tensor eye = torch::eye(d, torch::kFloat);
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const int64_t stored =
                l.windowQueriesPreRope.defined() ? l.windowQueriesPreRope.size(1) : 0;
            if (stored < length)
                throw Error(m_spec, QStringLiteral("needs every context query (prefill captured "
                                                   "%1 of %2; raise PrefillOptions::window)")
                                        .arg(stored)
                                        .arg(length));
            const at::Tensor q =
                l.windowQueriesPreRope.narrow(1, m_sinks, length - m_sinks).mean(1); // [H, d]
            const at::Tensor half2 = q.narrow(1, d / 2, d - d / 2);
            const at::Tensor rotated = torch::cat({-half2, q.narrow(1, 0, d / 2)}, 1);
            const at::Tensor anchor = unitVectors(q * cosMean + rotated * sinMean);
            const at::Tensor keys =
                unitVectors(repeatKv(l.keys.narrow(1, m_sinks, length - m_sinks), heads)
                                .to(torch::kFloat)); // [H, T', d]
            const at::Tensor stat =
                torch::matmul(keys, anchor.unsqueeze(-1)).squeeze(-1).clamp(-1.0, 1.0);
            at::Tensor logits = m_tau * stat;
            const at::Tensor w = torch::exp(logits - logits.amax(-1, true)); // [H, T']
            const at::Tensor u =
                repeatKv(l.values.narrow(1, m_sinks, length - m_sinks), heads).to(torch::kFloat);
            const at::Tensor scaled = u * torch::sqrt(w + m_eps).unsqueeze(-1);
            const at::Tensor capacity = eye + torch::matmul(scaled.transpose(1, 2), scaled);
            const at::Tensor ut = u.transpose(1, 2); // [H, d, T']
            const at::Tensor solved = torch::linalg_solve(capacity, ut);
            const at::Tensor s = groupMean(w * (ut * solved).sum(1), input.kvHeads());
            const double top = s.max().item<double>() + 1.0;
            layers.push_back(torch::constant_pad_nd(s, {m_sinks, 0}, top));
        }
        return torch::stack(layers);
    }

  private:
    double m_tau;
    int m_future;
    int m_sinks;
    double m_eps;
    QString m_spec;
};

std::unique_ptr<Scorer> makeCap(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const double tau = p.real(QStringLiteral("tau"), kTau, 0.0, 1e6);
    const int future =
        p.integer(QStringLiteral("n_future_positions"), kCapFuturePositions, 1, 1 << 20);
    const int sinks = p.integer(QStringLiteral("n_sink"), kCapSinks, 0, 1 << 20);
    const double eps = p.real(QStringLiteral("epsilon"), kCapEpsilon, 0.0, 1.0);
    p.finish();
    return std::make_unique<CapScorer>(tau, future, sinks, eps, p.canonical());
}

} // namespace

PressEntry capEntry()
{
    return {.name = QStringLiteral("cap"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "CAPKV (arXiv:2604.25975; kvpress cap_press.py): anchor mu = mean "
                "pre-RoPE query after the sinks under the RoPE averaged over the next "
                "n_future_positions; w_i = exp(tau (cos(mu, k_i) - max)); score = w_i "
                "v_i^T (I + sum_j (w_j + eps) v_j v_j^T)^-1 v_i per query head, mean "
                "over the GQA group; first n_sink kept (max + 1)"),
            .params = {{QStringLiteral("tau"), QString::number(kTau),
                        QStringLiteral("temperature of the query-key alignment weights")},
                       {QStringLiteral("n_future_positions"), QString::number(kCapFuturePositions),
                        QStringLiteral("future positions the anchor's RoPE is averaged over")},
                       {QStringLiteral("n_sink"), QString::number(kCapSinks),
                        QStringLiteral("initial entries kept")},
                       {QStringLiteral("epsilon"), QString::number(kCapEpsilon),
                        QStringLiteral("added to w inside the capacity matrix")}},
            .makeScorer = &makeCap};
}

} // namespace kvl
