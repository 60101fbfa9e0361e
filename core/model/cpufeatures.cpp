#include "model/cpufeatures.h"

namespace kvl {

const CpuFeatures& cpuFeatures()
{
    static const CpuFeatures features = [] {
        __builtin_cpu_init();
        CpuFeatures f;
        f.avx = __builtin_cpu_supports("avx");
        f.avx2 = __builtin_cpu_supports("avx2");
        f.fma = __builtin_cpu_supports("fma");
        f.f16c = __builtin_cpu_supports("f16c");
        f.avx512f = __builtin_cpu_supports("avx512f");
        f.avx512Skylake = f.avx512f && __builtin_cpu_supports("avx512cd") &&
                          __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
        return f;
    }();
    return features;
}

} // namespace kvl
