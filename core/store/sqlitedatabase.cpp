#include "store/sqlitedatabase.h"

#include "common/error.h"
#include "store/sqlitestatement.h"
#include "store/storechecksum.h"

#include <sqlite3.h>

namespace kvl {

QString describeSqliteError(int code, const QString& detail)
{
    switch (code & 0xff) {
    case SQLITE_NOTADB:
        return QStringLiteral("not a KVLens run file (not an SQLite database)");
    case SQLITE_CORRUPT:
        return QStringLiteral("damaged file (%1)").arg(detail);
    case SQLITE_CANTOPEN:
        return QStringLiteral("cannot open the file (%1)").arg(detail);
    case SQLITE_READONLY:
        return QStringLiteral("the file is read-only (%1)").arg(detail);
    case SQLITE_FULL:
        return QStringLiteral("disk full (%1)").arg(detail);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return QStringLiteral("the file is locked by another process (%1)").arg(detail);
    default:
        return detail;
    }
}

SqliteDatabase::SqliteDatabase(const QString& path, Mode mode) : m_path(path), m_mode(mode)
{
    const int flags = (mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
                                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                      SQLITE_OPEN_NOMUTEX;
    const int rc = sqlite3_open_v2(path.toUtf8().constData(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const QString detail = m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QString();
        sqlite3_close(m_db);
        m_db = nullptr;
        throw Error(path, describeSqliteError(rc, detail));
    }
    sqlite3_extended_result_codes(m_db, 1);
    try {
        registerChecksumFunction(m_db, path);
    } catch (...) {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
    // A writer commits in a few milliseconds; readers and a second writer wait.
    sqlite3_busy_timeout(m_db, 10000);
}

SqliteDatabase::~SqliteDatabase()
{
    // Statements are finalised by their owners first; close_v2 tolerates stragglers.
    sqlite3_close_v2(m_db);
}

void SqliteDatabase::fail(int code, const QString& context) const
{
    const QString detail = QString::fromUtf8(sqlite3_errmsg(m_db));
    throw Error(m_path, context.isEmpty() ? describeSqliteError(code, detail)
                                          : QStringLiteral("%1: %2").arg(
                                                context, describeSqliteError(code, detail)));
}

void SqliteDatabase::exec(const QString& sql)
{
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &message);
    sqlite3_free(message);
    if (rc != SQLITE_OK)
        fail(rc, QString());
}

SqliteStatement SqliteDatabase::prepare(const QString& sql)
{
    return SqliteStatement(*this, sql);
}

qint64 SqliteDatabase::scalarInt(const QString& sql)
{
    SqliteStatement st = prepare(sql);
    return st.step() ? st.columnInt(0) : 0;
}

void SqliteDatabase::rollbackQuietly() noexcept
{
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool SqliteDatabase::hasTable(const QString& name)
{
    SqliteStatement st =
        prepare(QStringLiteral("SELECT 1 FROM sqlite_schema WHERE type='table' AND name=?"));
    st.bind(1, name);
    return st.step();
}

} // namespace kvl
