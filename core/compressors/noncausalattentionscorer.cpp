// Non-causal attention, Compactor's attention score (Chari & Van Durme 2025,
// arXiv:2507.08143; kvpress non_causal_attention_press.py): chunked non-causal attention
// summed over each chunk's queries, mean over the GQA group, x ||v||, avg-pooled by 3,
// z-normalised over the layer (see compactorscores.h).
#include "cache/pressparams.h"
#include "compressors/compactorscores.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kNonCausalChunk = 256; // kvpress chunk_size

class NonCausalAttentionScorer : public Scorer
{
  public:
    NonCausalAttentionScorer(int chunk, QString spec) : m_chunk(chunk), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers)
            layers.push_back(nonCausalAttentionScores(l, 0, input.length(), m_chunk, m_spec));
        return torch::stack(layers);
    }

  private:
    int m_chunk;
    QString m_spec;
};

std::unique_ptr<Scorer> makeNonCausalAttention(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int chunk = p.integer(QStringLiteral("chunk_size"), kNonCausalChunk, 1, 1 << 20);
    p.finish();
    return std::make_unique<NonCausalAttentionScorer>(chunk, p.canonical());
}

} // namespace

PressEntry nonCausalAttentionEntry()
{
    return {.name = QStringLiteral("non_causal_attention"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("Compactor's attention score (Chari & Van Durme 2025, "
                               "arXiv:2507.08143; kvpress non_causal_attention_press.py): inside "
                               "chunks of chunk_size every query attends to every key, unscaled; "
                               "score = attention summed over the chunk's queries, mean over the "
                               "GQA group, x ||v||, avg-pooled by 3, z-normalised per layer"),
            .params = {{QStringLiteral("chunk_size"), QString::number(kNonCausalChunk),
                        QStringLiteral("tokens per non-causal chunk")}},
            .makeScorer = &makeNonCausalAttention};
}

} // namespace kvl
