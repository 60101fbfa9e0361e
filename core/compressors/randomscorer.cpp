// Random: every entry scored uniformly at random (seeded), kvpress RandomPress.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kRandomSeed = 0; // kvpress leaves it unseeded; KVLens fixes it for reproducibility

class RandomScorer : public Scorer
{
  public:
    RandomScorer(int seed, QString spec) : m_seed(seed), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    at::Tensor score(const CompressionInput& input, double) const override
    {
        at::Generator gen = at::detail::createCPUGenerator(uint64_t(m_seed));
        return torch::rand({input.layers(), input.kvHeads(), input.length()}, gen);
    }

  private:
    int m_seed;
    QString m_spec;
};

std::unique_ptr<Scorer> makeRandom(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int seed = p.integer(QStringLiteral("seed"), kRandomSeed, 0, 1 << 30);
    p.finish();
    return std::make_unique<RandomScorer>(seed, p.canonical());
}

} // namespace

PressEntry randomEntry()
{
    return {.name = QStringLiteral("random"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral("score = uniform random (seeded); a floor for every other press "
                                   "(kvpress random_press.py)"),
            .params = {{QStringLiteral("seed"), QString::number(kRandomSeed),
                        QStringLiteral("generator seed")}},
            .makeScorer = &makeRandom};
}

} // namespace kvl
