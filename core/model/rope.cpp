#include "model/rope.h"

#include <torch/types.h>

#include <cmath>

namespace kvl {

namespace {

// Hugging Face's _compute_llama3_parameters, op for op in float32.
at::Tensor llama3InvFreq(const at::Tensor& invFreq, const RopeScaling& s)
{
    const double factor = s.factor;
    const double lowFreqWavelen = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
    const double highFreqWavelen = s.originalMaxPositionEmbeddings / s.highFreqFactor;
    const at::Tensor wavelen = (2 * M_PI) / invFreq;
    at::Tensor scaled = at::where(wavelen > lowFreqWavelen, invFreq / factor, invFreq);
    const at::Tensor smooth = (s.originalMaxPositionEmbeddings / wavelen - s.lowFreqFactor) /
                              (s.highFreqFactor - s.lowFreqFactor);
    const at::Tensor smoothed = (1 - smooth) * scaled / factor + smooth * scaled;
    const at::Tensor medium = (wavelen >= highFreqWavelen).logical_and(wavelen <= lowFreqWavelen);
    return at::where(medium, smoothed, scaled);
}

} // namespace

Rope::Rope(const ModelConfig& config)
{
    const int64_t dim = config.headDim;
    const at::Tensor exponent =
        at::arange(0, dim, 2, at::TensorOptions().dtype(at::kLong)).to(at::kFloat) / double(dim);
    at::Tensor invFreq = 1.0 / at::pow(config.ropeTheta, exponent);
    switch (config.ropeScaling.type) {
    case RopeScaling::Type::None:
        break;
    case RopeScaling::Type::Linear:
        invFreq = invFreq / config.ropeScaling.factor;
        break;
    case RopeScaling::Type::Llama3:
        invFreq = llama3InvFreq(invFreq, config.ropeScaling);
        break;
    }
    m_invFreq = invFreq.contiguous();
}

std::pair<at::Tensor, at::Tensor> Rope::cosSin(const at::Tensor& positions) const
{
    const at::Tensor freqs = positions.to(at::kFloat).unsqueeze(1) * m_invFreq.unsqueeze(0);
    const at::Tensor emb = at::cat({freqs, freqs}, 1);
    return {emb.cos(), emb.sin()};
}

at::Tensor Rope::apply(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin)
{
    // cos/sin [T, d] broadcast over the head axis of x [..., T, n, d].
    const at::Tensor c = cos.unsqueeze(-2);
    const at::Tensor s = sin.unsqueeze(-2);
    const int64_t half = x.size(-1) / 2;
    const at::Tensor x1 = x.narrow(-1, 0, half);
    const at::Tensor x2 = x.narrow(-1, half, half);
    const at::Tensor rotated = at::cat({-x2, x1}, -1);
    return x * c + rotated * s;
}

} // namespace kvl
