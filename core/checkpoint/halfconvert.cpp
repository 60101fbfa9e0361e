#include "checkpoint/halfconvert.h"

#include "common/error.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace kvl {

float halfToFloat(uint16_t bits)
{
    const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu;
    const uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24 is exact in float32.
        const float magnitude = std::ldexp(float(mantissa), -24);
        return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
    }
    if (exponent == 31) // infinity or NaN, payload kept
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bf16ToFloat(uint16_t bits)
{
    return std::bit_cast<float>(uint32_t(bits) << 16);
}

uint16_t floatToHalf(float value)
{
    uint32_t u = std::bit_cast<uint32_t>(value);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    u &= 0x7fffffffu;
    if (u > 0x7f800000u) { // NaN: keep the top payload bits, never collapse to infinity
        const uint16_t payload = uint16_t((u >> 13) & 0x3ffu);
        return uint16_t(sign | 0x7c00u | (payload ? payload : 0x200u));
    }
    if (u >= 0x477ff000u) // >= 65520 rounds to infinity (65504 is the largest half)
        return uint16_t(sign | 0x7c00u);
    if (u < 0x38800000u) {
        // Below the smallest normal half (2^-14): adding 0.5 puts the value where the
        // float32 ulp is 2^-24, the half subnormal step, so the FPU rounds to nearest
        // even for us.
        const float shifted = std::bit_cast<float>(u) + 0.5f;
        return uint16_t(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u));
    }
    const uint32_t oddMantissa = (u >> 13) & 1u;
    u += (uint32_t(15 - 127) << 23) + 0xfffu + oddMantissa;
    return uint16_t(sign | (u >> 13));
}

uint16_t floatToBf16(float value)
{
    const uint32_t u = std::bit_cast<uint32_t>(value);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return uint16_t((u >> 16) | 0x40u); // quiet NaN
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

void halfToFloat(const uint16_t* in, float* out, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        out[i] = halfToFloat(in[i]);
}

void bf16ToFloat(const uint16_t* in, float* out, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        out[i] = bf16ToFloat(in[i]);
}

void tensorToFloat(const TensorView& tensor, float* out)
{
    const int64_t n = tensor.numel();
    switch (tensor.dtype) {
    case DType::F32:
        std::memcpy(out, tensor.data, size_t(n) * sizeof(float));
        return;
    case DType::F16:
        halfToFloat(static_cast<const uint16_t*>(tensor.data), out, n);
        return;
    case DType::BF16:
        bf16ToFloat(static_cast<const uint16_t*>(tensor.data), out, n);
        return;
    case DType::F64: {
        const double* in = static_cast<const double*>(tensor.data);
        for (int64_t i = 0; i < n; ++i)
            out[i] = float(in[i]);
        return;
    }
    default:
        throw Error(tensor.file,
                    QStringLiteral("tensor '%1' has dtype %2, expected a floating-point "
                                   "dtype (F32, F16, BF16 or F64)")
                        .arg(tensor.name, dtypeName(tensor.dtype)));
    }
}

std::vector<float> tensorToFloat(const TensorView& tensor)
{
    if (tensor.dtype != DType::F32 && tensor.dtype != DType::F16 && tensor.dtype != DType::BF16 &&
        tensor.dtype != DType::F64)
        tensorToFloat(tensor, nullptr); // throws the dtype error
    std::vector<float> out(size_t(tensor.numel()));
    tensorToFloat(tensor, out.data());
    return out;
}

} // namespace kvl
