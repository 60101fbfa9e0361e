// ChunkKV: the context is cut into chunks of `chunk` tokens (the remainder is a last,
// shorter chunk); chunk score = inner scores summed over kv-heads, averaged over the
// chunk; the best max(1, int(chunks · (1 - r))) chunks are kept by every head (kvpress
// ChunkKVPress). Coverage is projected from chunks to their tokens.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kChunkKvChunk = 20; // kvpress chunk_length

class ChunkKvPress : public Press
{
  public:
    ChunkKvPress(std::unique_ptr<Scorer> scorer, int chunk, QString spec)
        : m_scorer(std::move(scorer)), m_chunk(chunk), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const at::Tensor scores = m_scorer->score(input, ratio);
        const int64_t length = input.length();
        const int64_t complete = length / m_chunk, rest = length % m_chunk;
        if (complete == 0) { // kvpress falls back to the inner press
            const at::Tensor mask = topKMask(scores, keptPerHead(length, ratio));
            return evictionResult(mask, scores, input.headDim());
        }
        const int64_t chunks = complete + (rest > 0 ? 1 : 0);
        // Chunk score per layer: mean over the chunk of the sum over heads. Protected
        // (+inf) entries make their chunk +inf, kept first.
        const at::Tensor summed = scores.sum(1); // [L, T]
        const at::Tensor chunkIndex =
            torch::arange(length, torch::kLong).div(m_chunk, "floor").clamp_max(chunks - 1);
        at::Tensor chunkScores =
            torch::zeros({input.layers(), chunks}).index_add_(1, chunkIndex, summed);
        at::Tensor sizes = torch::full({chunks}, double(m_chunk));
        if (rest > 0)
            sizes[chunks - 1] = double(rest);
        chunkScores = chunkScores / sizes;
        const int64_t keptChunks = std::max<int64_t>(1, int64_t(double(chunks) * (1.0 - ratio)));
        const at::Tensor chunkMask = topKMask(chunkScores, keptChunks).to(torch::kLong);
        // Only chunks: a protected chunk beyond the budget is kept whole.
        at::Tensor tokenMask = chunkMask.index_select(1, chunkIndex).to(torch::kBool); // [L, T]
        tokenMask = tokenMask.unsqueeze(1).expand(scores.sizes()) | protectedEntries(scores);
        CompressionResult r = evictionResult(tokenMask, scores, input.headDim());
        r.coverage = CoverageType::ProjectedTokenCoverage;
        r.details[QStringLiteral("chunks")] = qint64(chunks);
        r.details[QStringLiteral("chunks_kept")] = qint64(keptChunks);
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    int m_chunk;
    QString m_spec;
};

std::unique_ptr<Press> makeChunkKv(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const int chunk = p.integer(QStringLiteral("chunk"), kChunkKvChunk, 1, 1 << 20);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<ChunkKvPress>(std::move(scorer), chunk, canonical);
}

} // namespace

PressEntry chunkKvEntry()
{
    return {.name = QStringLiteral("chunkkv"),
            .kind = PressEntry::Kind::Selector,
            .rule = QStringLiteral(
                "chunks of `chunk` tokens scored by the mean over the chunk of the "
                "inner scores summed over heads; the best int(chunks(1-r)) chunks kept "
                "by every head (arXiv:2502.00299; kvpress chunkkv_press.py)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("chunk"), QString::number(kChunkKvChunk),
                        QStringLiteral("chunk length")}},
            .makePress = &makeChunkKv};
}

} // namespace kvl
