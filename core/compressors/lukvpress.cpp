// LU-KV (arXiv:2602.08585, "Predicting Future Utility: Global Combinatorial Optimization
// for Task-Agnostic KV Cache Eviction"; kvpress lukv_press.py): a head-wise budget curve
// [99, layers, kv_heads] of prune ratios, row round(100 r) - 1, sets how many entries each
// kv-head of a layer keeps: round(sum of (1 - p_h) T) per layer, split as floor((1 - p_h) T)
// plus one for the largest remainders; the inner scorer ranks entries within a head, the
// first `sink` and last `window` entries protected at the layer's max + 1. Without a curve
// every head gets p = (row + 1) / 100, as kvpress falls back for models it has none for.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/npyarray.h"
#include "compressors/presscatalog.h"

#include <QJsonArray>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kLukvSink = 4;   // kvpress sink
constexpr int kLukvWindow = 1; // kvpress window

class LukvPress : public Press
{
  public:
    LukvPress(std::unique_ptr<Scorer> scorer, at::Tensor curve, QString curvePath, int sink,
              int window, QString spec)
        : m_scorer(std::move(scorer)), m_curve(std::move(curve)), m_curvePath(std::move(curvePath)),
          m_sink(sink), m_window(window), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    // Kept entries per kv-head of one layer for the prune ratios p [kv_heads] (float32, as
    // kvpress reads the curve).
    static at::Tensor headBudgets(const at::Tensor& prune, int64_t length)
    {
        const int64_t heads = prune.size(0);
        const at::Tensor ideal = (1.0f - prune).clamp(0.0, 1.0) * float(length);
        const int64_t total = std::clamp<int64_t>(
            int64_t(std::nearbyint(ideal.sum().item<double>())), heads, heads * length);
        at::Tensor base = ideal.floor().to(torch::kLong);
        const int64_t remainder = total - base.sum().item<int64_t>();
        if (remainder > 0) {
            // Largest fractional parts first; equal ones in head order.
            const at::Tensor order = std::get<1>(
                (ideal - base.to(torch::kFloat)).sort(/*stable=*/true, 0, /*descending=*/true));
            base.index_put_({order.narrow(0, 0, std::min(remainder, heads))},
                            base.index({order.narrow(0, 0, std::min(remainder, heads))}) + 1);
        }
        return base.clamp(1, length);
    }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        const int layers = input.layers(), kv = input.kvHeads();
        if (ratio == 0.0) {
            const at::Tensor all = torch::ones({layers, kv, length}, torch::kBool);
            return evictionResult(all, {}, input.headDim());
        }
        const int64_t row = std::clamp<int64_t>(int64_t(std::nearbyint(ratio * 100.0)) - 1, 0, 98);
        at::Tensor curve;
        if (m_curve.defined()) {
            if (m_curve.size(1) != layers || m_curve.size(2) != kv)
                throw Error(m_curvePath,
                            QStringLiteral("budget curve is for %1 layers x %2 kv-heads, "
                                           "the model has %3 x %4")
                                .arg(m_curve.size(1))
                                .arg(m_curve.size(2))
                                .arg(layers)
                                .arg(kv));
            curve = m_curve[row];
        } else {
            curve = torch::full({layers, kv}, float(row + 1) / 100.0f, torch::kFloat);
        }
        at::Tensor scores = m_scorer->score(input, ratio).clone();
        std::vector<at::Tensor> budgets;
        for (int l = 0; l < layers; ++l) {
            at::Tensor s = scores[l];
            const double top = s.max().item<double>() + 1.0;
            s.narrow(-1, 0, std::min<int64_t>(m_sink, length)).fill_(top);
            const int64_t w = std::min<int64_t>(m_window, length);
            s.narrow(-1, length - w, w).fill_(top);
            budgets.push_back(headBudgets(curve[l], length));
        }
        const at::Tensor perHead = torch::stack(budgets);
        CompressionResult r =
            evictionResult(topKMaskPerRow(scores, perHead), scores, input.headDim());
        r.details[QStringLiteral("curve_row")] = qint64(row);
        r.details[QStringLiteral("curve")] =
            m_curve.defined() ? m_curvePath : QStringLiteral("uniform");
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    at::Tensor m_curve; // [>= 99, layers, kv_heads] float32; undefined = uniform
    QString m_curvePath;
    int m_sink;
    int m_window;
    QString m_spec;
};

std::unique_ptr<Press> makeLukv(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const QString path = p.text(QStringLiteral("curve"), QString());
    const int sink = p.integer(QStringLiteral("sink"), kLukvSink, 0, 1 << 20);
    const int window = p.integer(QStringLiteral("window"), kLukvWindow, 0, 1 << 20);
    p.finish();
    at::Tensor curve;
    if (!path.isEmpty()) {
        curve = readNpy(path);
        if (curve.dim() != 3 || curve.size(0) < 99)
            throw Error(path, QStringLiteral("LU-KV budget curve must have shape [99, layers, "
                                             "kv_heads], got %1 dimensions")
                                  .arg(curve.dim()));
    }
    auto scorer = catalog.innerScorer(spec, QStringLiteral("expected:epsilon=0.02"));
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<LukvPress>(std::move(scorer), curve, path, sink, window, canonical);
}

} // namespace

PressEntry lukvEntry()
{
    return {.name = QStringLiteral("lukv"),
            .kind = PressEntry::Kind::Selector,
            .rule = QStringLiteral(
                "LU-KV (arXiv:2602.08585; kvpress lukv_press.py): curve row "
                "round(100r) - 1 gives each kv-head a prune ratio p; a layer keeps "
                "round(sum (1 - p_h) T) entries, floor((1 - p_h) T) per head plus one "
                "for the largest remainders; first `sink` and last `window` entries "
                "protected; uniform p = (row + 1)/100 without a curve (kvpress's "
                "fallback); ExpectedAttention(epsilon 0.02) scores by default"),
            .inner = QStringLiteral("scorer (optional)"),
            .params = {{QStringLiteral("curve"), QString(),
                        QStringLiteral(
                            ".npy budget curve [99, layers, kv_heads] of prune ratios (empty: "
                            "uniform)")},
                       {QStringLiteral("sink"), QString::number(kLukvSink),
                        QStringLiteral("initial entries protected")},
                       {QStringLiteral("window"), QString::number(kLukvWindow),
                        QStringLiteral("last entries protected")}},
            .makePress = &makeLukv};
}

} // namespace kvl
