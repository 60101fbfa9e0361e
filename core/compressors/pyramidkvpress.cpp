// PyramidKV: layer l keeps round(max - l·(max - min)/(L - 1)) entries per head, with
// min = T(1-r)/β and max = 2T(1-r) - min; when max >= T - window, max = T - window and
// min = 2T(1-r) - max; uniform round(T(1-r)) unless T >= max >= min >= window; scores from
// SnapKV by default (kvpress PyramidKVPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"
#include "compressors/pyramidbudget.h"

#include <QJsonArray>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

struct PyramidRange
{
    double maxNum = 0.0;
    double minNum = 0.0;
    bool fallsBack = true;
};

PyramidRange pyramidRange(int64_t length, double ratio, int window, double beta, int layers)
{
    // kvpress's arithmetic, step for step (max_capacity_prompt includes the window).
    const double maxCapacity = window + double(length) * (1.0 - ratio);
    PyramidRange r;
    r.minNum = (maxCapacity - window) / beta;
    r.maxNum = (maxCapacity - window) * 2.0 - r.minNum;
    // The largest layer cannot keep more than the context outside the window: the
    // pyramid is flattened from the top, the total kept unchanged.
    if (r.maxNum >= double(length - window)) {
        r.maxNum = double(length - window);
        r.minNum = (maxCapacity - window) * 2.0 - r.maxNum;
    }
    r.fallsBack =
        !(double(length) >= r.maxNum && r.maxNum >= r.minNum && r.minNum >= window) || layers < 2;
    return r;
}

} // namespace

int64_t pyramidLayerBudget(int64_t length, double ratio, int window, double beta, int layer,
                           int layers)
{
    const PyramidRange r = pyramidRange(length, ratio, window, beta, layers);
    if (r.fallsBack)
        return int64_t(std::nearbyint(double(length) * (1.0 - ratio))); // Python round()
    const double steps = (r.maxNum - r.minNum) / double(layers - 1);
    return int64_t(std::nearbyint(r.maxNum - double(layer) * steps));
}

bool pyramidFallsBack(int64_t length, double ratio, int window, double beta, int layers)
{
    return pyramidRange(length, ratio, window, beta, layers).fallsBack;
}

namespace {

constexpr int kPyramidKvWindow = 64; // kvpress window_size (shared with SnapKV)
constexpr double kBeta = 20.;        // kvpress beta

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
        CompressionResult r =
            evictionResult(topKMaskPerRow(scores, perRow), scores, input.headDim());
        // Whether this (T, r) got a pyramid at all: below the lengths in the catalog's
        // rule it is SnapKV with another rounding, and a sweep should say so.
        r.details[QStringLiteral("uniform_fallback")] =
            pyramidFallsBack(input.length(), ratio, m_window, m_beta, input.layers());
        QJsonArray perLayer;
        for (int64_t b : budgets)
            perLayer.append(qint64(b));
        r.details[QStringLiteral("layer_budgets")] = perLayer;
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    int m_window;
    double m_beta;
    QString m_spec;
};

std::unique_ptr<Press> makePyramidKv(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const int window = p.integer(QStringLiteral("window"), kPyramidKvWindow, 0, 1 << 20);
    const double beta = p.real(QStringLiteral("beta"), kBeta, 1.0, 1e9);
    p.finish();
    auto scorer = catalog.innerScorer(spec, QStringLiteral("snapkv:window=%1").arg(window));
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<PyramidKvPress>(std::move(scorer), window, beta, canonical);
}

} // namespace

PressEntry pyramidKvEntry()
{
    return {
        .name = QStringLiteral("pyramidkv"),
        .kind = PressEntry::Kind::Selector,
        .rule =
            QStringLiteral("per-layer budgets falling linearly from max = min(2T(1-r) - "
                           "T(1-r)/beta, T - window) to 2T(1-r) - max; uniform round(T(1-r)) "
                           "when rT < window or (r > 0.5 and T(1-r) < beta x window): at the "
                           "defaults a pyramid needs T >= 64/r for r <= 0.5, T >= 1280/(1-r) "
                           "above; SnapKV scores (arXiv:2406.02069; kvpress pyramidkv_press.py)"),
        .inner = QStringLiteral("scorer (optional, default snapkv)"),
        .params = {{QStringLiteral("window"), QString::number(kPyramidKvWindow),
                    QStringLiteral("SnapKV window, also in the budget formula")},
                   {QStringLiteral("beta"), QString::number(kBeta),
                    QStringLiteral("ratio of the largest to the smallest layer budget's share")}},
        .makePress = &makePyramidKv};
}

} // namespace kvl
