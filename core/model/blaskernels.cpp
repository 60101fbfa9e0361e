#include "model/blaskernels.h"

#include "model/cpufeatures.h"

#include <QStringList>
#include <cstdlib>
#include <dlfcn.h>
#include <unistd.h>

namespace kvl {

namespace {
// Kernel families older than each target, as openblas_get_corename() spells them
// (lower case). Only these are upgraded: a newer or different family is left alone.
const QStringList kOlderThanHaswell = {QStringLiteral("prescott"),   QStringLiteral("core2"),
                                       QStringLiteral("penryn"),     QStringLiteral("dunnington"),
                                       QStringLiteral("nehalem"),    QStringLiteral("atom"),
                                       QStringLiteral("sandybridge")};
} // namespace

QString blasCoreName()
{
    using CoreNameFn = char* (*)();
    const auto fn = reinterpret_cast<CoreNameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
    if (fn == nullptr)
        return {};
    const char* name = fn();
    return name ? QString::fromLatin1(name) : QString();
}

QString bestBlasCoreFor()
{
    const CpuFeatures& cpu = cpuFeatures();
    if (cpu.avx512Skylake)
        return QStringLiteral("SkylakeX");
    if (cpu.avx2 && cpu.fma)
        return QStringLiteral("Haswell");
    return {};
}

void ensureFastBlasKernels(char** argv)
{
    if (std::getenv("OPENBLAS_CORETYPE") != nullptr)
        return; // the user's choice, or this process already re-executed
    const QString current = blasCoreName().toLower();
    const QString best = bestBlasCoreFor();
    if (current.isEmpty() || best.isEmpty())
        return;
    QStringList older = kOlderThanHaswell;
    if (best == QLatin1String("SkylakeX"))
        older << QStringLiteral("haswell") << QStringLiteral("zen");
    if (!older.contains(current))
        return;
    setenv("OPENBLAS_CORETYPE", best.toLatin1().constData(), 1);
    execv("/proc/self/exe", argv);
    // execv failed (no /proc): run on with the kernels already loaded.
}

} // namespace kvl
