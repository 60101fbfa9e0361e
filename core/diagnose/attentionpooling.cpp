#include "diagnose/attentionpooling.h"

#include "common/error.h"

#include <algorithm>

namespace kvl {

int attentionColumnWidth(int contextLen, int maxColumns)
{
    if (maxColumns <= 0 || contextLen <= maxColumns)
        return 1;
    return (contextLen + maxColumns - 1) / maxColumns;
}

int pooledColumnCount(int contextLen, int width)
{
    return width <= 1 ? contextLen : (contextLen + width - 1) / width;
}

AttentionSummary poolAttention(const AttentionSummary& attention, int width)
{
    if (width <= 1)
        return attention;
    const int columns = pooledColumnCount(attention.contextLen, width);
    AttentionSummary pooled(attention.layers, attention.kvHeads, columns);
    for (int l = 0; l < attention.layers; ++l)
        for (int h = 0; h < attention.kvHeads; ++h)
            for (int t = 0; t < attention.contextLen; ++t)
                pooled.at(l, h, t / width) += attention.at(l, h, t);
    return pooled;
}

AttentionSummary expandStoredAttention(const AttentionSummary& stored, int contextLen)
{
    if (stored.contextLen == contextLen)
        return stored;
    const int width =
        stored.contextLen > 0 ? (contextLen + stored.contextLen - 1) / stored.contextLen : 0;
    if (stored.contextLen <= 0 || stored.contextLen > contextLen ||
        pooledColumnCount(contextLen, width) != stored.contextLen)
        throw Error(QStringLiteral("stored attention has %1 columns, which is no pooling of the "
                                   "sample's %2 context positions")
                        .arg(stored.contextLen)
                        .arg(contextLen));
    AttentionSummary out(stored.layers, stored.kvHeads, contextLen);
    for (int l = 0; l < stored.layers; ++l)
        for (int h = 0; h < stored.kvHeads; ++h)
            for (int c = 0; c < stored.contextLen; ++c) {
                const int begin = c * width, end = std::min(contextLen, begin + width);
                const float share = stored.at(l, h, c) / float(end - begin);
                for (int t = begin; t < end; ++t)
                    out.at(l, h, t) = share;
            }
    return out;
}

} // namespace kvl
