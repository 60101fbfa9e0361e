// CriticalKV: two stages: the inner scorer's top int((1 - r)·T·first_stage_ratio) entries
// are kept outright; every other entry is rescored (score + ε)·||W_o v||₁, the value's
// L1 norm after the output projection, mean over the GQA group (kvpress CriticalKVPress).
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"
#include "model/linear.h"
#include "model/modelweights.h"

#include <limits>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kFirstStageRatio = 0.5;    // kvpress first_stage_ratio
constexpr double kCriticalKvEpsilon = 1e-4; // kvpress epsilon
constexpr int64_t kNormBlock = 1 << 22;     // floats per block of the ||W_o v||₁ product (16 MB)

class CriticalKvScorer : public Scorer
{
  public:
    CriticalKvScorer(std::unique_ptr<Scorer> inner, double firstStage, double eps, QString spec)
        : m_inner(std::move(inner)), m_firstStage(firstStage), m_eps(eps), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_inner->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_inner->needsReceivedAttention(); }
    bool usesRatio() const override { return true; } // the first stage's budget

    at::Tensor score(const CompressionInput& input, double ratio) const override
    {
        if (!input.weights)
            throw Error(m_spec, QStringLiteral("needs the model weights (o_proj)"));
        const at::Tensor inner = m_inner->score(input, ratio);
        at::Tensor scores = inner.clone();
        const int64_t length = input.length();
        const int64_t budget = int64_t((1.0 - ratio) * double(length) * m_firstStage);
        at::Tensor first;
        if (budget > 0)
            first = std::get<1>(scores.topk(std::min(budget, length), -1, true, true));
        std::vector<at::Tensor> norms;
        for (int l = 0; l < input.layers(); ++l)
            norms.push_back(projectedNorm(input, l, first.defined() ? first[l] : at::Tensor()));
        scores = (scores + m_eps) * torch::stack(norms);
        if (first.defined())
            scores.scatter_(-1, first, std::numeric_limits<float>::max());
        return torch::where(inner.isposinf(), inner, scores); // protected stay protected
    }

  private:
    // ||W_o,h v||₁ per query head h, mean over each GQA group: [kv, T]. Entries of
    // `skip` ([kv, n] positions per kv-head, the first stage's picks, whose scores are
    // overwritten) are not projected and read 0: the product is the press's cost, and
    // the first stage spares first_stage_ratio of the kept entries of it.
    static at::Tensor projectedNorm(const CompressionInput& input, int layer,
                                    const at::Tensor& skip)
    {
        const int64_t heads = input.heads(), kvHeads = input.kvHeads(), d = input.headDim();
        const int64_t group = heads / kvHeads;
        // [hidden, heads*d], float32 (one layer at a time when the weights are 16-bit)
        const at::Tensor o = floatWeight(input.weights->layers[size_t(layer)].o);
        const int64_t hidden = o.size(0);
        // Per kv-head, its group's W_o slices side by side: [kv, d, group*hidden]. One
        // product per kv-head serves the whole group (no repeat_kv copy of the values)
        // and is wide enough for the BLAS to run near its peak.
        const at::Tensor wo = o.t()
                                  .reshape({kvHeads, group, d, hidden})
                                  .permute({0, 2, 1, 3})
                                  .reshape({kvHeads, d, group * hidden});
        const at::Tensor& all = input.cache->layers[size_t(layer)].values; // [kv, T, d]
        const int64_t length = all.size(1);
        at::Tensor v = all, rest;
        if (skip.defined() && skip.size(1) >= length)
            return torch::zeros({kvHeads, length}, torch::kFloat32);
        if (skip.defined() && skip.size(1) > 0) {
            // The same count per kv-head is skipped, so the rest is a [kv, T - n] block.
            at::Tensor keep = torch::ones({kvHeads, length}, torch::kBool);
            keep.scatter_(1, skip, false);
            rest = torch::arange(length, torch::kLong)
                       .expand({kvHeads, length})
                       .masked_select(keep)
                       .view({kvHeads, -1});
            v = all.gather(1, rest.unsqueeze(-1).expand({-1, -1, d}));
        }
        // In blocks of positions, so that the product is still in cache for its abs and
        // sum: the whole [kv, T, group*hidden] is a few hundred MB at 4k tokens on 0.5B.
        const int64_t rows = std::max<int64_t>(1, kNormBlock / (heads * hidden));
        std::vector<at::Tensor> norms;
        for (int64_t t = 0; t < v.size(1); t += rows) {
            const int64_t n = std::min<int64_t>(rows, v.size(1) - t);
            norms.push_back(torch::bmm(v.narrow(1, t, n), wo)
                                .abs_()
                                .view({kvHeads, n, group, hidden})
                                .sum(-1)    // ||W_o,h v||₁ per head of the group
                                .mean(-1)); // mean over the group
        }
        const at::Tensor projected = torch::cat(norms, 1);
        if (!rest.defined())
            return projected;
        return torch::zeros({kvHeads, length}, projected.options()).scatter_(1, rest, projected);
    }

    std::unique_ptr<Scorer> m_inner;
    double m_firstStage;
    double m_eps;
    QString m_spec;
};

std::unique_ptr<Scorer> makeCriticalKv(const PressSpec& spec, const PressCatalog& catalog)
{
    if (spec.inner.size() != 1)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("criticalkv wraps one scorer: criticalkv(snapkv)"));
    PressParams p(spec);
    const double first = p.real(QStringLiteral("first_stage_ratio"), kFirstStageRatio, 0.0, 1.0);
    const double eps = p.real(QStringLiteral("epsilon"), kCriticalKvEpsilon, 0.0, 1e9);
    p.finish();
    auto inner = catalog.scorer(spec.inner[0]);
    const QString canonical = p.canonical(inner->spec());
    return std::make_unique<CriticalKvScorer>(std::move(inner), first, eps, canonical);
}

} // namespace

PressEntry criticalKvEntry()
{
    return {.name = QStringLiteral("criticalkv"),
            .kind = PressEntry::Kind::Wrapper,
            .rule = QStringLiteral(
                "keep the inner top first_stage_ratio of the budget, rescore the rest "
                "(score + eps) x ||W_o v||_1 (arXiv:2502.03805; kvpress criticalkv_press.py)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("first_stage_ratio"), QString::number(kFirstStageRatio),
                        QStringLiteral("share of the budget chosen by the inner score alone")},
                       {QStringLiteral("epsilon"), QString::number(kCriticalKvEpsilon),
                        QStringLiteral("added to the score before the projection norm")}},
            .makeScorer = &makeCriticalKv};
}

} // namespace kvl
