// Quantized cache: K and V of all but the last `residual` context entries quantized to
// `bits` per group of `group` channels of a head's token (asymmetric, one fp16 step and
// zero per group), by min-max round-to-nearest (`quantized`) or with HQQ's optimised
// zero point (`hqq`, mobiusml/hqq hqq/core/optimize.py optimize_weights_proximal, as
// transformers' QuantizedCache(backend="hqq") calls hqq/core/quantize.py with axis 1);
// the residual window in full precision (Hugging Face QuantizedCache defaults); every
// position kept, bytes and errors reported.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/hqqquantizer.h"
#include "compressors/presscatalog.h"

#include <QJsonArray>
#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kBits = 0;       // 0 = from the ratio: r <= 0.25 -> 8, <= 0.5 -> 4, else 2
constexpr int kGroup = 64;     // HF QuantizedCache q_group_size
constexpr int kResidual = 128; // HF QuantizedCache residual_length

int bitsForRatio(double ratio)
{
    // KVDiagnosis pairs 8/4/2 bits with budgets 0.75/0.5/0.25; r = 0 means no quantization.
    if (ratio <= 0.0)
        return 16;
    return ratio <= 0.25 ? 8 : ratio <= 0.5 ? 4 : 2;
}

enum class Backend
{
    MinMax,
    Hqq,
};

// Quantize-dequantize x [H, n, d] in groups of `group` channels (one HQQ call per
// layer's K or V, as the cache quantizes a layer's tensor at once); sets `iterations`
// to the HQQ iterations run.
at::Tensor fakeQuantize(const at::Tensor& x, int bits, int group, Backend backend, int& iterations)
{
    const at::Tensor g = x.reshape({-1, group});
    const QuantizedGroups q = backend == Backend::Hqq ? hqqGroups(g, bits) : minMaxGroups(g, bits);
    iterations = q.iterations;
    return q.dequantized().reshape(x.sizes()).to(x.dtype());
}

double relativeError(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        num += (a[i] - b[i]).pow(2).sum().item<double>();
        den += b[i].pow(2).sum().item<double>();
    }
    return den > 0 ? std::sqrt(num / den) : 0.0;
}

class QuantizedPress : public Press
{
  public:
    QuantizedPress(Backend backend, int bits, int group, int residual, QString spec)
        : m_backend(backend), m_bits(bits), m_group(group), m_residual(residual),
          m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return 0; }
    bool needsReceivedAttention() const override { return false; }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        checkRatio(ratio, m_spec);
        const int bits = m_bits > 0 ? m_bits : bitsForRatio(ratio);
        const int64_t length = input.length(), d = input.headDim();
        // A head smaller than the group is one group (small test models).
        const int group = int(std::min<int64_t>(m_group, d));
        if (d % group != 0 && bits < 16)
            throw Error(m_spec,
                        QStringLiteral("group %1 does not divide head_dim %2").arg(m_group).arg(d));
        const int64_t quantized = bits < 16 ? std::max<int64_t>(0, length - m_residual) : 0;
        ContextCache out = *input.cache;
        std::vector<at::Tensor> k0, k1, v0, v1;
        QJsonArray iterations; // HQQ: [K, V] per layer
        for (LayerCache& layer : out.layers) {
            k0.push_back(layer.keys);
            v0.push_back(layer.values);
            if (quantized > 0) {
                layer.keys = layer.keys.clone();
                layer.values = layer.values.clone();
                int kIterations = 0, vIterations = 0;
                layer.keys.narrow(1, 0, quantized)
                    .copy_(fakeQuantize(layer.keys.narrow(1, 0, quantized), bits, group, m_backend,
                                        kIterations));
                layer.values.narrow(1, 0, quantized)
                    .copy_(fakeQuantize(layer.values.narrow(1, 0, quantized), bits, group,
                                        m_backend, vIterations));
                iterations.append(QJsonArray{kIterations, vIterations});
            }
            k1.push_back(layer.keys);
            v1.push_back(layer.values);
        }
        const at::Tensor all = torch::ones({input.layers(), input.kvHeads(), length}, torch::kBool);
        CompressionResult r = evictionResult(all, {}, int(d));
        // Per (layer, head, token, K or V): d·bits/8 bytes plus an fp16 scale and zero
        // per group when quantized; residual entries in fp16.
        const double kvSlots = double(input.layers()) * double(input.kvHeads()) * 2.0;
        const double qBytes = double(d) * bits / 8.0 + double(d / group) * 2.0 * 2.0;
        r.keptBytes = kvSlots * (double(quantized) * qBytes +
                                 double(length - quantized) * double(d) * kCacheBytesPerElement);
        r.coverage = CoverageType::StructuralPositionAddressability;
        r.keyError = relativeError(k1, k0);
        r.valueError = relativeError(v1, v0);
        r.rewritten = out;
        r.details[QStringLiteral("bits")] = bits;
        r.details[QStringLiteral("quantized_tokens")] = qint64(quantized);
        r.details[QStringLiteral("group")] = group;
        r.details[QStringLiteral("backend")] =
            m_backend == Backend::Hqq ? QStringLiteral("hqq") : QStringLiteral("minmax");
        if (m_backend == Backend::Hqq && !iterations.isEmpty())
            r.details[QStringLiteral("hqq_iterations")] = iterations;
        return r;
    }

  private:
    Backend m_backend;
    int m_bits;
    int m_group;
    int m_residual;
    QString m_spec;
};

template <Backend backend>
std::unique_ptr<Press> makeQuantized(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int bits = p.integer(QStringLiteral("bits"), kBits, 0, 8);
    const int group = p.integer(QStringLiteral("group"), kGroup, 1, 1 << 16);
    const int residual = p.integer(QStringLiteral("residual"), kResidual, 0, 1 << 24);
    p.finish();
    if (bits != 0 && bits != 2 && bits != 4 && bits != 8)
        throw Error(p.canonical(), QStringLiteral("bits must be 2, 4 or 8 (0: from the ratio)"));
    return std::make_unique<QuantizedPress>(backend, bits, group, residual, p.canonical());
}

std::vector<PressEntry::Param> params()
{
    return {{QStringLiteral("bits"), QString::number(kBits),
             QStringLiteral("2, 4 or 8; 0 = from the ratio (<=0.25: 8, <=0.5: 4, else 2)")},
            {QStringLiteral("group"), QString::number(kGroup), QStringLiteral("group size")},
            {QStringLiteral("residual"), QString::number(kResidual),
             QStringLiteral("recent entries kept in full precision")}};
}

} // namespace

PressEntry quantizedEntry()
{
    return {.name = QStringLiteral("quantized"),
            .kind = PressEntry::Kind::Transform,
            .rule = QStringLiteral(
                "K and V quantized to `bits` (min-max round-to-nearest per group of "
                "`group` channels, fp16 step and minimum), last `residual` entries in "
                "full precision; positions all kept (transformers QuantizedCache, which "
                "kvpress's README uses for quantization)"),
            .params = params(),
            .makePress = &makeQuantized<Backend::MinMax>};
}

PressEntry hqqEntry()
{
    return {.name = QStringLiteral("hqq"),
            .kind = PressEntry::Kind::Transform,
            .rule = QStringLiteral(
                "K and V quantized to `bits` per group of `group` channels with HQQ's "
                "zero point (half-quadratic l0.7 proximal fit, beta 10 x1.01, <= 20 "
                "iterations, stop when the mean |error| stops falling; Badri & Shaji "
                "2023, mobiusml/hqq hqq/core/optimize.py optimize_weights_proximal), "
                "fp16 step and zero, last `residual` entries in full precision; "
                "positions all kept"),
            .params = params(),
            .makePress = &makeQuantized<Backend::Hqq>};
}

} // namespace kvl
