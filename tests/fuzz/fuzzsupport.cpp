// Helpers of the fuzz targets, shared by the standalone driver and a libFuzzer build.

#include "fuzztarget.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>

namespace kvl::fuzz {

namespace {
// Where the per-process folder goes: KVLENS_FUZZ_TMPDIR, else /dev/shm (memory: the
// targets that write each input to a file, or a run file per input, then cost what the
// code under test costs, not a disk's fsync), else the system's temporary folder.
QString tempRoot()
{
    const QString chosen = qEnvironmentVariable("KVLENS_FUZZ_TMPDIR");
    if (!chosen.isEmpty())
        return chosen;
    const QFileInfo shm(QStringLiteral("/dev/shm"));
    if (shm.isDir() && shm.isWritable())
        return shm.filePath();
    return QDir::tempPath();
}
} // namespace

QString writeTempFile(const QByteArray& bytes, const QString& name)
{
    static QTemporaryDir dir(tempRoot() + QStringLiteral("/kvlens-fuzz-XXXXXX"));
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
