// KeyDiff: score = -cos(k, mean of the normalised keys of the head), kvpress KeyDiffPress.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"
#include "compressors/unitvectors.h"

#include <torch/types.h>

namespace kvl {
namespace {

class KeyDiffScorer : public Scorer
{
  public:
    explicit KeyDiffScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor anchor = unitVectors(l.keys).mean(1, true);
            layers.push_back(-at::cosine_similarity(l.keys, anchor, -1));
        }
        return torch::stack(layers);
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> makeKeyDiff(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    p.finish();
    return std::make_unique<KeyDiffScorer>(p.canonical());
}

} // namespace

PressEntry keyDiffEntry()
{
    return {.name = QStringLiteral("keydiff"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("score = -cos(k, mean normalised key of the head): keep distinctive "
                               "keys (arXiv:2504.15364; kvpress keydiff_press.py)"),
            .makeScorer = &makeKeyDiff};
}

} // namespace kvl
