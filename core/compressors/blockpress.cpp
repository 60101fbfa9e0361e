// BlockPress: the context is read in blocks of `block` tokens; after each block the
// inner scorer re-scores the entries kept so far plus the new block and every head
// keeps its int(T(1-r)) best (kvpress BlockPress). A scorer that reads window queries
// (SnapKV, TOVA, ExpectedAttention) gets those of the block, as kvpress computes them:
// the q projection of the last `window` gathered attention inputs, rotated at the
// context's last positions (subcache.h, windowQueriesOfBlock). With an entry-wise scorer
// (KNorm, QFilter, H2O) the blocks keep exactly the global top-k (ties to the earlier
// position), which is then computed in one pass.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"
#include "compressors/subcache.h"

#include <torch/types.h>

#include <limits>

namespace kvl {
namespace {

constexpr int kBlock = 128; // kvpress block_size

class BlockPress : public Press
{
  public:
    BlockPress(std::unique_ptr<Scorer> scorer, int block, QString spec)
        : m_scorer(std::move(scorer)), m_block(block), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }
    bool needsAttentionInputs() const override
    {
        return !m_scorer->entryWise() && m_scorer->queryWindow(std::numeric_limits<int>::max()) > 0;
    }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        const int64_t kept = keptPerHead(length, ratio);
        const std::vector<int64_t> shape{input.layers(), input.kvHeads()};
        const int64_t blocks = (length - kept + m_block - 1) / m_block;
        if (m_scorer->entryWise()) {
            // The best of (the best of A) + B are the best of A + B when scores and ties
            // order entries the same way in every block.
            const at::Tensor scores = m_scorer->score(input, ratio);
            CompressionResult r = evictionResult(topKMask(scores, kept), {}, input.headDim());
            r.details[QStringLiteral("blocks")] = qint64(blocks);
            return r;
        }
        // The blocks' own window queries need the attention inputs (prefill keeps them when
        // asked, needsAttentionInputs); without them (a derived input) the scorer reads
        // the context's last queries, and the result says so.
        const bool blockQueries = needsAttentionInputs() && input.weights && input.rope &&
                                  input.cache->layers.front().attentionInputs.defined();
        at::Tensor index = torch::arange(kept, torch::kLong).expand({shape[0], shape[1], kept});
        at::Tensor protectedMask = torch::zeros({shape[0], shape[1], length}, torch::kBool);
        for (int64_t i = kept; i < length; i += m_block) {
            const int64_t n = std::min<int64_t>(m_block, length - i);
            const at::Tensor fresh =
                torch::arange(i, i + n, torch::kLong).expand({shape[0], shape[1], n});
            // Ascending positions: everything kept so far lies before the new block.
            const at::Tensor current = torch::cat({index, fresh}, -1);
            ContextCache sub = gatherEntries(*input.cache, current);
            if (blockQueries)
                setWindowQueriesOfBlock(sub, input, current,
                                        m_scorer->queryWindow(current.size(-1)));
            CompressionInput subInput = input;
            subInput.cache = &sub;
            subInput.scoreMemo = nullptr; // the memo holds scores of the whole input
            const at::Tensor scores = m_scorer->score(subInput, ratio);
            protectedMask.scatter_(-1, current, protectedEntries(scores));
            // The best `kept` of every head, still in position order.
            index = current.masked_select(bestK(scores, kept)).view({shape[0], shape[1], kept});
        }
        at::Tensor mask = torch::zeros({shape[0], shape[1], length}, torch::kBool);
        mask.scatter_(-1, index, true);
        CompressionResult r = evictionResult(mask | protectedMask, {}, input.headDim());
        r.details[QStringLiteral("blocks")] = qint64(blocks);
        if (needsAttentionInputs())
            r.details[QStringLiteral("window_queries")] =
                blockQueries ? QStringLiteral("block") : QStringLiteral("context");
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    int m_block;
    QString m_spec;
};

std::unique_ptr<Press> makeBlock(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const int block = p.integer(QStringLiteral("block"), kBlock, 1, 1 << 24);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<BlockPress>(std::move(scorer), block, canonical);
}

} // namespace

PressEntry blockEntry()
{
    return {.name = QStringLiteral("block"),
            .kind = PressEntry::Kind::Selector,
            .rule = QStringLiteral(
                "blocks of `block` tokens: after each, the inner scorer re-scores the "
                "kept entries + the block (window scorers with the block's own last "
                "queries) and every head keeps its int(T(1-r)) best (the KeyDiff "
                "paper's block processing, arXiv:2504.15364; kvpress block_press.py)"),
            .inner = QStringLiteral("scorer"),
            .params = {{QStringLiteral("block"), QString::number(kBlock),
                        QStringLiteral("block size")}},
            .makePress = &makeBlock};
}

} // namespace kvl
