// PyramidKV: layer l keeps round(max - l·(max - min)/(L - 1)) entries per head, with
// min = T(1-r)/β and max = 2T(1-r) - min, falling back to the uniform int(T(1-r))
// unless T >= max >= min >= window; scores from SnapKV by default (kvpress PyramidKVPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"
#include "compressors/pyramidbudget.h"

#include <cmath>
#include <torch/torch.h>

namespace kvl {

int64_t pyramidLayerBudget(int64_t length, double ratio, int window, double beta, int layer,
                           int layers)
{
    const double maxCapacity = window + double(length) * (1.0 - ratio);
    const double minNum = (maxCapacity - window) / beta;
    const double maxNum = (maxCapacity - window) * 2.0 - minNum;
    if (!(double(length) >= maxNum && maxNum >= minNum && minNum >= window) || layers < 2)
        return int64_t(std::nearbyint(double(length) * (1.0 - ratio))); // Python round()
    const double steps = (maxNum - minNum) / double(layers - 1);
    return int64_t(std::nearbyint(maxNum - double(layer) * steps));
}

namespace {

constexpr int kWindow = 64;   // kvpress window_size (shared with SnapKV)
constexpr double kBeta = 20.; // kvpress beta

class PyramidKvPress : public Press
{
  public:
    PyramidKvPress(std::unique_ptr<Scorer> scorer, int window, double beta, QString spec)
        : m_scorer(std::move(scorer)), m_window(window), m_beta(beta), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const at::Tensor scores = m_scorer->score(input, ratio);
        std::vector<int64_t> budgets;
        for (int l = 0; l < input.layers(); ++l)
            budgets.push_back(
                pyramidLayerBudget(input.length(), ratio, m_window, m_beta, l, input.layers()));
        const at::Tensor perRow = torch::tensor(budgets, torch::kLong)
                                      .unsqueeze(1)
                                      .expand({input.layers(), input.kvHeads()});
        return evictionResult(topKMaskPerRow(scores, perRow), scores, input.headDim());
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    int m_window;
    double m_beta;
    QString m_spec;
};

std::unique_ptr<Press> make(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const int window = p.integer(QStringLiteral("window"), kWindow, 0, 1 << 20);
    const double beta = p.real(QStringLiteral("beta"), kBeta, 1.0, 1e9);
    p.finish();
    auto scorer = catalog.innerScorer(spec, QStringLiteral("snapkv:window=%1").arg(window));
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<PyramidKvPress>(std::move(scorer), window, beta, canonical);
}

} // namespace

PressEntry pyramidKvEntry()
{
    return {QStringLiteral("pyramidkv"),
            PressEntry::Kind::Selector,
            QStringLiteral("per-layer budgets falling linearly from 2T(1-r)-min to min = "
                           "T(1-r)/beta (uniform when that does not fit); SnapKV scores"),
            QStringLiteral("scorer (optional, default snapkv)"),
            {{QStringLiteral("window"), QString::number(kWindow),
              QStringLiteral("SnapKV window, also in the budget formula")},
             {QStringLiteral("beta"), QString::number(kBeta),
              QStringLiteral("ratio of the largest to the smallest layer budget's share")}},
            nullptr,
            &make};
}

} // namespace kvl
