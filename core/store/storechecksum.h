#pragma once

#include <QByteArray>
#include <QtGlobal>

struct sqlite3;

namespace kvl {

// Checksums that let a reader tell a run file whose bytes were changed behind the
// writer's back (a flipped bit that SQLite's page checks do not see, a hand edit)
// from a good one. Not a defence against a deliberate forger: 64-bit FNV-1a, chosen
// because it costs about a nanosecond per byte and needs nothing outside this file.
//
// The stored value is a signed 64-bit integer (SQLite's INTEGER), the hash's bits.

// The checksum of a blob's stored (compressed) bytes.
qint64 blobChecksum(const QByteArray& bytes);

// Registers kvl_checksum(v1, v2, ...) on a connection: the checksum of the values as
// SQLite holds them (each value's storage class and bytes), so that the writer can
// stamp a row and a reader verify it with one SQL expression over the same columns,
// whatever column affinity did to the bound values. Throws kvl::Error on failure.
void registerChecksumFunction(sqlite3* db, const QString& path);

} // namespace kvl
