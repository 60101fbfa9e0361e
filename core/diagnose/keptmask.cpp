#include "diagnose/keptmask.h"

#include "common/error.h"

#include <numeric>

namespace kvl {

KeptMask::KeptMask(int layers_, int kvHeads_, int contextLen_, bool value)
    : layers(layers_), kvHeads(kvHeads_), contextLen(contextLen_),
      kept(std::size_t(layers_) * std::size_t(kvHeads_) * std::size_t(contextLen_), value ? 1 : 0)
{}

std::int64_t KeptMask::keptCount() const
{
    return std::accumulate(kept.begin(), kept.end(), std::int64_t(0));
}

QByteArray KeptMask::packBits() const
{
    QByteArray bits(qsizetype((kept.size() + 7) / 8), '\0');
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (kept[i])
            bits[qsizetype(i / 8)] = char(std::uint8_t(bits[qsizetype(i / 8)]) | (1u << (i % 8)));
    return bits;
}

KeptMask KeptMask::unpackBits(const QByteArray& bits, int layers, int kvHeads, int contextLen)
{
    if (layers < 0 || kvHeads < 0 || contextLen < 0)
        throw Error(QStringLiteral("kept mask has negative dimensions"));
    KeptMask mask(layers, kvHeads, contextLen, false);
    if (std::size_t(bits.size()) != (mask.kept.size() + 7) / 8)
        throw Error(QStringLiteral("kept mask of %1x%2x%3 needs %4 bytes, got %5")
                        .arg(layers)
                        .arg(kvHeads)
                        .arg(contextLen)
                        .arg((mask.kept.size() + 7) / 8)
                        .arg(bits.size()));
    for (std::size_t i = 0; i < mask.kept.size(); ++i)
        mask.kept[i] = (std::uint8_t(bits[qsizetype(i / 8)]) >> (i % 8)) & 1u;
    return mask;
}

} // namespace kvl
