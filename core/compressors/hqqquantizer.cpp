// HQQ: the zero point of each group found by half-quadratic splitting of
// min ||x - dequant(quant(x))||_p^p, p = 0.7 (Badri & Shaji 2023, mobiusml/hqq
// hqq/core/optimize.py optimize_weights_proximal), beside min-max round-to-nearest.
#include "compressors/hqqquantizer.h"

#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

// HQQ clamps its inverse scale so that fp16 metadata stays finite (quantize.py).
constexpr double kMaxInverseScale = 2e4;
// optimize_weights_proximal's initial best error: any first error below it counts.
constexpr double kInitialBestError = 1e4;

at::Tensor toFp16(const at::Tensor& x)
{
    return x.to(torch::kFloat16).to(torch::kFloat32);
}

double levelsOf(int bits)
{
    return std::pow(2.0, bits) - 1.0;
}

// The generalised soft-thresholding of the l_p proximal step on the error `e` (whose
// magnitude is `a`): shrinks |e| by |e|^(p-1) / beta, to zero where that exceeds |e| (so
// small errors vanish and large ones, the outliers, are kept out of the zero-point
// fit). In place: the loop runs it up to 20 times over the whole cache.
at::Tensor shrinkLp(const at::Tensor& e, const at::Tensor& a, double beta, double p)
{
    // |e|^(p-1) as exp((p-1) log|e|): libtorch's pow with a fractional exponent is the
    // loop's most expensive step, its vectorised exp and log are not (|e| = 0 still
    // gives inf, and a shrunk 0).
    at::Tensor w =
        p == 1.0 ? torch::full_like(a, 1.0 / beta) : a.log().mul_(p - 1.0).exp_().div_(beta);
    at::sub_out(w, a, w).relu_(); // a - |e|^(p-1) / beta, clipped at 0
    return w.copysign_(e);
}

} // namespace

at::Tensor QuantizedGroups::dequantized() const
{
    return zeroInCodes ? (codes - offset) * step : codes * step + offset;
}

QuantizedGroups minMaxGroups(const at::Tensor& groups, int bits)
{
    const at::Tensor x = groups.to(torch::kFloat32);
    const at::Tensor lo = std::get<0>(x.min(1, true));
    const at::Tensor hi = std::get<0>(x.max(1, true));
    const double levels = levelsOf(bits);
    const at::Tensor step = ((hi - lo) / levels).clamp_min(1e-12);
    QuantizedGroups out;
    out.codes = ((x - lo) / step).round().clamp(0.0, levels);
    out.step = toFp16(step);
    out.offset = toFp16(lo);
    return out;
}

QuantizedGroups hqqGroups(const at::Tensor& groups, int bits, const HqqParams& params)
{
    const at::Tensor x = groups.to(torch::kFloat32);
    const at::Tensor lo = std::get<0>(x.min(1, true));
    const at::Tensor hi = std::get<0>(x.max(1, true));
    const double levels = levelsOf(bits);
    // HQQ works with the inverse step s: q = round(x · s + z), x_r = (q - z) / s.
    const at::Tensor s = (levels / (hi - lo)).clamp_max(kMaxInverseScale);
    at::Tensor z = -lo * s;
    double beta = params.beta;
    double best = kInitialBestError;
    int iterations = 0;
    while (iterations < params.iterations) {
        // The library's steps with fewer passes over the cache (its cost): addcmul and
        // addcdiv form the same products and sums as the separate operators, in place
        // where a temporary is not needed.
        const at::Tensor q = torch::addcmul(z, x, s).round_().clamp_(0.0, levels);
        const at::Tensor dx = torch::addcdiv(x, q - z, s, -1.0); // x - (q - z) / s
        const at::Tensor a = dx.abs();
        at::Tensor e = shrinkLp(dx, a, beta, params.lpNorm);
        z = torch::addcmul(q, e.sub_(x), s).mean(1, true); // q + (e - x) s = q - (x - e) s
        beta *= params.kappa;
        ++iterations;
        // The error of the zero point used above (before this update), over the whole
        // tensor; the library breaks after updating, keeping the update.
        const double error = a.mean().item<double>();
        if (error < best)
            best = error;
        else
            break;
    }
    QuantizedGroups out;
    out.codes = (x * s + z).round().clamp(0.0, levels);
    out.step = toFp16(1.0 / s);
    out.offset = toFp16(z);
    out.zeroInCodes = true;
    out.iterations = iterations;
    return out;
}

} // namespace kvl
