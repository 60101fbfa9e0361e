#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace kvl {

// Reads a whole file; throws kvl::Error naming the file when it cannot.
QByteArray readFileBytes(const QString& path);

// Parses a JSON object from a file; a syntax error names the file and the offset.
QJsonObject readJsonObject(const QString& path);

// Writes bytes atomically (temporary file + rename), so a full disk or a crash never
// leaves a half-written file behind. Throws kvl::Error naming the file.
void writeFileAtomically(const QString& path, const QByteArray& bytes);

// Python's json module writes NaN, Infinity and -Infinity bare; they are not JSON. Returns
// `text` with each one outside strings replaced by null (a missing value, never imputed).
QByteArray nullifyBareNonFinite(const QByteArray& text);

// Compact one-line JSON, as the CLI prints it.
QByteArray toJsonLine(const QJsonObject& object);

// The whole number a JSON value holds: a number without a fraction within ±2^53, where
// every integer is exact; else nothing. Converting a double outside an integer type's
// range to it is undefined behaviour (a file saying 1e300 where a count belongs), so
// JSON numbers become integers through this.
std::optional<qint64> jsonWholeNumber(const QJsonValue& value);

// The type of a JSON value for error messages: "a string", "a number", "null", ...
QString jsonTypeName(const QJsonValue& value);

} // namespace kvl
