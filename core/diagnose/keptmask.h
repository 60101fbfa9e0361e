#pragma once

#include <QByteArray>
#include <cstdint>
#include <vector>

namespace kvl {

// Which KV entries survive compression: one flag per (layer, kv-head, position of
// the context), layer-major. A byte per entry in memory (cheap indexing for the
// metrics); bit-packed when stored.
struct KeptMask
{
    int layers = 0;
    int kvHeads = 0;
    int contextLen = 0;
    std::vector<std::uint8_t> kept; // 0 or 1, index = (layer * kvHeads + head) * contextLen + t

    KeptMask() = default;
    KeptMask(int layers, int kvHeads, int contextLen, bool value = true);

    std::size_t index(int layer, int head, int t) const
    {
        return (std::size_t(layer) * std::size_t(kvHeads) + std::size_t(head)) *
                   std::size_t(contextLen) +
               std::size_t(t);
    }
    bool at(int layer, int head, int t) const { return kept[index(layer, head, t)] != 0; }
    void set(int layer, int head, int t, bool value)
    {
        kept[index(layer, head, t)] = value ? 1 : 0;
    }
    int slotCount() const { return layers * kvHeads; }
    std::int64_t keptCount() const;
    bool operator==(const KeptMask&) const = default;

    // Bit i of the packed bytes is entry i (least significant bit first).
    QByteArray packBits() const;
    // Throws kvl::Error when the byte count does not fit the dimensions.
    static KeptMask unpackBits(const QByteArray& bits, int layers, int kvHeads, int contextLen);
};

} // namespace kvl
