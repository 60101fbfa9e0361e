// KVzip (Kim et al. 2025, arXiv:2505.23416; kvpress kvzip_press.py): after the prefill the
// model re-reads the context, chunk by chunk, as "repeat prompt + template suffix + chunk"
// fed after the full cache; an entry's score is its highest attention (over the GQA group
// and every re-read query) in a softmax over [the first n_sink keys, the chunk's keys, the
// re-read tokens' own keys (causal)]; the first n_sink entries score 1. One threshold over
// all layers' scores (or, layerwise, r of every layer) sets how many entries each layer
// drops, its lowest-scored ones across heads. The re-read costs about 2-3 prefills.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "cache/repeatprompts.h"
#include "common/error.h"
#include "compressors/modelpassinput.h"
#include "compressors/presscatalog.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <algorithm>
#include <cmath>

namespace kvl {
namespace {

constexpr int kKvZipSinks = 4;            // kvpress n_sink
constexpr bool kLayerwise = false;        // kvpress layerwise
constexpr int kChunkSize = 2048;          // kvpress prepare(chunk_size)
constexpr int kPreviousTail = 8;          // kvpress prev_postfix_size
constexpr int64_t kKvZipQueryBlock = 512; // re-read rows per softmax block (bounds memory)

// What one re-read chunk [begin, end) feeds after the context.
std::vector<int> rereadIds(const std::vector<int>& ids, const RepeatPrompts& prompts, int64_t first,
                           int64_t begin, int64_t end)
{
    std::vector<int> feed = begin == first ? prompts.first : prompts.later;
    if (begin != first) {
        // The previous chunk's last ids (kvpress: chunk[i - 1][-8:]).
        const int64_t from = std::max(begin - kPreviousTail, first);
        feed.insert(feed.end(), ids.begin() + from, ids.begin() + begin);
    }
    feed.insert(feed.end(), prompts.suffix.begin(), prompts.suffix.end());
    feed.insert(feed.end(), ids.begin() + begin, ids.begin() + end);
    return feed;
}

// The chunk's scores in one layer: [kv, end - begin].
at::Tensor chunkScores(const at::Tensor& queries, const at::Tensor& contextKeys,
                       const at::Tensor& ownKeys, int64_t sinks, int64_t begin, int64_t end,
                       int kvHeads)
{
    const int64_t heads = queries.size(0), n = queries.size(1), d = queries.size(2);
    const int64_t length = end - begin;
    const at::Tensor keys =
        torch::cat({contextKeys.narrow(1, 0, sinks), contextKeys.narrow(1, begin, length), ownKeys},
                   1)
            .to(torch::kFloat)
            .unsqueeze(1)
            .transpose(-1, -2); // [kv, 1, d, m]
    const at::Tensor q =
        queries.to(torch::kFloat).reshape({kvHeads, heads / kvHeads, n, d}) / std::sqrt(double(d));
    at::Tensor best = torch::zeros({kvHeads, length});
    for (int64_t row = 0; row < n; row += kKvZipQueryBlock) {
        const int64_t rows = std::min(kKvZipQueryBlock, n - row);
        at::Tensor logits = torch::matmul(q.narrow(2, row, rows), keys); // [kv, g, rows, m]
        // Re-read row row + i sees its own keys up to itself.
        const at::Tensor future = torch::arange(n, torch::kLong).view({1, n}) >
                                  torch::arange(row, row + rows, torch::kLong).view({rows, 1});
        logits.narrow(-1, sinks + length, n).masked_fill_(future, -INFINITY);
        const at::Tensor share = torch::softmax(logits, -1).narrow(-1, sinks, length);
        best = torch::maximum(best, share.amax({1, 2}));
    }
    return best;
}

class KvzipScorer : public Scorer
{
  public:
    KvzipScorer(int sinks, int chunk, QString spec)
        : m_sinks(sinks), m_chunk(chunk), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        requireModelPass(input, m_spec, QStringLiteral("KVzip"), true);
        c10::InferenceMode guard;
        const std::vector<int>& ids = *input.contextIds;
        const RepeatPrompts& prompts = *input.repeatPrompts;
        if (!prompts.unavailable.isEmpty())
            throw Error(prompts.unavailable);
        const int64_t length = input.length();
        at::Tensor scores = torch::zeros({input.layers(), input.kvHeads(), length});
        scores.narrow(2, 0, std::min<int64_t>(m_sinks, length)).fill_(1.0);
        const int64_t first = std::clamp<int64_t>(prompts.prefixLength, 0, length);
        for (int64_t begin = first; begin < length; begin += m_chunk) {
            const int64_t end = std::min<int64_t>(begin + m_chunk, length);
            Continuation reread;
            ExtendOptions options;
            options.keepQueries = true;
            const ExtendResult r =
                input.model->extend(*input.cache, CacheEdit{}, reread,
                                    rereadIds(ids, prompts, first, begin, end), options);
            const int64_t sinks = std::min<int64_t>(m_sinks, begin);
            for (int l = 0; l < input.layers(); ++l)
                scores[l]
                    .narrow(1, begin, end - begin)
                    .copy_(chunkScores(r.queries[size_t(l)], input.cache->layers[size_t(l)].keys,
                                       reread.keys[size_t(l)], sinks, begin, end, input.kvHeads()));
        }
        return scores;
    }

  private:
    int m_sinks;
    int m_chunk;
    QString m_spec;
};

class KvzipPress : public Press
{
  public:
    KvzipPress(std::unique_ptr<Scorer> scorer, bool layerwise, QString spec)
        : m_scorer(std::move(scorer)), m_layerwise(layerwise), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return 0; }
    bool needsReceivedAttention() const override { return false; }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t layers = input.layers(), kv = input.kvHeads(), length = input.length();
        if (ratio == 0.0) // kvpress skips the re-read at r = 0
            return evictionResult(torch::ones({layers, kv, length}, torch::kBool), {},
                                  input.headDim());
        at::Tensor scores;
        if (input.scoreMemo != nullptr) {
            at::Tensor& memo = (*input.scoreMemo)[m_scorer->spec()];
            if (!memo.defined())
                memo = m_scorer->score(input, ratio);
            scores = memo;
        } else {
            scores = m_scorer->score(input, ratio);
        }
        // Entries each layer drops: r of the layer, or every entry at or below the
        // global threshold (kvpress: the max(int(N r) - 1, 0)-th smallest score).
        std::vector<int64_t> pruned(size_t(layers), int64_t(double(kv * length) * ratio));
        double threshold = NAN;
        if (!m_layerwise) {
            const at::Tensor sorted = std::get<0>(scores.reshape(-1).sort());
            const int64_t n = std::max<int64_t>(int64_t(double(sorted.numel()) * ratio) - 1, 0);
            threshold = sorted[n].item<double>();
            const at::Tensor below = scores.le(threshold).sum({1, 2});
            for (int64_t l = 0; l < layers; ++l)
                pruned[size_t(l)] = below[l].item<int64_t>();
        }
        at::Tensor kept = torch::empty({layers, kv, length}, torch::kBool);
        for (int64_t l = 0; l < layers; ++l)
            kept[l].copy_(
                bestK(scores[l].reshape(-1), kv * length - pruned[size_t(l)]).view({kv, length}));
        CompressionResult r = evictionResult(kept, scores, input.headDim());
        r.details[QStringLiteral("achieved_ratio")] = 1.0 - r.keptFraction();
        if (!m_layerwise)
            r.details[QStringLiteral("threshold")] = threshold;
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    bool m_layerwise;
    QString m_spec;
};

// n_sink and chunk_size, read first: the scorer's spec names only what the scores depend on.
std::unique_ptr<Scorer> scorerOf(PressParams& p)
{
    const int sinks = p.integer(QStringLiteral("n_sink"), kKvZipSinks, 0, 1 << 20);
    const int chunk = p.integer(QStringLiteral("chunk_size"), kChunkSize, 1, 1 << 24);
    return std::make_unique<KvzipScorer>(sinks, chunk, p.canonical());
}

std::unique_ptr<Scorer> makeScorer(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    auto scorer = scorerOf(p);
    p.finish();
    return scorer;
}

std::unique_ptr<Press> makePress(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    auto scorer = scorerOf(p);
    const bool layerwise = p.flag(QStringLiteral("layerwise"), kLayerwise);
    p.finish();
    return std::make_unique<KvzipPress>(std::move(scorer), layerwise, p.canonical());
}

} // namespace

PressEntry kvzipEntry()
{
    return {.name = QStringLiteral("kvzip"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "KVzip (Kim et al. 2025, arXiv:2505.23416; kvpress kvzip_press.py): the model "
                "re-reads the context after the prefill in chunk_size chunks ('Repeat the "
                "previous context exactly.' + template suffix + chunk); score = max attention "
                "over the GQA group and re-read queries in a softmax over [n_sink sinks, the "
                "chunk, the re-read tokens]; one global threshold across layers (layerwise: r "
                "per layer), lowest across heads evicted. Costs ~2-3 prefills by design"),
            .params = {{QStringLiteral("n_sink"), QString::number(kKvZipSinks),
                        QStringLiteral("first entries scored 1 and kept in every re-read softmax")},
                       {QStringLiteral("chunk_size"), QString::number(kChunkSize),
                        QStringLiteral("context tokens re-read per pass")},
                       {QStringLiteral("layerwise"), QStringLiteral("false"),
                        QStringLiteral("r of every layer instead of one threshold across layers")}},
            .makeScorer = &makeScorer,
            .makePress = &makePress};
}

} // namespace kvl
