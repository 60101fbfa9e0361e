// Compactor (Chari & Van Durme 2025, arXiv:2507.08143; kvpress compactor_press.py): the
// first sink_size_start and last sink_size_end entries are protected (the layer's max + 1);
// between them, score = blending x leverage + non-causal attention (both z-normalised over
// that middle part), with blending = r unless given.
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/compactorscores.h"
#include "compressors/presscatalog.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kSinkStart = 8;        // kvpress sink_size_start
constexpr int kSinkEnd = 4;          // kvpress sink_size_end
constexpr int kCompactorChunk = 256; // kvpress chunk_size
constexpr int kCompactorSketch = 48; // kvpress sketch_dimension

class CompactorScorer : public Scorer
{
  public:
    CompactorScorer(int start, int end, int chunk, int sketch, double blending, int seed,
                    QString spec)
        : m_start(start), m_end(end), m_chunk(chunk), m_sketch(sketch), m_blending(blending),
          m_seed(seed), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return length; }
    bool usesRatio() const override { return m_blending < 0.0; }

    at::Tensor score(const CompressionInput& input, double ratio) const override
    {
        const int64_t length = input.length();
        const int64_t left = std::min<int64_t>(m_start, length);
        const int64_t right = std::min<int64_t>(m_end, std::max<int64_t>(0, length - left));
        if (length - left - right < 2)
            throw Error(m_spec,
                        QStringLiteral("needs at least 2 context tokens between the %1 + %2 "
                                       "protected ones (has %3)")
                            .arg(m_start)
                            .arg(m_end)
                            .arg(length));
        const double blending = m_blending < 0.0 ? ratio : m_blending;
        at::Generator gen = at::detail::createCPUGenerator(uint64_t(m_seed));
        std::vector<at::Tensor> layers;
        for (const LayerCache& l : input.cache->layers) {
            const at::Tensor s =
                blending * leverageScores(l, left, length - right, m_sketch, gen, m_spec) +
                nonCausalAttentionScores(l, left, length - right, m_chunk, m_spec);
            const double top = s.max().item<double>() + 1.0;
            layers.push_back(torch::constant_pad_nd(s, {left, right}, top));
        }
        return torch::stack(layers);
    }

  private:
    int m_start;
    int m_end;
    int m_chunk;
    int m_sketch;
    double m_blending; // < 0: the compression ratio
    int m_seed;
    QString m_spec;
};

std::unique_ptr<Scorer> makeCompactor(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int start = p.integer(QStringLiteral("sink_size_start"), kSinkStart, 0, 1 << 20);
    const int end = p.integer(QStringLiteral("sink_size_end"), kSinkEnd, 0, 1 << 20);
    const int chunk = p.integer(QStringLiteral("chunk_size"), kCompactorChunk, 1, 1 << 20);
    const int sketch = p.integer(QStringLiteral("sketch_dimension"), kCompactorSketch, 1, 4096);
    const QString blendingText = p.text(QStringLiteral("blending"), QStringLiteral("r"));
    const int seed = p.integer(QStringLiteral("seed"), 0, 0, 1 << 30);
    p.finish();
    double blending = -1.0;
    if (blendingText != QLatin1String("r")) {
        bool ok = false;
        blending = blendingText.toDouble(&ok);
        if (!ok || blending < 0.0)
            throw Error(p.canonical(), QStringLiteral("blending must be 'r' (the compression "
                                                      "ratio) or a number >= 0, got '%1'")
                                           .arg(blendingText));
    }
    return std::make_unique<CompactorScorer>(start, end, chunk, sketch, blending, seed,
                                             p.canonical());
}

} // namespace

PressEntry compactorEntry()
{
    return {.name = QStringLiteral("compactor"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("Compactor (Chari & Van Durme 2025, arXiv:2507.08143; kvpress "
                               "compactor_press.py): first sink_size_start and last sink_size_end "
                               "entries kept (max + 1); between them blending x leverage + "
                               "non_causal_attention, each z-normalised over that part; blending "
                               "= r by default"),
            .params = {{QStringLiteral("sink_size_start"), QString::number(kSinkStart),
                        QStringLiteral("initial entries protected")},
                       {QStringLiteral("sink_size_end"), QString::number(kSinkEnd),
                        QStringLiteral("last entries protected")},
                       {QStringLiteral("chunk_size"), QString::number(kCompactorChunk),
                        QStringLiteral("non-causal attention chunk")},
                       {QStringLiteral("sketch_dimension"), QString::number(kCompactorSketch),
                        QStringLiteral("leverage sketch columns")},
                       {QStringLiteral("blending"), QStringLiteral("r"),
                        QStringLiteral("weight of the leverage score; r = the compression ratio")},
                       {QStringLiteral("seed"), QStringLiteral("0"),
                        QStringLiteral("sketch seed (kvpress leaves it unseeded)")}},
            .makeScorer = &makeCompactor};
}

} // namespace kvl
