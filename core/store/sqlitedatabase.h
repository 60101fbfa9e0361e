#pragma once

#include <QString>

struct sqlite3;

namespace kvl {

class SqliteStatement;

// An open SQLite connection that turns every SQLite failure into a kvl::Error naming
// the file and, for the codes that mean it, the problem in the user's words
// ("not an SQLite database", "damaged file").
class SqliteDatabase
{
  public:
    enum class Mode
    {
        ReadOnly,
        ReadWriteCreate
    };

    SqliteDatabase(const QString& path, Mode mode);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    const QString& path() const { return m_path; }
    Mode mode() const { return m_mode; }
    sqlite3* handle() const { return m_db; }

    // Runs one or more statements without results.
    void exec(const QString& sql);
    SqliteStatement prepare(const QString& sql);
    // First column of the first row as an integer (0 when there is no row).
    qint64 scalarInt(const QString& sql);
    bool hasTable(const QString& name);
    // Rolls back the open transaction, if any; never throws (used on error paths).
    void rollbackQuietly() noexcept;

    // Throws the kvl::Error for an SQLite result code (context: what was being done).
    [[noreturn]] void fail(int code, const QString& context) const;

  private:
    QString m_path;
    Mode m_mode;
    sqlite3* m_db = nullptr;
};

// Message for an SQLite result code, in the words a user needs.
QString describeSqliteError(int code, const QString& detail);

} // namespace kvl
