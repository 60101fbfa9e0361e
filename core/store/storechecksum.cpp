#include "store/storechecksum.h"

#include "common/error.h"

#include <QString>
#include <cstring>
#include <sqlite3.h>

namespace kvl {

namespace {
constexpr quint64 kFnvOffset = 0xcbf29ce484222325ULL;
constexpr quint64 kFnvPrime = 0x100000001b3ULL;

quint64 fnv1a(quint64 h, const void* data, std::size_t size)
{
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= kFnvPrime;
    }
    return h;
}

// Little-endian bytes of an integer, so the checksum is the same on every machine.
quint64 fnv1aInt(quint64 h, quint64 v)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<unsigned char>(v >> (8 * i));
    return fnv1a(h, bytes, 8);
}

void checksumFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv)
{
    quint64 h = kFnvOffset;
    for (int i = 0; i < argc; ++i) {
        const int type = sqlite3_value_type(argv[i]);
        // The storage class enters the hash: 1 (integer) and 1.0 (real) and '1' differ.
        h = fnv1aInt(h, quint64(type));
        switch (type) {
        case SQLITE_INTEGER:
            h = fnv1aInt(h, quint64(sqlite3_value_int64(argv[i])));
            break;
        case SQLITE_FLOAT: {
            const double d = sqlite3_value_double(argv[i]);
            quint64 bits;
            std::memcpy(&bits, &d, 8);
            h = fnv1aInt(h, bits);
            break;
        }
        case SQLITE_TEXT: {
            const auto* text = sqlite3_value_text(argv[i]);
            const int n = sqlite3_value_bytes(argv[i]);
            h = fnv1aInt(h, quint64(n));
            h = fnv1a(h, text, std::size_t(n));
            break;
        }
        case SQLITE_BLOB: {
            const void* blob = sqlite3_value_blob(argv[i]);
            const int n = sqlite3_value_bytes(argv[i]);
            h = fnv1aInt(h, quint64(n));
            if (n > 0)
                h = fnv1a(h, blob, std::size_t(n));
            break;
        }
        default: // NULL: the type alone
            break;
        }
    }
    sqlite3_result_int64(ctx, sqlite3_int64(h));
}
} // namespace

qint64 blobChecksum(const QByteArray& bytes)
{
    return qint64(fnv1a(kFnvOffset, bytes.constData(), std::size_t(bytes.size())));
}

void registerChecksumFunction(sqlite3* db, const QString& path)
{
    const int rc =
        sqlite3_create_function_v2(db, "kvl_checksum", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                   nullptr, &checksumFunction, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        throw Error(path, QStringLiteral("cannot register the checksum function (%1)")
                              .arg(QString::fromUtf8(sqlite3_errstr(rc))));
}

} // namespace kvl
