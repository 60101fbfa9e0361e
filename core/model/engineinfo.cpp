#include "model/engineinfo.h"

#include "model/cachingallocator.h"

#include <ATen/Parallel.h>
#include <torch/types.h>

#include <QFileInfo>
#include <dlfcn.h>
#include <mutex>
#include <sched.h>
#include <thread>

namespace kvl {

int availableCores()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0)
            return count;
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

int initEngineThreads()
{
    installCachingCpuAllocator();
    const int cores = availableCores();
    if (at::get_num_threads() != cores)
        at::set_num_threads(cores);
    // The inter-op pool can only be sized before its first use; later calls throw.
    static std::once_flag interop;
    std::call_once(interop, [cores] {
        try {
            at::set_num_interop_threads(cores);
        } catch (const std::exception&) {
        }
    });
    return at::get_num_threads();
}

void flushDenormals()
{
    at::globalContext().setFlushDenormal(true);
    // The mode is per thread: a parallel region over libgomp's pool (libtorch's
    // intra-op threads, and OpenBLAS's in its OpenMP build) sets it on each of them.
#pragma omp parallel
    at::globalContext().setFlushDenormal(true);
}

QString blasLibraryPath()
{
    void* symbol = dlsym(RTLD_DEFAULT, "sgemm_");
    Dl_info info{};
    if (symbol == nullptr || dladdr(symbol, &info) == 0 || info.dli_fname == nullptr)
        return {};
    return QFileInfo(QString::fromLocal8Bit(info.dli_fname)).canonicalFilePath();
}

QString blasName()
{
    const QString path = blasLibraryPath();
    if (path.isEmpty())
        return QStringLiteral("unknown");
    if (dlsym(RTLD_DEFAULT, "openblas_get_config") != nullptr &&
        path.contains(QLatin1String("openblas"), Qt::CaseInsensitive))
        return QStringLiteral("OpenBLAS");
    if (path.contains(QLatin1String("openblas"), Qt::CaseInsensitive))
        return QStringLiteral("OpenBLAS");
    if (path.contains(QLatin1String("mkl"), Qt::CaseInsensitive))
        return QStringLiteral("MKL");
    if (path.contains(QLatin1String("blis"), Qt::CaseInsensitive))
        return QStringLiteral("BLIS");
    if (path.contains(QLatin1String("/blas/"), Qt::CaseInsensitive))
        return QStringLiteral("reference BLAS");
    return QFileInfo(path).fileName();
}

} // namespace kvl
