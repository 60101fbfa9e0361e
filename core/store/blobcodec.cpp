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

QByteArray encodeRetrieval(const RetrievalMap& map)
{
    if (!map.isConsistent())
        throw Error(QStringLiteral("retrieval map of %1 steps x %2 positions holds %3 shares")
                        .arg(map.steps)
                        .arg(map.contextLength)
                        .arg(map.shares.size()));
    return qCompress(reinterpret_cast<const uchar*>(map.shares.data()),
                     qsizetype(map.shares.size()), 6);
}

RetrievalMap decodeRetrieval(const QByteArray& blob, std::int64_t steps, std::int64_t contextLength)
{
    if (steps < 0 || contextLength < 0)
        throw Error(QStringLiteral("damaged retrieval blob (dimensions %1 x %2)")
                        .arg(steps)
                        .arg(contextLength));
    RetrievalMap map;
    map.steps = steps;
    map.contextLength = contextLength;
    const QByteArray raw = uncompressChecked(blob, qsizetype(steps * contextLength), "retrieval");
    map.shares.assign(reinterpret_cast<const std::uint8_t*>(raw.constData()),
                      reinterpret_cast<const std::uint8_t*>(raw.constData()) + raw.size());
    return map;
}

} // namespace kvl
