// KNorm: score = -||k|| (keys with small norms draw the most attention), kvpress KnormPress.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

class KnormScorer : public Scorer
{
  public:
    explicit KnormScorer(QString spec) : m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    bool entryWise() const override { return true; }
    at::Tensor score(const CompressionInput& input, double) const override
    {
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers)
            layers.push_back(-l.keys.norm(2, -1));
        return torch::stack(layers);
    }

  private:
    QString m_spec;
};

std::unique_ptr<Scorer> makeKnorm(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    p.finish();
    return std::make_unique<KnormScorer>(p.canonical());
}

} // namespace

PressEntry knormEntry()
{
    return {
        .name = QStringLiteral("knorm"),
        .kind = PressEntry::Kind::Scorer,
        .rule = QStringLiteral(
            "score = -||k||, the key's L2 norm negated (arXiv:2406.11430; kvpress knorm_press.py)"),
        .makeScorer = &makeKnorm};
}

} // namespace kvl
