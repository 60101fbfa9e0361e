// DMS, dense-prefill form as kvpress implements it (dms_press.py, after Dynamic Memory
// Sparsification, Łańcucki et al. 2025, arXiv:2506.05345): every entry outside the last
// sliding_window_size scored below `threshold` by the inner scorer is evicted; the
// threshold, not r, sets how many (r = 0 keeps everything). The paper's trained
// evictors are not part of this press (see the catalog's unavailable `dms_trained`).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr double kThreshold = 0.0;  // kvpress requires one (no default)
constexpr int kSlidingWindow = 128; // kvpress sliding_window_size

class DmsPress : public Press
{
  public:
    DmsPress(std::unique_ptr<Scorer> scorer, double threshold, int window, QString spec)
        : m_scorer(std::move(scorer)), m_threshold(threshold), m_window(window),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }
    bool needsAttentionInputs() const override { return m_scorer->needsAttentionInputs(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int64_t length = input.length();
        const at::Tensor scores = m_scorer->score(input, ratio);
        at::Tensor kept = torch::ones(scores.sizes(), torch::kBool);
        const int64_t outside = std::max<int64_t>(0, length - m_window);
        if (ratio > 0.0 && outside > 0)
            kept.narrow(2, 0, outside)
                .masked_fill_(scores.narrow(2, 0, outside) < m_threshold, false);
        CompressionResult r = evictionResult(kept, scores, input.headDim());
        r.details[QStringLiteral("achieved_ratio")] = 1.0 - r.keptFraction();
        return r;
    }

  private:
    std::unique_ptr<Scorer> m_scorer;
    double m_threshold;
    int m_window;
    QString m_spec;
};

std::unique_ptr<Press> makeDms(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const double threshold = p.real(QStringLiteral("threshold"), kThreshold, -1e30, 1e30);
    const int window = p.integer(QStringLiteral("sliding_window_size"), kSlidingWindow, 0, 1 << 24);
    p.finish();
    auto scorer = catalog.innerScorer(spec);
    const QString canonical = p.canonical(scorer->spec());
    return std::make_unique<DmsPress>(std::move(scorer), threshold, window, canonical);
}

} // namespace

PressEntry dmsEntry()
{
    return {
        .name = QStringLiteral("dms"),
        .kind = PressEntry::Kind::Wrapper,
        .rule =
            QStringLiteral("DMS dense prefill (kvpress dms_press.py, after Łańcucki et al. 2025, "
                           "arXiv:2506.05345, without its trained evictors): entries outside the "
                           "last sliding_window_size scored below `threshold` are evicted; the "
                           "threshold sets the budget (r = 0 keeps all)"),
        .inner = QStringLiteral("scorer"),
        .params = {{QStringLiteral("threshold"), QString::number(kThreshold),
                    QStringLiteral("score below which an entry is evicted (kvpress: required)")},
                   {QStringLiteral("sliding_window_size"), QString::number(kSlidingWindow),
                    QStringLiteral("last entries never evicted")}},
        .makePress = &makeDms};
}

} // namespace kvl
