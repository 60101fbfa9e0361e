// AdaKV: head-wise allocation within a layer: each head first keeps its top
// int(alpha_safeguard · n_kept) entries, then the layer's kv_heads · n_kept entries are
// the best scores over all its heads together (kvpress AdaKVPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <limits>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kAlphaSafeguard = 0.20; // kvpress alpha_safeguard

class AdaKvPress : public Press
{
  public:
    AdaKvPress(std::unique_ptr<Scorer> scorer, double alpha, QString spec)
        : m_scorer(std::move(scorer)), m_alpha(alpha), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const at::Tensor scores = m_scorer->score(input, ratio);
        const int64_t length = input.length(), heads = input.kvHeads();
        const int64_t kept = keptPerHead(length, ratio);
        const int64_t safe = int64_t(double(kept) * m_alpha);
        // Safeguarded entries outrank everything but protected (+inf) ones.
        const at::Tensor safeMask = topKMask(scores, safe) & ~protectedEntries(scores);
        const at::Tensor boosted = scores.masked_fill(safeMask, std::numeric_limits<float>::max());
        const at::Tensor flat = boosted.reshape({input.layers(), heads * length});
        const at::Tensor mask = topKMask(flat, heads * kept).reshape(scores.sizes());
        CompressionResult r = evictionResult(mask, scores, input.headDim());
        r.details[QStringLiteral("safeguard_per_head")] = qint64(safe);
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    double m_alpha;
    QString m_spec;
};

std::unique_ptr<Press> makeAdaKv(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const double alpha = p.real(QStringLiteral("alpha_safeguard"), kAlphaSafeguard, 0.0, 1.0);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<AdaKvPress>(std::move(scorer), alpha, canonical);
}

} // namespace

PressEntry adaKvEntry()
{
    return {.name = QStringLiteral("adakv"),
            .kind = PressEntry::Kind::Selector,
            .rule =
                QStringLiteral("each head keeps its top alpha_safeguard share of n_kept, then the "
                               "layer's kv_heads x n_kept best entries over all heads "
                               "(arXiv:2407.11550; kvpress adakv_press.py)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("alpha_safeguard"), QString::number(kAlphaSafeguard),
                        QStringLiteral("share of the uniform budget every head keeps")}},
            .makePress = &makeAdaKv};
}

} // namespace kvl
