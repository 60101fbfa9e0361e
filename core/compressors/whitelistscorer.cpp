// Whitelisting: entries of protected spans score +inf, so every selector keeps them
// (beyond the budget if need be) and fills the rest of the budget by the inner score
// (the pitfalls study's fix: the remaining n_kept - |protected| are the top-k).
#include "cache/pressparams.h"
#include "cache/spanroles.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include <QStringList>

#include <torch/types.h>

namespace kvl {
namespace {

class WhitelistScorer : public Scorer
{
  public:
    WhitelistScorer(std::unique_ptr<Scorer> inner, QStringList roles, QString spec)
        : m_inner(std::move(inner)), m_roles(std::move(roles)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_inner->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_inner->needsReceivedAttention(); }
    bool usesRatio() const override { return m_inner->usesRatio(); }

    at::Tensor score(const CompressionInput& input, double ratio) const override
    {
        at::Tensor scores = m_inner->score(input, ratio).clone();
        const int64_t length = input.length();
        for (const ContextSpan& span : input.spans) {
            if (!spanSelected(span, m_roles))
                continue;
            const int64_t b = std::clamp<int64_t>(span.begin, 0, length);
            const int64_t e = std::clamp<int64_t>(span.end, b, length);
            if (e > b)
                scores.narrow(2, b, e - b).fill_(INFINITY);
        }
        return scores;
    }

  private:
    std::unique_ptr<Scorer> m_inner;
    QStringList m_roles;
    QString m_spec;
};

std::unique_ptr<Scorer> makeWhitelist(const PressSpec& spec, const PressCatalog& catalog)
{
    if (spec.inner.size() != 1)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("whitelist wraps one scorer: whitelist(snapkv)"));
    PressParams p(spec);
    const QString roles = p.text(QStringLiteral("roles"), {});
    p.finish();
    auto inner = catalog.scorer(spec.inner[0]);
    const QString canonical = p.canonical(inner->spec());
    return std::make_unique<WhitelistScorer>(
        std::move(inner), roles.isEmpty() ? QStringList() : roles.split(u';'), canonical);
}

} // namespace

PressEntry whitelistEntry()
{
    return {
        .name = QStringLiteral("whitelist"),
        .kind = PressEntry::Kind::Wrapper,
        .rule = QStringLiteral("protected spans always kept; the rest of the budget by the inner "
                               "score (KVLens; the fix of the pitfalls study, arXiv:2510.00231)"),
        .inner = QStringLiteral("scorer"),
        .params =
            {{QStringLiteral("roles"), QString(),
              QStringLiteral(
                  "span roles to protect, ';'-separated, or all (default: instruction spans)")}},
        .makeScorer = &makeWhitelist};
}

} // namespace kvl
