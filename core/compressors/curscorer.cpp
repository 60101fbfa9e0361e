// CUR (CurDKV): leverage of an entry = ||k||² and ||v||² (optionally after a random
// Gaussian projection to 20 dims), each divided by its sum over the local window of
// `window` tokens; combined as key, value, kv_avg or kv_product, normalised to sum 1 over
// the head, the first num_sinks set to 1 (kvpress CURPress).
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <ATen/CPUGeneratorImpl.h>
#include <QStringList>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kCurSinks = 4;                // kvpress num_sinks
constexpr int kCurWindow = 16;              // kvpress local_window_size
constexpr bool kLocal = true;               // kvpress use_local_approximation
constexpr bool kRandomLeverage = false;     // kvpress use_random_leverage
constexpr int kProjectionDims = 20;         // kvpress's r for the random projection
constexpr int kCurSeed = 0;                 // kvpress draws G unseeded; KVLens fixes it
const char* const kLeverage = "kv_product"; // kvpress leverage_type

class CurScorer : public Scorer
{
  public:
    struct Options
    {
        int sinks = kCurSinks;
        int window = kCurWindow;
        bool local = kLocal;
        bool randomLeverage = kRandomLeverage;
        int seed = kCurSeed;
        QString leverage = QLatin1String(kLeverage);
    };

    CurScorer(Options options, QString spec) : m_o(std::move(options)), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        // One projection for every layer and head, as kvpress draws one per call.
        at::Tensor projection;
        if (m_o.randomLeverage) {
            at::Generator gen = at::detail::createCPUGenerator(uint64_t(m_o.seed));
            projection = torch::randn({input.headDim(), kProjectionDims}, gen)
                             .div_(std::sqrt(double(kProjectionDims)));
        }
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const auto lev = [&](const at::Tensor& x) {
                return leverage(projection.defined() ? torch::matmul(x, projection) : x);
            };
            at::Tensor s;
            if (m_o.leverage == QLatin1String("key"))
                s = lev(l.keys);
            else if (m_o.leverage == QLatin1String("value"))
                s = lev(l.values);
            else if (m_o.leverage == QLatin1String("kv_avg"))
                s = (lev(l.keys) + lev(l.values)) / 2;
            else
                s = lev(l.keys) * lev(l.values);
            s = s / s.sum(-1, true).clamp_min(1e-30);
            const int64_t sinks = std::min<int64_t>(m_o.sinks, s.size(1));
            if (sinks > 0)
                s.narrow(1, 0, sinks).fill_(1.0);
            layers.push_back(s);
        }
        return torch::stack(layers);
    }

  private:
    // ||row||², divided by its sum over consecutive windows when local: x [kv, T, d] ->
    // [kv, T]. The last window is zero-padded. An all-zero window scores 0 (NaN in kvpress).
    at::Tensor leverage(const at::Tensor& x) const
    {
        const at::Tensor sq = x.pow(2).sum(-1);
        if (!m_o.local)
            return sq;
        const int64_t length = x.size(1), w = m_o.window;
        const int64_t padded = (length + w - 1) / w * w;
        const at::Tensor blocks =
            torch::constant_pad_nd(sq, {0, padded - length}, 0.0).reshape({x.size(0), -1, w});
        const at::Tensor lev = blocks / blocks.sum(-1, true).clamp_min(1e-30);
        return lev.reshape({x.size(0), padded}).narrow(1, 0, length).contiguous();
    }

    Options m_o;
    QString m_spec;
};

const QStringList& leverageTypes()
{
    static const QStringList types{QStringLiteral("kv_product"), QStringLiteral("kv_avg"),
                                   QStringLiteral("key"), QStringLiteral("value")};
    return types;
}

std::unique_ptr<Scorer> makeCur(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    CurScorer::Options o;
    o.sinks = p.integer(QStringLiteral("num_sinks"), kCurSinks, 0, 1 << 20);
    o.window = p.integer(QStringLiteral("window"), kCurWindow, 1, 1 << 20);
    o.leverage = p.choice(QStringLiteral("leverage"), QLatin1String(kLeverage), leverageTypes());
    o.local = p.flag(QStringLiteral("local"), kLocal);
    o.randomLeverage = p.flag(QStringLiteral("random_leverage"), kRandomLeverage);
    if (o.randomLeverage)
        o.seed = p.integer(QStringLiteral("seed"), kCurSeed, 0, 1 << 30);
    p.finish();
    return std::make_unique<CurScorer>(std::move(o), p.canonical());
}

} // namespace

PressEntry curEntry()
{
    return {.name = QStringLiteral("cur"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("score = key x value leverage (||row||² / its sum over the local "
                               "window), normalised over the head; first num_sinks set to 1 "
                               "(arXiv:2509.15038; kvpress cur_press.py)"),
            .params = {{QStringLiteral("num_sinks"), QString::number(kCurSinks),
                        QStringLiteral("sink entries")},
                       {QStringLiteral("window"), QString::number(kCurWindow),
                        QStringLiteral("local window of the leverage approximation")},
                       {QStringLiteral("leverage"), QLatin1String(kLeverage),
                        QStringLiteral("kv_product, kv_avg, key or value")},
                       {QStringLiteral("local"), QStringLiteral("true"),
                        QStringLiteral("normalise within local windows (false: plain ||row||²)")},
                       {QStringLiteral("random_leverage"), QStringLiteral("false"),
                        QStringLiteral("project K and V to 20 random Gaussian dims first")},
                       {QStringLiteral("seed"), QString::number(kCurSeed),
                        QStringLiteral("seed of the random projection (with random_leverage)")}},
            .makeScorer = &makeCur};
}

} // namespace kvl
