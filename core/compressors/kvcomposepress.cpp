// KVCompose (arXiv:2509.05165; kvpress kvcompose_press.py): the model re-reads the whole
// context after the prefill; each query head aggregates the attention the re-read rows
// give every cached entry (agg_task: max or mean over rows), each kv-head its group
// (agg_group), plus the layer's mean over kv-heads; each head's scores sorted descending
// make composite curves, averaged over a layer's heads (agg_head), layer 0 lifted to the
// max over layers; the top N(1 - r) composite values set how many entries each layer
// keeps (structured: the same count for every head of a layer; unstructured: per head),
// and each head keeps its best-scored entries. The re-read costs about one more prefill.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/modelpassinput.h"
#include "compressors/presscatalog.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <algorithm>
#include <cmath>

namespace kvl {
namespace {

constexpr bool kStructured = true;
const char* const kAggTask = "max";
const char* const kAggGroup = "mean";
const char* const kAggHead = "mean";
constexpr bool kAddVNorm = false;
constexpr bool kAddMeanAcrossHeads = true;
constexpr int kKeepLowerBound = 0;            // kvpress keep_token_lower_bound
constexpr int64_t kKvComposeQueryBlock = 256; // re-read rows per softmax block (bounds memory)

bool isMax(const QString& aggregation)
{
    return aggregation == QLatin1String("max");
}

// The attention of the re-read rows on the cached entries, aggregated per query head
// over the rows (max or mean): [heads, T].
at::Tensor rereadAttention(const at::Tensor& queries, const at::Tensor& contextKeys,
                           const at::Tensor& ownKeys, int kvHeads, bool max)
{
    const int64_t heads = queries.size(0), n = queries.size(1), d = queries.size(2);
    const int64_t length = contextKeys.size(1);
    const at::Tensor keys = torch::cat({contextKeys, ownKeys}, 1)
                                .to(torch::kFloat)
                                .unsqueeze(1)
                                .transpose(-1, -2); // [kv, 1, d, T + n]
    const at::Tensor q =
        queries.to(torch::kFloat).reshape({kvHeads, heads / kvHeads, n, d}) / std::sqrt(double(d));
    at::Tensor acc = max ? torch::zeros({kvHeads, heads / kvHeads, length})
                         : torch::zeros({kvHeads, heads / kvHeads, length}, torch::kDouble);
    for (int64_t row = 0; row < n; row += kKvComposeQueryBlock) {
        const int64_t rows = std::min(kKvComposeQueryBlock, n - row);
        at::Tensor logits = torch::matmul(q.narrow(2, row, rows), keys); // [kv, g, rows, T+n]
        const at::Tensor future = torch::arange(n, torch::kLong).view({1, n}) >
                                  torch::arange(row, row + rows, torch::kLong).view({rows, 1});
        logits.narrow(-1, length, n).masked_fill_(future, -INFINITY);
        const at::Tensor share = torch::softmax(logits, -1).narrow(-1, 0, length);
        if (max)
            acc = torch::maximum(acc, share.amax(2));
        else
            acc += share.sum(2).to(torch::kDouble);
    }
    if (!max)
        acc = (acc / double(n)).to(torch::kFloat);
    return acc.reshape({heads, length});
}

class KvComposePress : public Press
{
  public:
    struct Settings
    {
        bool structured = kStructured;
        QString aggTask, aggGroup, aggHead;
        bool addVNorm = kAddVNorm;
        bool addMeanAcrossHeads = kAddMeanAcrossHeads;
        int keepLowerBound = kKeepLowerBound;
    };
    KvComposePress(Settings s, QString spec) : m_s(std::move(s)), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return 0; }
    bool needsReceivedAttention() const override { return false; }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t layers = input.layers(), kv = input.kvHeads(), length = input.length();
        at::Tensor scores;
        if (input.scoreMemo != nullptr) {
            at::Tensor& memo = (*input.scoreMemo)[m_spec];
            if (!memo.defined())
                memo = score(input);
            scores = memo;
        } else {
            scores = score(input);
        }
        // Composite curves: every head's scores sorted descending (unstructured), their
        // aggregate over the layer's heads (structured), layer 0 lifted to the max over
        // layers; the first keep_token_lower_bound of every curve always win.
        at::Tensor perHead = std::get<0>(scores.sort(-1, true));
        at::Tensor perLayer = isMax(m_s.aggHead) ? perHead.amax(1) : perHead.mean(1);
        const int64_t bound = std::min<int64_t>(m_s.keepLowerBound, length);
        perHead.narrow(-1, 0, bound).add_(1e9);
        perLayer.narrow(-1, 0, bound).add_(1e9);
        perLayer[0].copy_(perLayer.amax(0));
        const at::Tensor budget = m_s.structured ? perLayer : perHead;
        const int64_t n = std::max<int64_t>(1, int64_t(double(budget.numel()) * (1.0 - ratio)));
        // The n largest composite values (ties to the earlier index), counted by curve.
        const at::Tensor order = std::get<1>(budget.reshape(-1).sort(true, 0, true));
        at::Tensor counts = torch::bincount(order.narrow(0, 0, n).div(length, "floor"), {},
                                            budget.numel() / length);
        if (m_s.structured)
            counts = counts.clamp_min(std::max(1, m_s.keepLowerBound))
                         .view({layers, 1})
                         .expand({layers, kv});
        counts = counts.reshape({layers, kv}).contiguous();
        const at::Tensor kept = topKMaskPerRow(scores, counts);
        CompressionResult r = evictionResult(kept, scores, input.headDim());
        r.details[QStringLiteral("achieved_ratio")] = 1.0 - r.keptFraction();
        return r;
    }

  private:
    at::Tensor score(const CompressionInput& input) const
    {
        requireModelPass(input, m_spec, QStringLiteral("KVCompose"), false);
        c10::InferenceMode guard;
        const int kv = input.kvHeads();
        const int group = input.heads() / kv;
        Continuation reread;
        ExtendOptions options;
        options.keepQueries = true;
        const ExtendResult r =
            input.model->extend(*input.cache, CacheEdit{}, reread, *input.contextIds, options);
        std::vector<at::Tensor> layers;
        for (int l = 0; l < input.layers(); ++l) {
            const LayerCache& cached = input.cache->layers[size_t(l)];
            const at::Tensor perHead =
                rereadAttention(r.queries[size_t(l)], cached.keys, reread.keys[size_t(l)], kv,
                                isMax(m_s.aggTask))
                    .view({kv, group, input.length()});
            at::Tensor s = isMax(m_s.aggGroup) ? perHead.amax(1) : perHead.mean(1);
            if (m_s.addVNorm)
                s = s * cached.values.to(torch::kFloat).norm(2, -1);
            if (m_s.addMeanAcrossHeads)
                s = s + s.mean(0, true);
            layers.push_back(s);
        }
        return torch::stack(layers);
    }

    Settings m_s;
    QString m_spec;
};

QString aggregation(PressParams& p, const QString& key, const char* fallback)
{
    return p.choice(key, QString::fromLatin1(fallback),
                    {QStringLiteral("max"), QStringLiteral("mean")});
}

std::unique_ptr<Press> makeKvCompose(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    KvComposePress::Settings s;
    s.structured = p.flag(QStringLiteral("structured"), kStructured);
    s.aggTask = aggregation(p, QStringLiteral("agg_task"), kAggTask);
    s.aggGroup = aggregation(p, QStringLiteral("agg_group"), kAggGroup);
    s.aggHead = aggregation(p, QStringLiteral("agg_head"), kAggHead);
    s.addVNorm = p.flag(QStringLiteral("add_v_norm"), kAddVNorm);
    s.addMeanAcrossHeads = p.flag(QStringLiteral("add_mean_across_heads"), kAddMeanAcrossHeads);
    s.keepLowerBound =
        p.integer(QStringLiteral("keep_token_lower_bound"), kKeepLowerBound, 0, 1 << 24);
    p.finish();
    return std::make_unique<KvComposePress>(std::move(s), p.canonical());
}

} // namespace

PressEntry kvComposeEntry()
{
    return {
        .name = QStringLiteral("kvcompose"),
        .kind = PressEntry::Kind::Selector,
        .rule = QStringLiteral(
            "KVCompose (arXiv:2509.05165; kvpress kvcompose_press.py): the model re-reads the "
            "context after the prefill; attention of the re-read rows per head (agg_task over "
            "rows, agg_group over the GQA group, + the layer's head mean); per-head sorted "
            "scores averaged over a layer's heads (layer 0 = max over layers) compete for "
            "N(1-r) slots: structured per-layer budgets, each head's best kept. Costs ~1 "
            "more prefill"),
        .params = {{QStringLiteral("structured"), QStringLiteral("true"),
                    QStringLiteral("one count for every head of a layer (false: per head)")},
                   {QStringLiteral("agg_task"), QString::fromLatin1(kAggTask),
                    QStringLiteral("max or mean of a head's attention over the re-read rows")},
                   {QStringLiteral("agg_group"), QString::fromLatin1(kAggGroup),
                    QStringLiteral("max or mean over the query heads of a kv-head")},
                   {QStringLiteral("agg_head"), QString::fromLatin1(kAggHead),
                    QStringLiteral("max or mean of the sorted curves over a layer's kv-heads")},
                   {QStringLiteral("add_v_norm"), QStringLiteral("false"),
                    QStringLiteral("multiply scores by ||v||")},
                   {QStringLiteral("add_mean_across_heads"), QStringLiteral("true"),
                    QStringLiteral("add the layer's mean over kv-heads to every head's scores")},
                   {QStringLiteral("keep_token_lower_bound"), QString::number(kKeepLowerBound),
                    QStringLiteral("entries every layer keeps at least")}},
        .makePress = &makeKvCompose};
}

} // namespace kvl
