// ObservedAttention (H2O): attention each entry received from the context queries,
// divided by the number of queries that see it, mean over the GQA group (kvpress
// ObservedAttentionPress). Exact when prefill captured every query (queryWindow = T);
// with a shorter capture it sums over the captured last queries only.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <torch/torch.h>

namespace kvl {
namespace {

class ObservedAttentionScorer : public Scorer
{
  public:
    explicit ObservedAttentionScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            if (!l.windowQueries.defined() || l.windowQueries.size(1) == 0)
                throw Error(m_spec, QStringLiteral("needs the context queries (prefill window)"));
            at::Tensor seen;
            const at::Tensor received = attentionReceived(l, &seen); // [heads, T]
            layers.push_back(groupMean(received / seen, input.kvHeads()));
        }
        return torch::stack(layers);
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> make(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    p.finish();
    return std::make_unique<ObservedAttentionScorer>(p.canonical());
}

} // namespace

PressEntry observedAttentionEntry()
{
    return {QStringLiteral("observed"),
            PressEntry::Kind::Scorer,
            QStringLiteral("H2O: score = attention received from the context queries / number of "
                           "queries that see the entry, mean over the GQA group"),
            {},
            {},
            &make,
            nullptr};
}

} // namespace kvl
