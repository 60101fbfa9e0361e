#include "store/runfile.h"

#include "common/error.h"
#include "store/runschema.h"
#include "store/sqlitestatement.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QtEndian>

#include <algorithm>
#include <vector>

#include <sqlite3.h>

namespace kvl {

namespace {
// Checks the 100-byte SQLite header before SQLite sees the file, so that a stranger
// or a truncated copy is named as such instead of failing on a later query.
//
// The bytes are read through SQLite's own file layer, not QFile: closing any descriptor of
// a file drops every POSIX lock the process holds on it, including the shared lock each
// open WAL connection keeps. With that lock gone, a sweep closing in another process
// believes it is the last user, checkpoints and deletes the -wal and -shm, and this
// process's other connections (the app's views) are left on a stale -shm index, reading
// the file as malformed until they close. SQLite's unix layer defers such a close while
// the process holds locks on the file.
struct HeaderBytes
{
    QByteArray header;
    qint64 fileSize = 0;
};

HeaderBytes readHeader(const QString& path)
{
    sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
    const QByteArray name = QFileInfo(path).absoluteFilePath().toUtf8();
    std::vector<char> storage(size_t(vfs->szOsFile));
    auto* file = reinterpret_cast<sqlite3_file*>(storage.data());
    int outFlags = 0;
    // xOpen keeps the name pointer for the file's lifetime: `name` outlives `file`.
    if (vfs->xOpen(vfs, name.constData(), file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB,
                   &outFlags) != SQLITE_OK) {
        if (file->pMethods)
            file->pMethods->xClose(file);
        throw Error(path, QStringLiteral("cannot open the file"));
    }
    HeaderBytes bytes;
    sqlite3_int64 size = 0;
    if (file->pMethods->xFileSize(file, &size) == SQLITE_OK)
        bytes.fileSize = size;
    const int n = int(std::min<sqlite3_int64>(100, bytes.fileSize));
    bytes.header.resize(n);
    if (n > 0 && file->pMethods->xRead(file, bytes.header.data(), n, 0) != SQLITE_OK)
        bytes.header.clear();
    file->pMethods->xClose(file);
    return bytes;
}

void checkHeader(const QString& path)
{
    const HeaderBytes bytes = readHeader(path);
    const QByteArray& header = bytes.header;
    const qint64 fileSize = bytes.fileSize;
    if (fileSize == 0)
        throw Error(path, QStringLiteral("empty file, not a KVLens run file"));
    if (!header.startsWith(QByteArray("SQLite format 3\0", 16)))
        throw Error(path, QStringLiteral("not a KVLens run file (not an SQLite database)"));
    if (header.size() < 100)
        throw Error(path, QStringLiteral("damaged file: truncated inside the SQLite header"));
    const auto u32 = [&](int offset) {
        return qFromBigEndian<quint32>(reinterpret_cast<const uchar*>(header.constData()) + offset);
    };
    quint32 pageSize =
        qFromBigEndian<quint16>(reinterpret_cast<const uchar*>(header.constData()) + 16);
    if (pageSize == 1)
        pageSize = 65536;
    const quint32 pageCount = u32(28);
    // The page count in the header is valid when "version-valid-for" matches the
    // change counter. Pages still in the WAL may extend the file legitimately, so the
    // check only applies when no WAL is present.
    const QFileInfo wal(path + QStringLiteral("-wal"));
    const bool walPresent = wal.exists() && wal.size() > 0;
    if (!walPresent && u32(92) == u32(24) && pageCount > 0 &&
        qint64(pageCount) * qint64(pageSize) > fileSize)
        throw Error(path, QStringLiteral("damaged file: truncated (the header says %1 bytes, "
                                         "the file has %2)")
                              .arg(qint64(pageCount) * qint64(pageSize))
                              .arg(fileSize));
}

QStringList tableNames(SqliteDatabase& db)
{
    QStringList names;
    SqliteStatement st = db.prepare(
        QStringLiteral("SELECT name FROM sqlite_schema WHERE type='table' ORDER BY name"));
    while (st.step())
        names << st.columnText(0);
    return names;
}

// Classifies an opened database; returns its schema version.
int identify(SqliteDatabase& db, bool mayBeNew)
{
    const qint64 appId = db.scalarInt(QStringLiteral("PRAGMA application_id"));
    const int version = int(db.scalarInt(QStringLiteral("PRAGMA user_version")));
    const QStringList tables = tableNames(db);
    if (appId == 0 && version == 0 && tables.isEmpty() && mayBeNew)
        return 0;
    if (appId == 0 && tables.isEmpty())
        throw Error(db.path(), QStringLiteral("an empty SQLite database, not a KVLens run file "
                                              "(yet: a run that has just started writes it "
                                              "within a second)"));
    if (appId != RunSchema::kApplicationId) {
        QString what =
            tables.isEmpty()
                ? QStringLiteral("no tables")
                : QStringLiteral("tables: %1").arg(tables.mid(0, 6).join(QLatin1String(", ")));
        throw Error(db.path(),
                    QStringLiteral("an SQLite database of another application, not a KVLens run "
                                   "file (application_id 0x%1, %2)")
                        .arg(quint32(appId), 8, 16, QLatin1Char('0'))
                        .arg(what));
    }
    if (version > RunSchema::kCurrentVersion)
        throw Error(db.path(), QStringLiteral("written by a newer KVLens (schema version %1; this "
                                              "build reads up to %2)")
                                   .arg(version)
                                   .arg(RunSchema::kCurrentVersion));
    // The schema version is stamped in the transaction that creates the tables, so a
    // run file below version 1, or with the tables of a later version than it says, has
    // a damaged or hand-edited header: migrating it would fail half-way in SQL.
    const int layout = RunSchema::tableVersion(db);
    if (version < 1 || layout > version)
        throw Error(db.path(),
                    QStringLiteral("damaged header: PRAGMA user_version is %1, but %2 (KVLens "
                                   "run files have schema versions 1 to %3)")
                        .arg(version)
                        .arg(layout > 0
                                 ? QStringLiteral("the tables are of schema version %1").arg(layout)
                                 : QStringLiteral("the file has no run tables"))
                        .arg(RunSchema::kCurrentVersion));
    return version;
}

// A file written before the read indexes existed gets them the first time it is opened,
// as an older schema is migrated on open; best effort: without them the queries are the
// same, only slower, so a read-only file or directory, or a sweep holding the write lock
// for longer than a moment, leaves the file as it is.
void addReadIndexes(const QString& path)
{
    if (!QFileInfo(path).isWritable() || !QFileInfo(QFileInfo(path).absolutePath()).isWritable())
        return;
    try {
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        sqlite3_busy_timeout(db.handle(), 200);
        RunSchema::ensureReadIndexes(db);
    } catch (const Error&) {
    }
}

void checkTables(SqliteDatabase& db)
{
    const int version = int(db.scalarInt(QStringLiteral("PRAGMA user_version")));
    for (const QString& t : RunSchema::requiredTables(version))
        if (!db.hasTable(t))
            throw Error(db.path(), QStringLiteral("damaged file: table '%1' is missing").arg(t));
}
} // namespace

std::unique_ptr<SqliteDatabase> openRunFile(const QString& path, SqliteDatabase::Mode mode)
{
    const QFileInfo info(path);
    const bool writing = mode == SqliteDatabase::Mode::ReadWriteCreate;
    if (!info.exists()) {
        if (!writing)
            throw Error(path, QStringLiteral("no such file"));
    } else if (info.isDir()) {
        throw Error(path, QStringLiteral("is a directory, not a KVLens run file"));
    } else if (!(writing && info.size() == 0)) {
        checkHeader(path);
    }

    auto db = std::make_unique<SqliteDatabase>(path, mode);
    const int version = identify(*db, writing);
    if (writing) {
        // WAL: readers (the GUI) keep reading while the sweep commits samples.
        // synchronous=NORMAL: a commit survives a process crash; a power cut may lose
        // the last samples, never corrupt the file.
        db->exec(QStringLiteral("PRAGMA journal_mode=WAL"));
        db->exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
        if (version < RunSchema::kCurrentVersion)
            RunSchema::createOrMigrate(*db);
        RunSchema::ensureReadIndexes(*db);
    } else if (version < RunSchema::kCurrentVersion &&
               (QFileInfo(path).isWritable() || version < RunSchema::kOldestReadableAsIs)) {
        // A read-only file at kOldestReadableAsIs or later is read as it is: the later
        // migrations only add tables, which the reader treats as empty when absent.
        db.reset();
        if (!QFileInfo(path).isWritable())
            throw Error(path, QStringLiteral("schema version %1 is older than this build's %2 and "
                                             "the file is read-only, so it cannot be upgraded")
                                  .arg(version)
                                  .arg(RunSchema::kCurrentVersion));
        openRunFile(path, SqliteDatabase::Mode::ReadWriteCreate);
        db = std::make_unique<SqliteDatabase>(path, mode);
        identify(*db, false);
    }
    checkTables(*db);
    if (!writing && !RunSchema::hasReadIndexes(*db))
        addReadIndexes(path);
    return db;
}

} // namespace kvl
