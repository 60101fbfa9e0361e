// Merging (merge-on-evict; kvpress merging_press.py, after Token Merging, Bolya et al.,
// ICLR 2023, and D2O, Wan et al. 2024): the inner scorer's int(T(1 - r)) best entries per
// head are kept, as ScorerPress; each evicted entry's value is folded into the kept entry
// whose key is most cosine-similar, with weight max(sim, 0) x |v_e| / (|v_e| + |v_t| +
// 1e-6) (only when sim >= similarity_threshold and among the merge_fraction most similar
// evicted entries); a target that received weights W and sum S becomes (v + S) / (1 + W).
// Keys are unchanged.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kSimilarityThreshold = 0.0; // kvpress similarity_threshold
constexpr double kMergeFraction = 1.0;       // kvpress merge_fraction
constexpr double kEps = 1e-6;                // kvpress _EPS

class MergingPress : public Press
{
  public:
    MergingPress(std::unique_ptr<Scorer> scorer, double threshold, double fraction, QString spec)
        : m_scorer(std::move(scorer)), m_threshold(threshold), m_fraction(fraction),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    // Values of one (layer, kv-head) after merging: keys [T, d], values [T, d], keep [T].
    at::Tensor merged(const at::Tensor& keys, const at::Tensor& values,
                      const at::Tensor& keep) const
    {
        const at::Tensor keptIdx = keep.nonzero().squeeze(1);
        const at::Tensor evictIdx = (~keep).nonzero().squeeze(1);
        if (keptIdx.numel() == 0 || evictIdx.numel() == 0)
            return values;
        const auto unit = [](const at::Tensor& x) {
            return x / x.norm(2, -1, true).clamp_min(kEps);
        };
        const at::Tensor keptKeys = unit(keys.index_select(0, keptIdx).to(torch::kFloat));
        const at::Tensor evictKeys = unit(keys.index_select(0, evictIdx).to(torch::kFloat));
        auto [sim, target] = torch::matmul(evictKeys, keptKeys.t()).max(-1);
        at::Tensor ok = sim >= m_threshold;
        if (m_fraction < 1.0 && ok.any().item<bool>()) {
            const at::Tensor gate =
                torch::quantile(sim.masked_fill(~ok, -INFINITY), 1.0 - m_fraction);
            ok = ok & (sim >= gate);
        }
        const at::Tensor keptValues = values.index_select(0, keptIdx).to(torch::kFloat);
        const at::Tensor evictValues = values.index_select(0, evictIdx).to(torch::kFloat);
        const at::Tensor evictNorm = evictValues.norm(2, -1);
        const at::Tensor targetNorm = keptValues.norm(2, -1).index_select(0, target);
        const at::Tensor weight =
            sim.clamp_min(0.0) * ok.to(torch::kFloat) * evictNorm / (evictNorm + targetNorm + kEps);
        const int64_t n = keptIdx.numel();
        const at::Tensor sum =
            torch::zeros_like(keptValues).index_add_(0, target, weight.unsqueeze(-1) * evictValues);
        const at::Tensor total = torch::zeros({n}, torch::kFloat).index_add_(0, target, weight);
        const at::Tensor blended =
            torch::where((total > 0).unsqueeze(-1),
                         (keptValues + sum) / (1.0 + total).unsqueeze(-1), keptValues);
        return values.index_copy(0, keptIdx, blended.to(values.scalar_type()));
    }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const at::Tensor scores = m_scorer->score(input, ratio);
        const at::Tensor kept = topKMask(scores, keptPerHead(input.length(), ratio));
        CompressionResult r = evictionResult(kept, scores, input.headDim());
        if (ratio == 0.0)
            return r;
        ContextCache out = *input.cache;
        double diff = 0.0, norm = 0.0;
        for (size_t l = 0; l < out.layers.size(); ++l) {
            const LayerCache& src = input.cache->layers[l];
            std::vector<at::Tensor> heads;
            for (int64_t h = 0; h < src.values.size(0); ++h)
                heads.push_back(merged(src.keys[h], src.values[h], kept[int64_t(l)][h]));
            out.layers[l].values = torch::stack(heads);
            diff += (out.layers[l].values - src.values).pow(2).sum().item<double>();
            norm += src.values.pow(2).sum().item<double>();
        }
        r.rewritten = out;
        r.valueError = norm > 0 ? std::sqrt(diff / norm) : 0.0;
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    double m_threshold;
    double m_fraction;
    QString m_spec;
};

std::unique_ptr<Press> makeMerging(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const double threshold =
        p.real(QStringLiteral("similarity_threshold"), kSimilarityThreshold, 0.0, 1.0);
    const double fraction = p.real(QStringLiteral("merge_fraction"), kMergeFraction, 1e-9, 1.0);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<MergingPress>(std::move(scorer), threshold, fraction, canonical);
}

} // namespace

PressEntry mergingEntry()
{
    return {
        .name = QStringLiteral("merging"),
        .kind = PressEntry::Kind::Wrapper,
        .rule =
            QStringLiteral("merge-on-evict (kvpress merging_press.py, after ToMe, Bolya et al. "
                           "ICLR 2023, and D2O, Wan et al. 2024): the scorer's int(T(1-r)) best "
                           "kept per head; each evicted value folds into the kept entry of most "
                           "cosine-similar key, weight max(sim,0)|v_e|/(|v_e|+|v_t|+1e-6), "
                           "target = (v + sum w v_e)/(1 + sum w); keys unchanged"),
        .inner = QStringLiteral("scorer"),
        .params = {{QStringLiteral("similarity_threshold"), QString::number(kSimilarityThreshold),
                    QStringLiteral("minimum cosine similarity for a merge")},
                   {QStringLiteral("merge_fraction"), QString::number(kMergeFraction),
                    QStringLiteral("fraction of evicted entries (most similar first) merged")}},
        .makePress = &makeMerging};
}

} // namespace kvl
