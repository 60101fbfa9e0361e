// LagKV: after the n_sink sinks, the context is cut into partitions of `lag` tokens;
// each partition's K and V are min-max normalised per channel by the NEXT partition,
// scored by the std over channels, softmax within the partition, K and V averaged;
// sinks and the last partition (+ remainder) kept (kvpress LagKVPress). Contexts
// shorter than n_sink + 2·lag score all entries alike.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/torch.h>

namespace kvl {
namespace {

constexpr int kSinks = 4; // kvpress n_sink
constexpr int kLag = 128; // kvpress lag_size

class LagKvScorer : public Scorer
{
  public:
    LagKvScorer(int sinks, int lag, QString spec)
        : m_sinks(sinks), m_lag(lag), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length < m_sinks + 2 * int64_t(m_lag))
            return torch::ones({input.layers(), input.kvHeads(), length});
        const int64_t parts = (length - m_sinks) / m_lag; // >= 2
        const int64_t scored = (parts - 1) * m_lag;       // every partition but the tail
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor s =
                (partitionScore(l.keys, parts) + partitionScore(l.values, parts)) / 2;
            at::Tensor full = torch::ones({input.kvHeads(), length});
            full.narrow(1, m_sinks, scored).copy_(s.reshape({input.kvHeads(), scored}));
            layers.push_back(full);
        }
        return torch::stack(layers);
    }

  private:
    // x [kv, T, d] -> [kv, parts - 1, lag]
    at::Tensor partitionScore(const at::Tensor& x, int64_t parts) const
    {
        const int64_t kv = x.size(0), d = x.size(2);
        const at::Tensor p = x.narrow(1, m_sinks, parts * m_lag).reshape({kv, parts, m_lag, d});
        const at::Tensor ref = p.narrow(1, 1, parts - 1);
        const at::Tensor v = p.narrow(1, 0, parts - 1);
        const at::Tensor lo = std::get<0>(ref.min(2, true));
        const at::Tensor hi = std::get<0>(ref.max(2, true));
        // A constant channel in the reference would divide by zero (NaN in kvpress).
        const at::Tensor normalised = (v - lo) / (hi - lo).clamp_min(1e-12);
        return torch::softmax(normalised.std(at::IntArrayRef{-1}, /*unbiased=*/true, false), -1);
    }

    int m_sinks;
    int m_lag;
    QString m_spec;
};

std::unique_ptr<Scorer> make(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sinks = p.integer(QStringLiteral("n_sink"), kSinks, 0, 1 << 20);
    const int lag = p.integer(QStringLiteral("lag"), kLag, 1, 1 << 20);
    p.finish();
    return std::make_unique<LagKvScorer>(sinks, lag, p.canonical());
}

} // namespace

PressEntry lagKvEntry()
{
    return {QStringLiteral("lagkv"),
            PressEntry::Kind::Scorer,
            QStringLiteral("score = softmax within each lag partition of the std over channels of "
                           "K and V min-max normalised by the next partition; sinks and last "
                           "partition kept"),
            {},
            {{QStringLiteral("n_sink"), QString::number(kSinks), QStringLiteral("sink entries")},
             {QStringLiteral("lag"), QString::number(kLag), QStringLiteral("partition size")}},
            &make,
            nullptr};
}

} // namespace kvl
