#pragma once

#include "common/csvtable.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <functional>

namespace kvl {

// Reading the files an import is given: whole, inflated when gzipped, hashed, and cut
// into records that know their line, so every error names the file and the line.

// The file's bytes, inflated when they start with gzip's magic (a .jsonl.gz). A gzip
// that does not inflate (truncated, corrupt) is a kvl::Error naming the file.
QByteArray readSourceFile(const QString& path);
// The SHA-256 (lower-case hex) of the file as it lies on disk (gzipped bytes for a .gz).
QString fileSha256(const QString& path);

// Calls `record(object, line)` for every non-blank line of JSONL `bytes`; a line that
// is not a JSON object is an error naming `path` and the line. Python's bare NaN,
// Infinity and -Infinity are read as null.
void forEachJsonlRecord(const QByteArray& bytes, const QString& path,
                        const std::function<void(const QJsonObject&, int line)>& record);

// A JSON scalar as text: a string as is, a number in its shortest exact form, a bool as
// true/false; null and containers are empty. (A CSV cell and a JSONL value then read alike.)
QString jsonScalarText(const QJsonValue& value);

} // namespace kvl
