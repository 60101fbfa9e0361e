#pragma once

#include <ATen/core/Tensor.h>

namespace kvl {

// Asymmetric group quantization of the rows of a [groups, group] tensor to `bits`
// (codes 0 .. 2^bits - 1), by min-max round-to-nearest or by HQQ (half-quadratic
// optimisation of the zero point, Badri & Shaji 2023; mobiusml/hqq hqq/core/optimize.py
// optimize_weights_proximal, the library's default, and hqq/core/quantize.py
// Quantizer.quantize). Step and zero are kept as the caches store them, in fp16; the
// codes are computed in float32 from the unrounded values, as the libraries do.
struct QuantizedGroups
{
    at::Tensor codes;         // [groups, group], integer levels held in float32
    at::Tensor step;          // [groups, 1] fp16-rounded dequantization step
    at::Tensor offset;        // [groups, 1] fp16-rounded: min-max the group minimum (value units),
                              // HQQ the zero point (code units)
    bool zeroInCodes = false; // true for HQQ: x ≈ (code - offset) · step
    int iterations = 0;       // HQQ optimiser iterations run; 0 for min-max

    // The tensor the cache hands back, [groups, group] float32.
    at::Tensor dequantized() const;
};

// HQQ's published optimiser settings (optimize_weights_proximal's opt_params).
struct HqqParams
{
    double lpNorm = 0.7; // the l_p (p < 1) norm of the error the shrinkage targets
    double beta = 10.0;  // initial half-quadratic penalty
    double kappa = 1.01; // beta grows by this factor each iteration
    int iterations = 20; // at most; the loop stops once the mean |error| stops falling
};

// Min-max: step (max - min) / (2^bits - 1), offset the group minimum (KIVI / quanto's
// MaxOptimizer, KVLens's `quantized`).
QuantizedGroups minMaxGroups(const at::Tensor& groups, int bits);

// HQQ: starts from min-max in HQQ's form (inverse scale s = (2^bits - 1) / (max - min),
// at most 2e4, zero z = -min · s), keeps s, and updates z by the proximal rule
// z = mean_row(q - (x - shrink_p(x - x_r, beta)) · s), beta *= kappa, stopping after the
// first iteration whose mean |x - x_r| over the whole tensor is not below the best so
// far (that iteration's update is kept, as the library does).
QuantizedGroups hqqGroups(const at::Tensor& groups, int bits, const HqqParams& params = {});

} // namespace kvl
