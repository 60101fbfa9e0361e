// Helpers of the fuzz targets, shared by the standalone driver and a libFuzzer build.

#include "fuzztarget.h"

#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>

namespace kvl::fuzz {

QString writeTempFile(const QByteArray& bytes, const QString& name)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort(); // the fuzzer's own environment is broken, not the target
    f.write(bytes);
    f.close();
    return path;
}

void rejected(const std::exception& error)
{
    static const bool verbose = qEnvironmentVariableIsSet("KVLENS_FUZZ_VERBOSE");
    if (verbose)
        std::fprintf(stderr, "rejected: %s\n", error.what());
}

} // namespace kvl::fuzz
