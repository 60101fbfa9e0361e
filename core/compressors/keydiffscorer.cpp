// KeyDiff: score = -cos(k, mean of the normalised keys of the head), kvpress KeyDiffPress.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/torch.h>

namespace kvl {
namespace {

class KeyDiffScorer : public Scorer
{
  public:
    explicit KeyDiffScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    at::Tensor score(const CompressionInput& input, double) const override
    {
        namespace F = torch::nn::functional;
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor anchor =
                F::normalize(l.keys, F::NormalizeFuncOptions().p(2).dim(-1)).mean(1, true);
            layers.push_back(
                -F::cosine_similarity(l.keys, anchor, F::CosineSimilarityFuncOptions().dim(-1)));
        }
        return torch::stack(layers);
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> make(const PressSpec& spec, const PressCatalog&)
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
            .makeScorer = &make};
}

} // namespace kvl
