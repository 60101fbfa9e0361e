#include "rowchecksumcache.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

#include <chrono>
#include <filesystem>

namespace kvl {

namespace {

// What identifies one state of a run file on disk. A sweep commits into the WAL (its
// size or time changes); a checkpoint or a hand edit changes the main file.
struct FileState
{
    qint64 size = -1;
    qint64 modified = -1;
    qint64 walSize = -1;
    qint64 walModified = -1;
    bool operator==(const FileState&) const = default;
};

// Nanoseconds where the file system keeps them (ext4, xfs): two commits within one
// millisecond still differ.
FileState stateOf(const QString& path)
{
    FileState state;
    const std::filesystem::path file(QFile::encodeName(path).toStdString());
    std::filesystem::path wal = file;
    wal += "-wal";
    const auto stamp = [](const std::filesystem::path& p, qint64& size, qint64& modified) {
        std::error_code e;
        const auto bytes = std::filesystem::file_size(p, e);
        if (e)
            return;
        const auto time = std::filesystem::last_write_time(p, e);
        if (e)
            return;
        size = qint64(bytes);
        modified = qint64(
            std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count());
    };
    stamp(file, state.size, state.modified);
    stamp(wal, state.walSize, state.walModified);
    return state;
}

struct Verified
{
    FileState state;
    RowChecksums counts;
};

QMutex& cacheMutex()
{
    static QMutex mutex;
    return mutex;
}

QHash<QString, Verified>& cache()
{
    static QHash<QString, Verified> verified;
    return verified;
}

} // namespace

RowChecksums verifiedRowChecksums(RunReader& reader)
{
    const QString key = QFileInfo(reader.path()).absoluteFilePath();
    // The state is taken before the check: a commit during it makes the next load
    // verify again instead of trusting rows it did not see.
    const FileState before = stateOf(key);
    {
        QMutexLocker lock(&cacheMutex());
        const auto it = cache().constFind(key);
        if (it != cache().constEnd() && it->state == before)
            return it->counts;
    }
    const RowChecksums counts = reader.verifyRowChecksums(); // throws on a damaged row
    QMutexLocker lock(&cacheMutex());
    cache().insert(key, Verified{before, counts});
    return counts;
}

void forgetVerifiedRowChecksums()
{
    QMutexLocker lock(&cacheMutex());
    cache().clear();
}

} // namespace kvl
