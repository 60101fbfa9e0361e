// Finch (Corallo & Papotti, TACL 2024, "FINCH: Prompt-guided Key-Value Cache Compression";
// kvpress finch_press.py): SnapKV without pooling whose window is the question, i.e. every
// context token after the delimiter between context and question. Window row i (at
// position T - w + i) is multiplied by T - w + i, the normalisation for the keys it can
// see; mean over the window, mean over the GQA group; the window gets the layer's max + 1.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kFinchWindow = 0;               // 0: set by the delimiter (kvpress window_size)
constexpr bool kNormalize = true;             // kvpress normalize_scores
constexpr const char* kDelimiter = "request"; // span role whose start is the delimiter

class FinchScorer : public Scorer
{
  public:
    FinchScorer(int window, QString delimiter, bool normalize, QString spec)
        : m_window(window), m_delimiter(std::move(delimiter)), m_normalize(normalize),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    // The delimiter's place is known only with the spans: capture every query then.
    int64_t queryWindow(int64_t length) const override
    {
        return m_window > 0 ? std::min<int64_t>(m_window, length) : length;
    }

    int64_t window(const CompressionInput& input) const
    {
        if (m_window > 0)
            return m_window;
        // kvpress finds the one delimiter token; here the question's span marks it.
        int64_t start = -1;
        for (const ContextSpan& s : input.spans)
            if (s.role == m_delimiter)
                start = std::max(start, s.begin);
        if (start < 0)
            throw Error(m_spec, QStringLiteral("no span with role '%1' marks where the question "
                                               "starts (the Finch delimiter); give window=N")
                                    .arg(m_delimiter));
        return input.length() - start;
    }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        const int64_t w = window(input);
        if (w <= 0 || w >= length)
            throw Error(m_spec, QStringLiteral("needs a window inside the context (%1 tokens, "
                                               "window %2)")
                                    .arg(length)
                                    .arg(w));
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            at::Tensor attn = windowAttention(l, w, m_spec).narrow(2, 0, length - w);
            if (m_normalize)
                attn = attn * torch::arange(length - w, length, torch::kFloat).view({1, w, 1});
            const at::Tensor s = groupMean(attn.mean(1), input.kvHeads());
            const double top = s.max().item<double>() + 1.0;
            layers.push_back(torch::constant_pad_nd(s, {0, w}, top));
        }
        return torch::stack(layers);
    }

  private:
    int m_window;
    QString m_delimiter;
    bool m_normalize;
    QString m_spec;
};

std::unique_ptr<Scorer> makeFinch(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int window = p.integer(QStringLiteral("window"), kFinchWindow, 0, 1 << 20);
    const QString delimiter = p.text(QStringLiteral("delimiter"), QString::fromLatin1(kDelimiter));
    const bool normalize = p.flag(QStringLiteral("normalize_scores"), kNormalize);
    p.finish();
    return std::make_unique<FinchScorer>(window, delimiter, normalize, p.canonical());
}

} // namespace

PressEntry finchEntry()
{
    return {.name = QStringLiteral("finch"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("Finch (Corallo & Papotti, TACL 2024; kvpress finch_press.py): "
                               "window = the context after the delimiter (start of the last span "
                               "of role `delimiter`, or the last `window` tokens); attention of "
                               "the window rows x (T - w + i), mean over the window and the GQA "
                               "group; window kept (max + 1). kvpress also re-rotates the kept "
                               "keys: keyrerotation(finch)"),
            .params = {{QStringLiteral("window"), QString::number(kFinchWindow),
                        QStringLiteral("question window; 0 = from the delimiter span")},
                       {QStringLiteral("delimiter"), QString::fromLatin1(kDelimiter),
                        QStringLiteral("span role whose start is the context/question delimiter")},
                       {QStringLiteral("normalize_scores"), QStringLiteral("true"),
                        QStringLiteral("scale row i by the T - w + i keys before it")}},
            .makeScorer = &makeFinch};
}

} // namespace kvl
