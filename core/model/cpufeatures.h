#pragma once

namespace kvl {

// The instruction sets the engine's hand-written kernels choose between, read once per
// process. GCC's checks include the OS's support for the AVX and AVX-512 register state
// (XCR0), so a set reported here can be used.
struct CpuFeatures
{
    bool avx = false, avx2 = false, fma = false, f16c = false;
    bool avx512f = false;
    // F, CD, BW, DQ and VL: what OpenBLAS's SkylakeX kernels need.
    bool avx512Skylake = false;
};

const CpuFeatures& cpuFeatures();

} // namespace kvl
