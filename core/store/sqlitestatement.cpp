#include "store/sqlitestatement.h"

#include "store/sqlitedatabase.h"

#include <sqlite3.h>
#include <utility>

namespace kvl {

SqliteStatement::SqliteStatement(SqliteDatabase& db, const QString& sql) : m_db(&db)
{
    const QByteArray utf8 = sql.toUtf8();
    const int rc =
        sqlite3_prepare_v2(db.handle(), utf8.constData(), int(utf8.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        db.fail(rc, QString());
}

void SqliteStatement::check(int rc)
{
    if (rc != SQLITE_OK)
        m_db->fail(rc, QStringLiteral("binding a value"));
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr))
{}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

void SqliteStatement::bind(int index, qint64 value)
{
    check(sqlite3_bind_int64(m_stmt, index, value));
}

void SqliteStatement::bind(int index, double value)
{
    check(sqlite3_bind_double(m_stmt, index, value));
}

void SqliteStatement::bind(int index, const QString& value)
{
    if (value.isNull()) {
        bindNull(index);
        return;
    }
    const QByteArray utf8 = value.toUtf8();
    check(sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT));
}

void SqliteStatement::bind(int index, const QByteArray& blob)
{
    if (blob.isNull()) {
        bindNull(index);
        return;
    }
    check(sqlite3_bind_blob64(m_stmt, index, blob.constData(), sqlite3_uint64(blob.size()),
                              SQLITE_TRANSIENT));
}

void SqliteStatement::bind(int index, std::optional<double> value)
{
    if (value)
        bind(index, *value);
    else
        bindNull(index);
}

void SqliteStatement::bind(int index, std::optional<qint64> value)
{
    if (value)
        bind(index, *value);
    else
        bindNull(index);
}

void SqliteStatement::bindNull(int index)
{
    check(sqlite3_bind_null(m_stmt, index));
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3_reset(m_stmt);
    m_db->fail(rc, QString());
}

void SqliteStatement::run()
{
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 SqliteStatement::columnInt(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::columnDouble(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::optional<double> SqliteStatement::columnOptDouble(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<double>(columnDouble(column));
}

std::optional<qint64> SqliteStatement::columnOptInt(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<qint64>(columnInt(column));
}

QString SqliteStatement::columnText(int column) const
{
    if (isNull(column))
        return {};
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return QString::fromUtf8(text, sqlite3_column_bytes(m_stmt, column));
}

QByteArray SqliteStatement::columnUtf8(int column) const
{
    if (isNull(column))
        return {};
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return QByteArray(text, sqlite3_column_bytes(m_stmt, column));
}

QByteArray SqliteStatement::columnBlob(int column) const
{
    if (isNull(column))
        return {};
    const auto* data = static_cast<const char*>(sqlite3_column_blob(m_stmt, column));
    return QByteArray(data, sqlite3_column_bytes(m_stmt, column));
}

int SqliteStatement::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}

QString SqliteStatement::columnName(int column) const
{
    return QString::fromUtf8(sqlite3_column_name(m_stmt, column));
}

} // namespace kvl
