#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

struct sqlite3_stmt;

namespace kvl {

class SqliteDatabase;

// A prepared statement (move-only). bind() indices start at 1, column() at 0, as in
// SQLite. Errors become kvl::Error naming the database file.
class SqliteStatement
{
  public:
    SqliteStatement(SqliteDatabase& db, const QString& sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    void bind(int index, qint64 value);
    void bind(int index, int value) { bind(index, qint64(value)); }
    void bind(int index, double value);
    void bind(int index, const QString& value);
    void bind(int index, const QByteArray& blob);
    void bind(int index, std::optional<double> value);
    void bind(int index, std::optional<qint64> value);
    void bindNull(int index);

    // Steps once: true while a row is available, false when done.
    bool step();
    // Steps to completion and resets, for INSERT/UPDATE.
    void run();
    void reset();

    bool isNull(int column) const;
    qint64 columnInt(int column) const;
    double columnDouble(int column) const;
    std::optional<double> columnOptDouble(int column) const;
    std::optional<qint64> columnOptInt(int column) const;
    QString columnText(int column) const;
    QByteArray columnBlob(int column) const;
    // Text as UTF-8 bytes, without the conversion to QString (hot loops).
    QByteArray columnUtf8(int column) const;
    int columnCount() const;
    QString columnName(int column) const;

  private:
    void check(int rc);

    SqliteDatabase* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace kvl
