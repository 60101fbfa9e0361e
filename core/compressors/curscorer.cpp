// CUR: approximate leverage scores of the key and value rows, ||x_i||² divided by the
// sum over its local window of `window` tokens, key × value leverage; sinks kept
// (after kvpress CURPress with leverage_type kv_product and the local approximation).
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/torch.h>

namespace kvl {
namespace {

constexpr int kSinks = 4;   // kvpress num_sinks
constexpr int kWindow = 16; // kvpress local_window_size
const char* const kLeverage = "kv_product";

class CurScorer : public Scorer
{
  public:
    CurScorer(int sinks, int window, QString leverage, QString spec)
        : m_sinks(sinks), m_window(window), m_leverage(std::move(leverage)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            at::Tensor s;
            if (m_leverage == QLatin1String("k"))
                s = leverage(l.keys);
            else if (m_leverage == QLatin1String("v"))
                s = leverage(l.values);
            else
                s = leverage(l.keys) * leverage(l.values);
            const int64_t sinks = std::min<int64_t>(m_sinks, s.size(1));
            if (sinks > 0)
                s.narrow(1, 0, sinks).fill_(s.max().item<double>());
            layers.push_back(s);
        }
        return torch::stack(layers);
    }

  private:
    // Row-norm leverage within consecutive windows: x [kv, T, d] -> [kv, T].
    at::Tensor leverage(const at::Tensor& x) const
    {
        const int64_t length = x.size(1);
        const int64_t padded = (length + m_window - 1) / m_window * m_window;
        const at::Tensor sq = torch::constant_pad_nd(x.pow(2).sum(-1), {0, padded - length}, 0.0);
        const at::Tensor blocks = sq.reshape({x.size(0), padded / m_window, m_window});
        const at::Tensor lev = blocks / blocks.sum(-1, true).clamp_min(1e-30);
        return lev.reshape({x.size(0), padded}).narrow(1, 0, length).contiguous();
    }

    int m_sinks;
    int m_window;
    QString m_leverage;
    QString m_spec;
};

std::unique_ptr<Scorer> make(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sinks = p.integer(QStringLiteral("num_sinks"), kSinks, 0, 1 << 20);
    const int window = p.integer(QStringLiteral("window"), kWindow, 1, 1 << 20);
    const QString leverage = p.text(QStringLiteral("leverage"), QLatin1String(kLeverage));
    p.finish();
    if (leverage != QLatin1String("kv_product") && leverage != QLatin1String("k") &&
        leverage != QLatin1String("v"))
        throw Error(p.canonical(), QStringLiteral("leverage must be kv_product, k or v"));
    return std::make_unique<CurScorer>(sinks, window, leverage, p.canonical());
}

} // namespace

PressEntry curEntry()
{
    return {QStringLiteral("cur"),
            PressEntry::Kind::Scorer,
            QStringLiteral("score = key leverage x value leverage, leverage = ||row||² / its sum "
                           "over the local window; sinks kept"),
            {},
            {{QStringLiteral("num_sinks"), QString::number(kSinks), QStringLiteral("sink entries")},
             {QStringLiteral("window"), QString::number(kWindow),
              QStringLiteral("local window of the leverage approximation")},
             {QStringLiteral("leverage"), QLatin1String(kLeverage),
              QStringLiteral("kv_product, k or v")}},
            &make,
            nullptr};
}

} // namespace kvl
