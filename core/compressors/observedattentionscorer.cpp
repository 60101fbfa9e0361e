// ObservedAttention (H2O): attention each entry received from the context queries,
// divided by the number of queries that see it, mean over the GQA group (kvpress
// ObservedAttentionPress). Prefill accumulates it inside its attention blocks
// (LayerCache::receivedAttention); without it this scorer throws instead of recomputing
// attention over every query, which cost more than half a prefill.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

class ObservedAttentionScorer : public Scorer
{
  public:
    explicit ObservedAttentionScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    bool needsReceivedAttention() const override { return true; }
    bool entryWise() const override { return true; } // gathered with the entry (subcache.h)

    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            if (!l.receivedAttention.defined())
                throw Error(m_spec, QStringLiteral("needs the attention received by every entry, "
                                                   "accumulated by prefill (set "
                                                   "PrefillOptions::receivedAttention when "
                                                   "Press::needsReceivedAttention())"));
            if (l.receivedAttention.size(-1) != input.length())
                throw Error(m_spec, QStringLiteral("received attention covers %1 entries, the "
                                                   "context %2")
                                        .arg(l.receivedAttention.size(-1))
                                        .arg(input.length()));
            layers.push_back(l.receivedAttention);
        }
        return torch::stack(layers);
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> makeObservedAttention(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    p.finish();
    return std::make_unique<ObservedAttentionScorer>(p.canonical());
}

} // namespace

PressEntry observedAttentionEntry()
{
    return {.name = QStringLiteral("observed"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "H2O: score = attention received from the context queries / number of "
                "queries that see the entry, mean over the GQA group (arXiv:2306.14048; "
                "kvpress observed_attention_press.py)"),
            .makeScorer = &makeObservedAttention};
}

} // namespace kvl
