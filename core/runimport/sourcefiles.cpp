#include "runimport/sourcefiles.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <zlib.h>

namespace kvl {

namespace {
bool isGzip(const QByteArray& bytes)
{
    return bytes.size() >= 2 && quint8(bytes[0]) == 0x1f && quint8(bytes[1]) == 0x8b;
}

QByteArray gunzip(const QByteArray& in, const QString& path)
{
    z_stream zs{};
    // 16 + MAX_WBITS: a gzip header and trailer (CRC and size are checked).
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        throw Error(path, QStringLiteral("cannot start inflating"));
    QByteArray out;
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    zs.avail_in = uInt(in.size());
    int rc = Z_OK;
    while (true) {
        zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
        zs.avail_out = uInt(chunk.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(chunk.constData(), chunk.size() - qsizetype(zs.avail_out));
        if (rc == Z_STREAM_END) {
            // Concatenated members (gzip allows them): go on with the next one.
            if (zs.avail_in > 0 && inflateReset(&zs) == Z_OK)
                continue;
            break;
        }
        if (rc != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
            inflateEnd(&zs);
            throw Error(path, QStringLiteral("the gzip data does not inflate (%1 after %2 "
                                             "bytes): truncated or damaged")
                                  .arg(zs.msg ? QString::fromUtf8(zs.msg)
                                              : QStringLiteral("unexpected end"))
                                  .arg(out.size()));
        }
    }
    inflateEnd(&zs);
    return out;
}

} // namespace

QString jsonScalarText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 17);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

QByteArray readSourceFile(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    return isGzip(bytes) ? gunzip(bytes, path) : bytes;
}

QString fileSha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw Error(path, QStringLiteral("cannot read: %1").arg(f.errorString()));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return QString::fromLatin1(hash.result().toHex());
}

void forEachJsonlRecord(const QByteArray& bytes, const QString& path,
                        const std::function<void(const QJsonObject&, int line)>& record)
{
    int line = 0;
    qsizetype start = 0;
    while (start <= bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        ++line;
        const QByteArray text = bytes.mid(start, end - start).trimmed();
        start = end + 1;
        if (text.isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(nullifyBareNonFinite(text), &error);
        if (error.error != QJsonParseError::NoError)
            throw Error(recordPlace(path, line), QStringLiteral("not JSON: %1 at column %2")
                                                     .arg(error.errorString())
                                                     .arg(error.offset + 1));
        if (!doc.isObject())
            throw Error(recordPlace(path, line), QStringLiteral("a record must be a JSON object"));
        record(doc.object(), line);
    }
}

} // namespace kvl
