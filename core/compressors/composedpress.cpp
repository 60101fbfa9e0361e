// ComposedPress: presses applied one after the other, each on the entries the previous
// ones kept, stage i at ratio r_i with 1 - r = Π(1 - r_i) (by default every r_i =
// 1 - (1 - r)^(1/n)); transforms rewrite the survivors' K/V (kvpress ComposedPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/subcache.h"
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

class ComposedPress : public Press
{
  public:
    ComposedPress(std::vector<std::unique_ptr<Press>> presses, std::vector<double> ratios,
                  QString spec)
        : m_presses(std::move(presses)), m_ratios(std::move(ratios)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override
    {
        int64_t w = 0;
        for (const auto& p : m_presses)
            w = std::max(w, p->queryWindow(length));
        return w;
    }
    bool needsReceivedAttention() const override
    {
        return std::any_of(m_presses.begin(), m_presses.end(),
                           [](const auto& p) { return p->needsReceivedAttention(); });
    }
    bool needsAttentionInputs() const override
    {
        return std::any_of(m_presses.begin(), m_presses.end(),
                           [](const auto& p) { return p->needsAttentionInputs(); });
    }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        const auto n = double(m_presses.size());
        at::Tensor index = torch::arange(length, torch::kLong)
                               .expand({input.layers(), input.kvHeads(), length})
                               .contiguous();
        ContextCache current = *input.cache;
        CompressionResult result;
        bool transformed = false;
        CoverageType eviction = CoverageType::StructuralPositionAddressability;
        for (size_t i = 0; i < m_presses.size(); ++i) {
            const double stageRatio =
                m_ratios.empty() ? 1.0 - std::pow(1.0 - ratio, 1.0 / n) : m_ratios[i];
            CompressionInput stageInput = input;
            stageInput.cache = &current;
            stageInput.scoreMemo = nullptr; // the memo holds scores of the whole input
            CompressionResult stage = m_presses[i]->compress(stageInput, stageRatio);
            const at::Tensor kept = scatterMask(stage.kept, index, length);
            if (stage.coverage != CoverageType::StructuralPositionAddressability &&
                eviction != CoverageType::ProjectedTokenCoverage)
                eviction = stage.coverage; // projected wins: some stage kept whole chunks
            if (stage.rewritten) {         // a transform: its K/V replace the survivors'
                transformed = true;
                result.keyError = stage.keyError;
                result.valueError = stage.valueError;
                result.keptBytes = stage.keptBytes; // of the survivors, as the transform counts
                current = *stage.rewritten;
            }
            result.kept = kept;
            if (stage.scores.defined() && i == 0)
                result.scores = stage.scores;
            if (i + 1 < m_presses.size()) {
                const at::Tensor next = keptPositions(stage.kept);
                if (!next.defined())
                    throw Error(m_spec, QStringLiteral("stage %1 keeps different counts per head; "
                                                       "put head-wise presses last")
                                            .arg(i + 1));
                current = gatherEntries(current, next);
                index = index.gather(-1, next);
            }
        }
        // Rewritten contents are carried back to the full context's positions.
        CompressionResult out = evictionResult(result.kept, result.scores, input.headDim());
        if (transformed) {
            ContextCache rewritten = *input.cache;
            for (size_t l = 0; l < rewritten.layers.size(); ++l) {
                LayerCache& layer = rewritten.layers[l];
                const at::Tensor idx = index[int64_t(l)].unsqueeze(-1).expand(
                    {index.size(1), index.size(2), layer.keys.size(2)});
                layer.keys = layer.keys.clone().scatter_(1, idx, current.layers[l].keys);
                layer.values = layer.values.clone().scatter_(1, idx, current.layers[l].values);
            }
            out.rewritten = rewritten;
            out.keyError = result.keyError;
            out.valueError = result.valueError;
            out.keptBytes = std::min(out.keptBytes, result.keptBytes);
        }
        // Coverage is measured (or projected) as soon as one stage evicted positions.
        out.coverage = eviction;
        return out;
    }

  private:
    std::vector<std::unique_ptr<Press>> m_presses;
    std::vector<double> m_ratios;
    QString m_spec;
};

std::unique_ptr<Press> makeComposed(const PressSpec& spec, const PressCatalog& catalog)
{
    if (spec.inner.size() < 2)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("composed takes two or more presses: composed(a+b)"));
    PressParams p(spec);
    std::vector<double> ratios = p.reals(QStringLiteral("ratios"), 0.0, 0.999999);
    p.finish();
    if (!ratios.empty() && ratios.size() != spec.inner.size())
        throw Error(p.canonical(), QStringLiteral("needs one ratio per press"));
    std::vector<std::unique_ptr<Press>> presses;
    QStringList inner;
    for (const PressSpec& s : spec.inner) {
        presses.push_back(catalog.press(s));
        inner << presses.back()->spec();
    }
    const QString canonical = p.canonical(inner.join(u'+'));
    return std::make_unique<ComposedPress>(std::move(presses), std::move(ratios), canonical);
}

} // namespace

PressEntry composedEntry()
{
    return {.name = QStringLiteral("composed"),
            .kind = PressEntry::Kind::Wrapper,
            .rule = QStringLiteral(
                "presses in sequence, each on the previous survivors, 1 - r = "
                "prod(1 - r_i) (ratios=r1;r2 or an even split) (kvpress composed_press.py)"),
            .inner = QStringLiteral("press+press..."),
            .params = {{QStringLiteral("ratios"), QString(),
                        QStringLiteral("one ratio per press, ';'-separated (overrides --ratio)")}},
            .makePress = &makeComposed};
}

} // namespace kvl
