// SimLayerKV (Zhang et al. 2024, arXiv:2410.13846; kvpress simlayerkv_press.py): a layer
// is lazy when the attention of its last `n_last` context queries (mean over heads and
// those queries) on the first `n_initial` and the last `n_recent` entries sums above
// `lazy_threshold`; a lazy layer keeps only [0, n_initial) and the last n_recent - n_last
// entries, every other layer keeps all. Contexts shorter than n_initial + n_recent are
// left whole. The ratio does not set the budget (kvpress reports it as an output); r = 0
// keeps everything.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <QJsonArray>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kLazyThreshold = 0.9;  // kvpress requires one (no default)
constexpr int kLast = 1;                // kvpress n_last (SKLV-decode)
constexpr int kSimLayerKvRecent = 1024; // kvpress n_recent
constexpr int kInitial = 4;             // kvpress n_initial

class SimLayerKvPress : public Press
{
  public:
    SimLayerKvPress(double threshold, int last, int recent, int initial, QString spec)
        : m_threshold(threshold), m_last(last), m_recent(recent), m_initial(initial),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return std::min<int64_t>(m_last, length); }
    bool needsReceivedAttention() const override { return false; }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        at::Tensor kept = torch::ones({input.layers(), input.kvHeads(), length}, torch::kBool);
        at::Tensor laziness = torch::zeros({input.layers()});
        QJsonArray lazy;
        if (ratio > 0.0 && length >= m_initial + m_recent) {
            if (length <= m_last)
                throw Error(
                    m_spec,
                    QStringLiteral("needs more than n_last = %1 context tokens").arg(m_last));
            const at::Tensor lazyKeep = torch::zeros({length}, torch::kBool);
            lazyKeep.narrow(0, 0, m_initial).fill_(true);
            lazyKeep.narrow(0, length - (m_recent - m_last), m_recent - m_last).fill_(true);
            for (int l = 0; l < input.layers(); ++l) {
                const at::Tensor attn =
                    windowAttention(input.cache->layers[size_t(l)], m_last, m_spec)
                        .mean(std::vector<int64_t>{0, 1});
                const double mass =
                    attn.narrow(0, 0, m_initial).sum().item<double>() +
                    attn.narrow(0, length - m_recent, m_recent).sum().item<double>();
                laziness[l] = mass;
                if (mass > m_threshold) {
                    kept[l].copy_(lazyKeep.expand({input.kvHeads(), length}));
                    lazy.append(l);
                }
            }
        }
        // Scores: the layer's initial + recent attention mass, constant over the layer.
        CompressionResult r = evictionResult(
            kept, laziness.view({-1, 1, 1}).expand(kept.sizes()).contiguous(), input.headDim());
        r.details[QStringLiteral("lazy_layers")] = lazy;
        r.details[QStringLiteral("achieved_ratio")] = 1.0 - r.keptFraction();
        return r;
    }

  private:
    double m_threshold;
    int m_last;
    int m_recent;
    int m_initial;
    QString m_spec;
};

std::unique_ptr<Press> makeSimLayerKv(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const double threshold = p.real(QStringLiteral("lazy_threshold"), kLazyThreshold, 0.0, 1e9);
    const int last = p.integer(QStringLiteral("n_last"), kLast, 1, 1 << 20);
    const int recent = p.integer(QStringLiteral("n_recent"), kSimLayerKvRecent, 1, 1 << 24);
    const int initial = p.integer(QStringLiteral("n_initial"), kInitial, 0, 1 << 24);
    p.finish();
    if (recent <= last)
        throw Error(p.canonical(), QStringLiteral("n_recent must exceed n_last (a lazy layer "
                                                  "keeps the last n_recent - n_last entries)"));
    return std::make_unique<SimLayerKvPress>(threshold, last, recent, initial, p.canonical());
}

} // namespace

PressEntry simLayerKvEntry()
{
    return {
        .name = QStringLiteral("simlayerkv"),
        .kind = PressEntry::Kind::Selector,
        .rule = QStringLiteral("SimLayerKV (Zhang et al. 2024, arXiv:2410.13846; kvpress "
                               "simlayerkv_press.py): a layer whose last n_last queries put more "
                               "than lazy_threshold of their attention (mean over heads) on the "
                               "first n_initial + last n_recent entries is lazy and keeps only the "
                               "first n_initial and last n_recent - n_last; others keep all; no "
                               "compression when T < n_initial + n_recent; r sets no budget "
                               "(r = 0 keeps all)"),
        .params =
            {{QStringLiteral("lazy_threshold"), QString::number(kLazyThreshold),
              QStringLiteral("attention mass above which a layer is lazy (kvpress: required)")},
             {QStringLiteral("n_last"), QString::number(kLast),
              QStringLiteral("last context queries that decide laziness")},
             {QStringLiteral("n_recent"), QString::number(kSimLayerKvRecent),
              QStringLiteral("recent entries whose attention counts (kept: n_recent - n_last)")},
             {QStringLiteral("n_initial"), QString::number(kInitial),
              QStringLiteral("initial entries (sinks) kept in lazy layers")}},
        .makePress = &makeSimLayerKv};
}

} // namespace kvl
