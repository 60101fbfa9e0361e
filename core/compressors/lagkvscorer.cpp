// LagKV: after the n_sink sinks, the context is cut into partitions of `lag` tokens;
// each partition's K and V are min-max normalised per channel by the NEXT partition,
// scored by the std over channels, softmax within the partition, K and V averaged, then
// replaced by its rank within the partition / lag (unless cross_scoring); sinks and the
// last partition (+ remainder) score 1 (kvpress LagKVPress). Contexts shorter than
// n_sink + 2·lag score the sinks 1 and the rest by recency, i / (T - n_sink).
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kLagKvSinks = 4;        // kvpress n_sink
constexpr int kLag = 128;             // kvpress lag_size
constexpr bool kCrossScoring = false; // kvpress cross_scoring: softmax values across partitions

class LagKvScorer : public Scorer
{
  public:
    LagKvScorer(int sinks, int lag, bool cross, QString spec)
        : m_sinks(sinks), m_lag(lag), m_cross(cross), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length < m_sinks + 2 * int64_t(m_lag)) { // too short to partition
            at::Tensor s = torch::ones({input.layers(), input.kvHeads(), length});
            if (length > m_sinks)
                s.narrow(2, m_sinks, length - m_sinks)
                    .copy_(torch::arange(length - m_sinks, torch::kFloat) /
                           double(length - m_sinks));
            return s;
        }
        const int64_t parts = (length - m_sinks) / m_lag; // >= 2
        const int64_t scored = (parts - 1) * m_lag;       // every partition but the tail
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            // Keys and values through one pass: half the ops.
            const at::Tensor both = partitionScore(torch::cat({l.keys, l.values}, 0), parts);
            at::Tensor s = (both.narrow(0, 0, input.kvHeads()) +
                            both.narrow(0, input.kvHeads(), input.kvHeads())) /
                           2;
            if (!m_cross)
                s = rankInPartition(s);
            at::Tensor full = torch::ones({input.kvHeads(), length});
            full.narrow(1, m_sinks, scored).copy_(s.reshape({input.kvHeads(), scored}));
            layers.push_back(full);
        }
        return torch::stack(layers);
    }

  private:
    // x [n, T, d] -> [n, parts - 1, lag]
    at::Tensor partitionScore(const at::Tensor& x, int64_t parts) const
    {
        const int64_t n = x.size(0), d = x.size(2);
        const at::Tensor p = x.narrow(1, m_sinks, parts * m_lag).reshape({n, parts, m_lag, d});
        const at::Tensor ref = p.narrow(1, 1, parts - 1);
        const at::Tensor v = p.narrow(1, 0, parts - 1);
        const at::Tensor lo = std::get<0>(ref.min(2, true));
        const at::Tensor hi = std::get<0>(ref.max(2, true));
        // A constant channel in the reference would divide by zero (NaN in kvpress).
        at::Tensor normalised = (v - lo).div_((hi - lo).clamp_min_(1e-12));
        // Unbiased std over channels, written out: torch's std kernel is several times
        // slower over a short innermost dimension.
        normalised.sub_(normalised.mean(-1, true));
        return torch::softmax(normalised.square_().sum(-1).div_(double(d - 1)).sqrt_(), -1);
    }

    // Rank of each entry within its partition (0 = lowest score) / lag; ties by position.
    at::Tensor rankInPartition(const at::Tensor& s) const
    {
        const at::Tensor order = std::get<1>(s.sort(/*stable=*/true, -1, /*descending=*/false));
        const at::Tensor ranks = torch::arange(m_lag, torch::kLong).expand_as(order).contiguous();
        return torch::empty_like(order).scatter_(-1, order, ranks).to(torch::kFloat) /
               double(m_lag);
    }

    int m_sinks;
    int m_lag;
    bool m_cross;
    QString m_spec;
};

std::unique_ptr<Scorer> makeLagKv(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sinks = p.integer(QStringLiteral("n_sink"), kLagKvSinks, 0, 1 << 20);
    const int lag = p.integer(QStringLiteral("lag"), kLag, 1, 1 << 20);
    const bool cross = p.flag(QStringLiteral("cross_scoring"), kCrossScoring);
    p.finish();
    return std::make_unique<LagKvScorer>(sinks, lag, cross, p.canonical());
}

} // namespace

PressEntry lagKvEntry()
{
    return {
        .name = QStringLiteral("lagkv"),
        .kind = PressEntry::Kind::Scorer,
        .rule = QStringLiteral(
            "score = rank within each lag partition of the std over channels of "
            "K and V (min-max normalised by the next partition, softmaxed, K and V "
            "averaged); sinks and last partition kept (arXiv:2504.04704; kvpress lagkv_press.py)"),
        .params = {{QStringLiteral("n_sink"), QString::number(kLagKvSinks),
                    QStringLiteral("sink entries")},
                   {QStringLiteral("lag"), QString::number(kLag), QStringLiteral("partition size")},
                   {QStringLiteral("cross_scoring"), QStringLiteral("false"),
                    QStringLiteral("keep the softmax values (comparable across partitions, for "
                                   "head-wise allocation) instead of ranks")}},
        .makeScorer = &makeLagKv};
}

} // namespace kvl
