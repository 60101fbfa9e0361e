// Quantized cache: K and V of all but the last `residual` context entries quantized to
// `bits` (asymmetric min-max, round to nearest, one fp16 scale and zero per group of
// `group` channels of a head's token), the residual window in full precision (Hugging
// Face QuantizedCache defaults); every position kept, bytes and errors reported.
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <cmath>
#include <torch/torch.h>

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

// Quantize-dequantize x [H, n, d] in groups of `group` channels.
at::Tensor fakeQuantize(const at::Tensor& x, int bits, int group)
{
    const auto sizes = x.sizes();
    const at::Tensor g = x.reshape({-1, group});
    const at::Tensor lo = std::get<0>(g.min(1, true));
    const at::Tensor hi = std::get<0>(g.max(1, true));
    const double levels = std::pow(2.0, bits) - 1.0;
    const at::Tensor scale = ((hi - lo) / levels).clamp_min(1e-12);
    const at::Tensor q = ((g - lo) / scale).round().clamp(0.0, levels);
    return (q * scale + lo).reshape(sizes);
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
    QuantizedPress(int bits, int group, int residual, QString spec)
        : m_bits(bits), m_group(group), m_residual(residual), m_spec(std::move(spec))
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
        for (LayerCache& layer : out.layers) {
            k0.push_back(layer.keys);
            v0.push_back(layer.values);
            if (quantized > 0) {
                layer.keys = layer.keys.clone();
                layer.values = layer.values.clone();
                layer.keys.narrow(1, 0, quantized)
                    .copy_(fakeQuantize(layer.keys.narrow(1, 0, quantized), bits, group));
                layer.values.narrow(1, 0, quantized)
                    .copy_(fakeQuantize(layer.values.narrow(1, 0, quantized), bits, group));
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
        return r;
    }

  private:
    int m_bits;
    int m_group;
    int m_residual;
    QString m_spec;
};

std::unique_ptr<Press> make(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int bits = p.integer(QStringLiteral("bits"), kBits, 0, 8);
    const int group = p.integer(QStringLiteral("group"), kGroup, 1, 1 << 16);
    const int residual = p.integer(QStringLiteral("residual"), kResidual, 0, 1 << 24);
    p.finish();
    if (bits != 0 && bits != 2 && bits != 4 && bits != 8)
        throw Error(p.canonical(), QStringLiteral("bits must be 2, 4 or 8 (0: from the ratio)"));
    return std::make_unique<QuantizedPress>(bits, group, residual, p.canonical());
}

} // namespace

PressEntry quantizedEntry()
{
    return {QStringLiteral("quantized"),
            PressEntry::Kind::Transform,
            QStringLiteral("K and V quantized to `bits` (min-max per group of `group` channels), "
                           "last `residual` entries in full precision; positions all kept"),
            {},
            {{QStringLiteral("bits"), QString::number(kBits),
              QStringLiteral("2, 4 or 8; 0 = from the ratio (<=0.25: 8, <=0.5: 4, else 2)")},
             {QStringLiteral("group"), QString::number(kGroup), QStringLiteral("group size")},
             {QStringLiteral("residual"), QString::number(kResidual),
              QStringLiteral("recent entries kept in full precision")}},
            nullptr,
            &make};
}

} // namespace kvl
