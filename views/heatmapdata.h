#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// A half-open range of context positions [begin, end).
struct PositionSpan
{
    int begin = 0;
    int end = 0;
    QString label;
};

// Attention of the question queries over context positions, one row per layer
// (or per head of one layer). values and evicted are rows × cols, row-major.
struct Heatmap
{
    QString rowKind = QStringLiteral("layer"); // "layer" or "head": the y axis title
    QStringList rowLabels;                     // optional; default "0", "1", ...
    int rows = 0;
    int cols = 0;           // context positions
    QVector<double> values; // attention mass (any non-negative scale)
    QVector<PositionSpan> evidence;
    QVector<bool> evicted; // empty, or rows × cols: entry evicted by the compressor
    // Optional: each context position's token text (cols entries), for the hover read-out.
    QStringList tokens;
    // Optional: the attention of every (layer, kv-head) behind a per-layer map, layers (=
    // rows) × kvHeads × cols, layer-major, and its evicted flags (empty without a mask),
    // so that a view can draw one head, a layer's heads or every head (HeadSelection).
    int kvHeads = 0;
    QVector<double> perHead;
    QVector<bool> perHeadEvicted;

    bool isEmpty() const { return rows <= 0 || cols <= 0; }
    bool isValid() const
    {
        const qsizetype heads = qsizetype(rows) * kvHeads * cols;
        return rows >= 0 && cols >= 0 && values.size() == qsizetype(rows) * cols &&
               (evicted.isEmpty() || evicted.size() == values.size()) &&
               (perHead.isEmpty() || perHead.size() == heads) &&
               (perHeadEvicted.isEmpty() || perHeadEvicted.size() == heads);
    }
};

} // namespace kvl
