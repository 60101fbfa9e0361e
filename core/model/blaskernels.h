#pragma once

#include <QString>

namespace kvl {

// OpenBLAS chooses its kernels from the CPU model when it loads. A model newer than the
// library, or one a hypervisor masks, falls back to "Prescott" (SSE3 kernels): on this
// project's machines sgemm then runs ~5x below what the CPU's AVX-512 kernels reach.
// OPENBLAS_CORETYPE overrides the choice, but is read only while the library loads, so
// an engine executable calls this first thing in main(): when OpenBLAS runs weaker
// kernels than the CPU supports and the user set no OPENBLAS_CORETYPE, it sets it and
// re-executes the process once (same argv). Otherwise it returns and changes nothing.
void ensureFastBlasKernels(char** argv);

// The kernel family OpenBLAS runs (openblas_get_corename), empty when the BLAS in use
// is not OpenBLAS.
QString blasCoreName();

// The strongest OpenBLAS kernel family this CPU (and OS) supports, by CPU features:
// "SkylakeX" (AVX-512 F/CD/BW/DQ/VL), "Haswell" (AVX2 + FMA) or empty.
QString bestBlasCoreFor();

} // namespace kvl
