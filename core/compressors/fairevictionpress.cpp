// Fair eviction: n_kept = int(T(1-r)) per head is split across the spans and the rest
// of the context in proportion to their lengths (largest remainder), top-k inside each
// part per head, so every span loses the same fraction r (the pitfalls study's fix).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "cache/spanroles.h"
#include "compressors/presscatalog.h"
#include <QStringList>

#include <cmath>
#include <numeric>
#include <torch/types.h>

namespace kvl {
namespace {

class FairEvictionPress : public Press
{
  public:
    FairEvictionPress(std::unique_ptr<Scorer> scorer, QStringList roles, QString spec)
        : m_scorer(std::move(scorer)), m_roles(std::move(roles)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const at::Tensor scores = m_scorer->score(input, ratio);
        const int64_t length = input.length();
        // Part of every position: span i (first span wins on overlaps), or the rest (0).
        std::vector<int64_t> part(size_t(length), 0);
        int64_t parts = 1;
        for (const ContextSpan& s : input.spans) {
            if (!spanSelected(s, m_roles))
                continue;
            bool used = false;
            for (int64_t t = std::max<int64_t>(0, s.begin); t < std::min(s.end, length); ++t)
                if (part[size_t(t)] == 0) {
                    part[size_t(t)] = parts;
                    used = true;
                }
            parts += used ? 1 : 0;
        }
        std::vector<int64_t> sizes(size_t(parts), 0);
        for (int64_t p : part)
            ++sizes[size_t(p)];
        const std::vector<int64_t> quota = splitBudget(sizes, keptPerHead(length, ratio), ratio);

        const at::Tensor partIndex = torch::tensor(part, torch::kLong);
        at::Tensor mask = torch::zeros(scores.sizes(), torch::kBool);
        for (int64_t p = 0; p < parts; ++p) {
            if (sizes[size_t(p)] == 0)
                continue;
            const at::Tensor positions = (partIndex == p).nonzero().squeeze(1);
            const at::Tensor sub = topKMask(scores.index_select(2, positions), quota[size_t(p)]);
            mask.index_copy_(2, positions, sub);
        }
        CompressionResult r = evictionResult(mask, scores, input.headDim());
        r.details[QStringLiteral("parts")] = qint64(parts);
        return r;
    }

  private:
    // floor(L_p(1-r)) each, then the entries left to reach n_kept go to the largest
    // remainders (ties: earlier part), so every part keeps within one entry of L_p(1-r).
    static std::vector<int64_t> splitBudget(const std::vector<int64_t>& sizes, int64_t kept,
                                            double ratio)
    {
        std::vector<int64_t> quota;
        std::vector<double> remainder;
        for (int64_t n : sizes) {
            const double exact = double(n) * (1.0 - ratio);
            quota.push_back(std::min<int64_t>(n, int64_t(std::floor(exact))));
            remainder.push_back(exact - std::floor(exact));
        }
        int64_t left = kept - std::accumulate(quota.begin(), quota.end(), int64_t(0));
        std::vector<size_t> order(sizes.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return remainder[a] > remainder[b]; });
        for (size_t i = 0; left > 0 && i < order.size(); ++i)
            if (quota[order[i]] < sizes[order[i]]) {
                ++quota[order[i]];
                --left;
            }
        return quota;
    }

    std::unique_ptr<Scorer> m_scorer;
    QStringList m_roles;
    QString m_spec;
};

std::unique_ptr<Press> makeFairEviction(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const QString roles = p.text(QStringLiteral("roles"), {});
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<FairEvictionPress>(
        std::move(scorer), roles.isEmpty() ? QStringList() : roles.split(u';'), canonical);
}

} // namespace

PressEntry fairEvictionEntry()
{
    return {.name = QStringLiteral("fair"),
            .kind = PressEntry::Kind::Selector,
            .rule =
                QStringLiteral("the budget split across spans and the rest in proportion to their "
                               "lengths, top-k per part per head: every span loses the fraction r "
                               "(KVLens; the fix of the pitfalls study, arXiv:2510.00231)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("roles"), QString(),
                        QStringLiteral(
                            "span roles that get their own share, ';'-separated, or all (default: "
                            "instruction spans)")}},
            .makePress = &makeFairEviction};
}

} // namespace kvl
