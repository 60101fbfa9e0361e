#include "compressors/scorerpress.h"

#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {

ScorerPress::ScorerPress(std::unique_ptr<Scorer> scorer, QString spec)
    : m_scorer(std::move(scorer)), m_spec(spec.isEmpty() ? m_scorer->spec() : spec)
{}

CompressionResult ScorerPress::compress(const CompressionInput& input, double ratio) const
{
    checkRatio(ratio, m_spec);
    at::Tensor scores;
    if (input.scoreMemo != nullptr && !m_scorer->usesRatio()) {
        at::Tensor& memo = (*input.scoreMemo)[m_scorer->spec()];
        if (!memo.defined())
            memo = m_scorer->score(input, ratio);
        scores = memo;
    } else {
        scores = m_scorer->score(input, ratio);
    }
    return evictionResult(topKMask(scores, keptPerHead(input.length(), ratio)), scores,
                          input.headDim());
}

namespace {
std::unique_ptr<Press> makeUniform(const PressSpec& spec, const PressCatalog& catalog)
{
    if (spec.inner.size() != 1)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("uniform takes one scorer: uniform(snapkv)"));
    PressParams params(spec);
    params.finish();
    auto scorer = catalog.scorer(spec.inner[0]);
    const QString canonical = params.canonical(scorer->spec());
    return std::make_unique<ScorerPress>(std::move(scorer), canonical);
}
} // namespace

PressEntry uniformEntry()
{
    return {.name = QStringLiteral("uniform"),
            .kind = PressEntry::Kind::Selector,
            .rule =
                QStringLiteral("every kv-head keeps its int(T(1-r)) best-scored entries (kvpress "
                               "ScorerPress; a bare scorer name means the same)"),
            .inner = QStringLiteral("scorer"),
            .makePress = &makeUniform};
}

} // namespace kvl
