// PerLayerCompression: layer l uses its own ratio r_l (ratios=r0;r1;...), uniform top-k
// per head within the layer; without ratios every layer uses r (kvpress
// PerLayerCompressionPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

class PerLayerPress : public Press
{
  public:
    PerLayerPress(std::unique_ptr<Scorer> scorer, std::vector<double> ratios, QString spec)
        : m_scorer(std::move(scorer)), m_ratios(std::move(ratios)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        if (!m_ratios.empty() && int(m_ratios.size()) != input.layers())
            throw Error(m_spec, QStringLiteral("%1 ratios given for %2 layers")
                                    .arg(m_ratios.size())
                                    .arg(input.layers()));
        const at::Tensor scores = m_scorer->score(input, ratio);
        std::vector<int64_t> budgets;
        for (int l = 0; l < input.layers(); ++l)
            budgets.push_back(keptPerHead(input.length(), m_ratios.empty() ? ratio : m_ratios[l]));
        const at::Tensor perRow = torch::tensor(budgets, torch::kLong)
                                      .unsqueeze(1)
                                      .expand({input.layers(), input.kvHeads()});
        return evictionResult(topKMaskPerRow(scores, perRow), scores, input.headDim());
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    std::vector<double> m_ratios;
    QString m_spec;
};

std::unique_ptr<Press> makePerLayer(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    std::vector<double> ratios = p.reals(QStringLiteral("ratios"), 0.0, 0.999999);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<PerLayerPress>(std::move(scorer), std::move(ratios), canonical);
}

} // namespace

PressEntry perLayerEntry()
{
    return {.name = QStringLiteral("perlayer"),
            .kind = PressEntry::Kind::Selector,
            .rule =
                QStringLiteral("layer l keeps int(T(1-r_l)) entries per head (ratios=r0;r1;...; "
                               "default r everywhere) (kvpress per_layer_compression_press.py)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("ratios"), QString(),
                        QStringLiteral("one ratio per layer, ';'-separated")}},
            .makePress = &makePerLayer};
}

} // namespace kvl
