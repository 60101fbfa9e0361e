#include "store/blobcodec.h"

#include "common/error.h"

#include <QFloat16>
#include <QtEndian>

namespace kvl {

namespace {
QByteArray uncompressChecked(const QByteArray& blob, qsizetype expected, const char* what)
{
    const QByteArray raw = qUncompress(blob);
    if (raw.size() != expected)
        throw Error(QStringLiteral("damaged %1 blob (%2 bytes after decompression, expected %3)")
                        .arg(QLatin1String(what))
                        .arg(raw.size())
                        .arg(expected));
    return raw;
}
} // namespace

QByteArray encodeMask(const KeptMask& mask)
{
    return qCompress(mask.packBits(), 6);
}

KeptMask decodeMask(const QByteArray& blob, int layers, int kvHeads, int contextLen)
{
    const qsizetype entries = qsizetype(layers) * kvHeads * contextLen;
    return KeptMask::unpackBits(uncompressChecked(blob, (entries + 7) / 8, "mask"), layers, kvHeads,
                                contextLen);
}

QByteArray encodeAttention(const AttentionSummary& attention)
{
    QByteArray raw(qsizetype(attention.weights.size() * 2), Qt::Uninitialized);
    auto* out = reinterpret_cast<uchar*>(raw.data());
    for (std::size_t i = 0; i < attention.weights.size(); ++i) {
        quint16 bits;
        const qfloat16 h(attention.weights[i]);
        std::memcpy(&bits, &h, 2);
        qToLittleEndian<quint16>(bits, out + 2 * i);
    }
    return qCompress(raw, 6);
}

AttentionSummary decodeAttention(const QByteArray& blob, int layers, int kvHeads, int contextLen)
{
    AttentionSummary a(layers, kvHeads, contextLen);
    const QByteArray raw = uncompressChecked(blob, qsizetype(a.weights.size() * 2), "attention");
    const auto* in = reinterpret_cast<const uchar*>(raw.constData());
    for (std::size_t i = 0; i < a.weights.size(); ++i) {
        const quint16 bits = qFromLittleEndian<quint16>(in + 2 * i);
        qfloat16 h;
        std::memcpy(&h, &bits, 2);
        a.weights[i] = float(h);
    }
    return a;
}

} // namespace kvl
