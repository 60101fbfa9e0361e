// ThinK: key channels scored per kv-head by mean(q²)·mean(k²) (queries of the last
// `window` context tokens, mean over the GQA group); the int(head_dim · r) lowest
// channels of every key are zeroed; positions all kept (kvpress ThinKPress, r =
// key_channel_compression_ratio).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kThinkWindow = 32; // kvpress window_size

class ThinkPress : public Press
{
  public:
    ThinkPress(int window, QString spec) : m_window(window), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return m_window; }
    bool needsReceivedAttention() const override { return false; }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t d = input.headDim(), length = input.length();
        const int64_t pruned = int64_t(double(d) * ratio);
        ContextCache out = *input.cache;
        double num = 0.0, den = 0.0;
        for (LayerCache& layer : out.layers) {
            const int64_t stored = layer.windowQueries.defined() ? layer.windowQueries.size(1) : 0;
            const int64_t w = std::min<int64_t>(m_window, length);
            if (stored < w)
                throw Error(m_spec, QStringLiteral("needs the last %1 context queries but "
                                                   "prefill captured %2")
                                        .arg(w)
                                        .arg(stored));
            const at::Tensor q = layer.windowQueries.narrow(1, stored - w, w);
            const at::Tensor qn = groupMean(q.pow(2).mean(1), input.kvHeads()); // [kv, d]
            const at::Tensor kn = layer.keys.pow(2).mean(1);                    // [kv, d]
            if (pruned > 0) {
                const at::Tensor low = std::get<1>((qn * kn).topk(pruned, -1, false, true));
                const at::Tensor channelMask =
                    torch::ones({input.kvHeads(), d}).scatter_(1, low, 0.0).unsqueeze(1);
                const at::Tensor original = layer.keys;
                layer.keys = original * channelMask;
                num += (layer.keys - original).pow(2).sum().item<double>();
                den += original.pow(2).sum().item<double>();
            }
        }
        const at::Tensor all = torch::ones({input.layers(), input.kvHeads(), length}, torch::kBool);
        CompressionResult r = evictionResult(all, {}, int(d));
        // Keys keep d - pruned channels, values all of theirs.
        r.keptBytes = r.fullBytes * (double(d - pruned) + double(d)) / (2.0 * double(d));
        r.coverage = CoverageType::StructuralPositionAddressability;
        r.keyError = den > 0 ? std::sqrt(num / den) : 0.0;
        r.valueError = 0.0;
        r.rewritten = out;
        r.details[QStringLiteral("pruned_channels")] = qint64(pruned);
        return r;
    }

  private:
    int m_window;
    QString m_spec;
};

std::unique_ptr<Press> makeThink(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int window = p.integer(QStringLiteral("window"), kThinkWindow, 1, 1 << 20);
    p.finish();
    return std::make_unique<ThinkPress>(window, p.canonical());
}

} // namespace

PressEntry thinkEntry()
{
    return {.name = QStringLiteral("think"),
            .kind = PressEntry::Kind::Transform,
            .rule =
                QStringLiteral("key channels scored mean(q^2) x mean(k^2) over the last `window` "
                               "queries; the int(head_dim x r) lowest zeroed; positions all kept "
                               "(arXiv:2407.21018; kvpress think_press.py)"),
            .params = {{QStringLiteral("window"), QString::number(kThinkWindow),
                        QStringLiteral("last context queries that score the channels")}},
            .makePress = &makeThink};
}

} // namespace kvl
