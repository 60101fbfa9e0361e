// DuoAttention (Xiao et al. 2024, arXiv:2410.10819; kvpress duo_attention_press.py, its
// on-the-fly patterns): a (layer, kv-head) is scored by the area under the cumulated
// attention of a synthetic last query: the mean pre-RoPE query and key, repeated over
// q_len positions and rotated there, the last query's softmax over those keys, cumsum,
// mean; mean over the GQA group. The round(r x layers x kv_heads) lowest-scored heads
// become streaming heads, which keep only the first sink_size and last recent_size
// entries; the others (retrieval heads) keep all. kvpress averages the means over 50
// BookSum samples; KVLens takes them from the context being compressed.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"
#include "model/rope.h"

#include <QJsonArray>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kDuoSink = 128;     // kvpress on-the-fly sink_size
constexpr int kDuoRecent = 256;   // kvpress on-the-fly recent_size
constexpr int kQueryLength = 500; // kvpress duo_attention_on_the_fly q_len

class DuoAttentionPress : public Press
{
  public:
    DuoAttentionPress(int sink, int recent, int qLen, QString spec)
        : m_sink(sink), m_recent(recent), m_qLen(qLen), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }
    bool needsReceivedAttention() const override { return false; }

    // [layers, kv_heads]: higher = more of a retrieval head.
    at::Tensor headScores(const CompressionInput& input) const
    {
        const int64_t d = input.headDim(), heads = input.heads();
        const Rope own(*input.config);
        const Rope& rope = input.rope ? *input.rope : own;
        const auto [cos, sin] = rope.cosSin(torch::arange(m_qLen, torch::kLong)); // [n, d]
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const int64_t stored =
                l.windowQueriesPreRope.defined() ? l.windowQueriesPreRope.size(1) : 0;
            if (stored < input.length())
                throw Error(m_spec, QStringLiteral("needs every context query for the mean query "
                                                   "(prefill captured %1 of %2)")
                                        .arg(stored)
                                        .arg(input.length()));
            const at::Tensor q = l.windowQueriesPreRope.mean(1).to(torch::kFloat); // [H, d]
            const at::Tensor k = l.keysPreRope.mean(1).to(torch::kFloat);          // [kv, d]
            const at::Tensor qLast =
                Rope::apply(q.unsqueeze(0).unsqueeze(0), cos.narrow(0, m_qLen - 1, 1),
                            sin.narrow(0, m_qLen - 1, 1))
                    .view({heads, d});
            const at::Tensor keys =
                Rope::apply(k.unsqueeze(0).expand({m_qLen, k.size(0), d}), cos, sin)
                    .permute({1, 0, 2}); // [kv, n, d]
            const at::Tensor logits =
                torch::matmul(repeatKv(keys, heads), qLast.unsqueeze(-1)).squeeze(-1) /
                std::sqrt(double(d));
            const at::Tensor area = torch::softmax(logits, -1).cumsum(-1).mean(-1); // [H]
            layers.push_back(groupMean(area, input.kvHeads()));
        }
        return torch::stack(layers);
    }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        const int layers = input.layers(), kv = input.kvHeads();
        at::Tensor kept = torch::ones({layers, kv, length}, torch::kBool);
        const at::Tensor scores = headScores(input);
        // Python round (ties to even) of the streaming-head count, as kvpress.
        const int64_t streaming = int64_t(std::nearbyint(double(layers * kv) * ratio));
        at::Tensor streamingMask = torch::zeros({layers * kv}, torch::kBool);
        if (streaming > 0) {
            const at::Tensor order =
                std::get<1>(scores.reshape(-1).sort(/*stable=*/true, 0, /*descending=*/false));
            streamingMask.index_put_({order.narrow(0, 0, streaming)}, true);
        }
        streamingMask = streamingMask.view({layers, kv});
        const int64_t begin = std::min<int64_t>(m_sink, length);
        const int64_t end = std::max<int64_t>(begin, length - m_recent);
        if (end > begin)
            kept.narrow(2, begin, end - begin)
                .masked_fill_(streamingMask.unsqueeze(-1).expand({layers, kv, end - begin}), false);
        CompressionResult r = evictionResult(kept, {}, input.headDim());
        QJsonArray perHead;
        for (int64_t i = 0; i < scores.numel(); ++i)
            perHead.append(scores.reshape(-1)[i].item<double>());
        r.details[QStringLiteral("head_scores")] = perHead;
        r.details[QStringLiteral("streaming_heads")] = qint64(streaming);
        r.details[QStringLiteral("achieved_ratio")] = 1.0 - r.keptFraction();
        return r;
    }

  private:
    int m_sink;
    int m_recent;
    int m_qLen;
    QString m_spec;
};

std::unique_ptr<Press> makeDuoAttention(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sink = p.integer(QStringLiteral("sink_size"), kDuoSink, 0, 1 << 24);
    const int recent = p.integer(QStringLiteral("recent_size"), kDuoRecent, 1, 1 << 24);
    const int qLen = p.integer(QStringLiteral("q_len"), kQueryLength, 1, 1 << 20);
    p.finish();
    return std::make_unique<DuoAttentionPress>(sink, recent, qLen, p.canonical());
}

} // namespace

PressEntry duoAttentionEntry()
{
    return {.name = QStringLiteral("duo_attention"),
            .kind = PressEntry::Kind::Selector,
            .rule = QStringLiteral(
                "DuoAttention (Xiao et al. 2024, arXiv:2410.10819; kvpress "
                "duo_attention_press.py, on-the-fly patterns from this context's mean "
                "query/key): head score = area under the cumulated softmax of the "
                "mean query at position q_len - 1 over the mean key at 0..q_len - 1; "
                "the round(r x layers x kv_heads) lowest become streaming heads "
                "keeping the first sink_size + last recent_size entries; r is "
                "kvpress's head_compression_ratio"),
            .params = {{QStringLiteral("sink_size"), QString::number(kDuoSink),
                        QStringLiteral("initial entries a streaming head keeps")},
                       {QStringLiteral("recent_size"), QString::number(kDuoRecent),
                        QStringLiteral("last entries a streaming head keeps")},
                       {QStringLiteral("q_len"), QString::number(kQueryLength),
                        QStringLiteral("positions of the synthetic query/key sequence")}},
            .makePress = &makeDuoAttention};
}

} // namespace kvl
