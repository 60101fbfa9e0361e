// SnapKV: attention of the last `window` context queries (softmax over the context),
// mean over the window, avg-pooled (kernel), mean over the GQA group; the window itself
// gets the layer's maximum score + 1 so it is kept (kvpress SnapKVPress).
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kSnapKvWindow = 64; // kvpress window_size
constexpr int kKernel = 5;        // kvpress kernel_size

class SnapKvScorer : public Scorer
{
  public:
    SnapKvScorer(int window, int kernel, QString spec)
        : m_window(window), m_kernel(kernel), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return m_window; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length <= m_window)
            throw Error(m_spec, QStringLiteral("needs a context longer than its window "
                                               "(%1 tokens, window %2)")
                                    .arg(length)
                                    .arg(m_window));
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor attn = windowAttention(l, m_window, m_spec);
            at::Tensor s = attn.narrow(2, 0, length - m_window).mean(1); // [heads, T - w]
            // Zero padding counts in the mean (avg_pool1d's count_include_pad).
            s = torch::avg_pool1d(s.unsqueeze(0), {m_kernel}, {1}, {m_kernel / 2}, false, true)
                    .squeeze(0);
            s = groupMean(s, input.kvHeads());
            // Above the maximum, not at it: a tie would go to the earlier (outside) entry,
            // and selectors that average scores (ChunkKV) must see the window stand out.
            const double top = s.max().item<double>() + 1.0;
            layers.push_back(torch::constant_pad_nd(s, {0, m_window}, top));
        }
        return torch::stack(layers);
    }

  private:
    int m_window;
    int m_kernel;
    QString m_spec;
};

std::unique_ptr<Scorer> makeSnapKv(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int window = p.integer(QStringLiteral("window"), kSnapKvWindow, 1, 1 << 20);
    const int kernel = p.integer(QStringLiteral("kernel"), kKernel, 1, 1001);
    p.finish();
    if (kernel % 2 == 0)
        throw Error(p.canonical(), QStringLiteral("kernel must be odd (the pooled scores keep "
                                                  "the context length)"));
    return std::make_unique<SnapKvScorer>(window, kernel, p.canonical());
}

} // namespace

PressEntry snapKvEntry()
{
    return {.name = QStringLiteral("snapkv"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "score = attention of the last `window` queries, mean over the window, "
                "avg-pooled by `kernel`, mean over the GQA group; window kept "
                "(arXiv:2404.14469; kvpress snapkv_press.py)"),
            .params = {{QStringLiteral("window"), QString::number(kSnapKvWindow),
                        QStringLiteral("observation window (last context queries)")},
                       {QStringLiteral("kernel"), QString::number(kKernel),
                        QStringLiteral("avg-pool kernel (odd)")}},
            .makeScorer = &makeSnapKv};
}

} // namespace kvl
