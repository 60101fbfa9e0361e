#pragma once

#include "store/sqlitedatabase.h"

#include <QString>
#include <memory>

namespace kvl {

// Opens a run file (.kvl) and makes sure it is one, before anyone queries it:
// - a missing file (read-only), an empty file, a file that is not SQLite, a
//   truncated file, an SQLite database of another application, a file written by a
//   newer KVLens: kvl::Error naming the file and the problem;
// - an older schema is migrated forward (read-only opens upgrade through a short
//   read-write connection first; a file that cannot be written says so);
// - read-write opens switch to WAL so readers work while the writer runs.
std::unique_ptr<SqliteDatabase> openRunFile(const QString& path, SqliteDatabase::Mode mode);

} // namespace kvl
