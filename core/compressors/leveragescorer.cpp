// Leverage, Compactor's geometric score (Chari & Van Durme 2025, arXiv:2507.08143; kvpress
// leverage_press.py): approximate statistical leverage of the centred pre-RoPE keys under
// a right Gaussian sketch, z-normalised per layer (see compactorscores.h).
#include "cache/pressparams.h"
#include "compressors/compactorscores.h"
#include "compressors/presscatalog.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kLeverageSketch = 48; // kvpress sketch_dimension
constexpr int kLeverageSeed = 0;    // kvpress draws the sketch unseeded; KVLens fixes it

class LeverageScorer : public Scorer
{
  public:
    LeverageScorer(int sketch, int seed, QString spec)
        : m_sketch(sketch), m_seed(seed), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    bool entryWise() const override { return false; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        at::Generator gen = at::detail::createCPUGenerator(uint64_t(m_seed));
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers)
            layers.push_back(leverageScores(l, 0, input.length(), m_sketch, gen, m_spec));
        return torch::stack(layers);
    }

  private:
    int m_sketch;
    int m_seed;
    QString m_spec;
};

std::unique_ptr<Scorer> makeLeverage(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sketch = p.integer(QStringLiteral("sketch_dimension"), kLeverageSketch, 1, 4096);
    const int seed = p.integer(QStringLiteral("seed"), kLeverageSeed, 0, 1 << 30);
    p.finish();
    return std::make_unique<LeverageScorer>(sketch, seed, p.canonical());
}

} // namespace

PressEntry leverageEntry()
{
    return {.name = QStringLiteral("leverage"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("Compactor's geometric score (Chari & Van Durme 2025, "
                               "arXiv:2507.08143; kvpress leverage_press.py): X = (pre-RoPE keys - "
                               "their mean) x Gaussian sketch [d, k] / sqrt(k); score_i = "
                               "x_i^T (X^T X)^-1 x_i (Cholesky, jitter 1e-2), clamped at 0, "
                               "z-normalised per layer"),
            .params = {{QStringLiteral("sketch_dimension"), QString::number(kLeverageSketch),
                        QStringLiteral("columns of the Gaussian sketch")},
                       {QStringLiteral("seed"), QString::number(kLeverageSeed),
                        QStringLiteral("sketch seed (kvpress leaves it unseeded)")}},
            .makeScorer = &makeLeverage};
}

} // namespace kvl
