// TOVA: attention of the last context token, averaged over all query heads, one score
// shared by every kv-head; the last token itself kept with the maximum + 1 (kvpress
// TOVAPress).
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <torch/types.h>

namespace kvl {
namespace {

class TovaScorer : public Scorer
{
  public:
    explicit TovaScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return 1; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t length = input.length();
        if (length < 2)
            throw Error(m_spec, QStringLiteral("needs at least 2 context tokens"));
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor attn = windowAttention(l, 1, m_spec);             // [heads, 1, T]
            at::Tensor s = attn.select(1, 0).narrow(1, 0, length - 1).mean(0); // [T - 1]
            // Above the maximum (see snapkvscorer.cpp): ties and chunk means keep it.
            const double top = s.max().item<double>() + 1.0;
            s = torch::constant_pad_nd(s, {0, 1}, top);
            layers.push_back(s.expand({input.kvHeads(), length}));
        }
        return torch::stack(layers).contiguous();
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> makeTova(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    p.finish();
    return std::make_unique<TovaScorer>(p.canonical());
}

} // namespace

PressEntry tovaEntry()
{
    return {.name = QStringLiteral("tova"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "score = last token's attention averaged over all query heads, shared "
                "by every kv-head; last token kept (arXiv:2401.06104; kvpress tova_press.py)"),
            .makeScorer = &makeTova};
}

} // namespace kvl
