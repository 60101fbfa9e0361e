// ExpectedAttention: softmax over the context of the attention expected from the next
// n positions' queries, modelled as a Gaussian (mean and covariance of the pre-RoPE
// context queries, rotated by the RoPE averaged over those positions):
// q̄·k/√d + kᵀΣk/(2d); mean over the GQA group, times ||v||; sinks kept at max + 1 (kvpress
// ExpectedAttentionPress). Statistics use every captured query after the sinks: all of
// them when prefill captured the whole context (queryWindow = T), as kvpress does.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"
#include "model/rope.h"

#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kExpectedAttentionFuturePositions = 512; // kvpress n_future_positions
constexpr int kExpectedAttentionSinks = 4;             // kvpress n_sink
constexpr bool kUseCovariance = true;
constexpr bool kUseVNorm = true;
constexpr double kExpectedAttentionEpsilon = 0.0;

class ExpectedAttentionScorer : public Scorer
{
  public:
    ExpectedAttentionScorer(int future, int sinks, bool cov, bool vnorm, double eps, QString spec)
        : m_future(future), m_sinks(sinks), m_cov(cov), m_vnorm(vnorm), m_eps(eps),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length <= m_sinks + 1)
            throw Error(m_spec, QStringLiteral("needs more than n_sink + 1 context tokens"));
        const int64_t d = input.headDim();
        const at::Tensor rotation = averageRotation(input, length, d);
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            // Captured queries at positions >= n_sink.
            const int64_t stored = l.windowQueriesPreRope.size(1);
            const int64_t skip = std::max<int64_t>(0, m_sinks - (length - stored));
            if (stored - skip < 1)
                throw Error(m_spec, QStringLiteral("needs captured queries after the sinks"));
            const at::Tensor q = l.windowQueriesPreRope.narrow(1, skip, stored - skip);
            at::Tensor mean = q.mean(1); // [heads, d]
            const at::Tensor keys = repeatKv(l.keys.narrow(1, m_sinks, length - m_sinks),
                                             input.heads()); // [heads, T', d]
            mean = torch::matmul(mean, rotation.t());
            at::Tensor s =
                torch::matmul(keys, mean.unsqueeze(-1)).squeeze(-1) / std::sqrt(double(d));
            if (m_cov) {
                const at::Tensor centered = q - q.mean(1, true);
                at::Tensor cov =
                    torch::matmul(centered.transpose(1, 2), centered) / double(q.size(1));
                cov = torch::matmul(rotation, torch::matmul(cov, rotation.t()));
                s += (torch::matmul(keys, cov) * keys).sum(-1) / double(d) / 2.0;
            }
            s = groupMean(torch::softmax(s, -1), input.kvHeads());
            if (m_vnorm)
                s = (s + m_eps) * l.values.narrow(1, m_sinks, length - m_sinks).norm(2, -1);
            // Above the maximum (see snapkvscorer.cpp), as kvpress pads them.
            const double top = s.max().item<double>() + 1.0;
            layers.push_back(torch::constant_pad_nd(s, {m_sinks, 0}, top));
        }
        return torch::stack(layers);
    }

  private:
    // Mean over positions T..T+n-1 of the RoPE rotation matrix cos·I + sin·P.
    at::Tensor averageRotation(const CompressionInput& input, int64_t length, int64_t d) const
    {
        const Rope own(*input.config);
        const Rope& rope = input.rope ? *input.rope : own;
        const auto [cos, sin] =
            rope.cosSin(torch::arange(length, length + m_future, torch::kLong)); // [n, d]
        const at::Tensor eye = torch::eye(d);
        at::Tensor p = torch::zeros({d, d});
        const int64_t h = d / 2;
        p.narrow(0, h, h).narrow(1, 0, h).copy_(torch::eye(h));
        p.narrow(0, 0, h).narrow(1, h, h).copy_(-torch::eye(h));
        return (cos.unsqueeze(1) * eye + sin.unsqueeze(1) * p).mean(0);
    }

    int m_future;
    int m_sinks;
    bool m_cov;
    bool m_vnorm;
    double m_eps;
    QString m_spec;
};

std::unique_ptr<Scorer> makeExpectedAttention(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int future = p.integer(QStringLiteral("n_future_positions"),
                                 kExpectedAttentionFuturePositions, 1, 1 << 20);
    const int sinks = p.integer(QStringLiteral("n_sink"), kExpectedAttentionSinks, 0, 1 << 20);
    const bool cov = p.flag(QStringLiteral("use_covariance"), kUseCovariance);
    const bool vnorm = p.flag(QStringLiteral("use_vnorm"), kUseVNorm);
    const double eps = p.real(QStringLiteral("epsilon"), kExpectedAttentionEpsilon, 0.0, 1e9);
    p.finish();
    return std::make_unique<ExpectedAttentionScorer>(future, sinks, cov, vnorm, eps, p.canonical());
}

} // namespace

PressEntry expectedAttentionEntry()
{
    return {.name = QStringLiteral("expected"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "score = softmax of the expected attention of the next n queries "
                "(Gaussian queries, averaged RoPE), mean over the GQA group, x ||v||; "
                "sinks kept (Devoto et al. 2025, arXiv:2510.00636; kvpress "
                "expected_attention_press.py)"),
            .params = {{QStringLiteral("n_future_positions"),
                        QString::number(kExpectedAttentionFuturePositions),
                        QStringLiteral("future positions the RoPE is averaged over")},
                       {QStringLiteral("n_sink"), QString::number(kExpectedAttentionSinks),
                        QStringLiteral("sink entries")},
                       {QStringLiteral("use_covariance"), QStringLiteral("true"),
                        QStringLiteral("add the query covariance term")},
                       {QStringLiteral("use_vnorm"), QStringLiteral("true"),
                        QStringLiteral("multiply by the value norm")},
                       {QStringLiteral("epsilon"), QString::number(kExpectedAttentionEpsilon),
                        QStringLiteral("added before the value-norm product")}},
            .makeScorer = &makeExpectedAttention};
}

} // namespace kvl
