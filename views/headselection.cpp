#include "headselection.h"

#include <QCoreApplication>

#include <algorithm>

namespace kvl {

QString HeadSelection::describe() const
{
    switch (mode) {
    case Mode::LayersMean:
        return QCoreApplication::translate("kvl::HeadSelection", "all layers, mean over kv-heads");
    case Mode::LayerHeads:
        return QCoreApplication::translate("kvl::HeadSelection", "layer %1, its kv-heads")
            .arg(layer);
    case Mode::OneHead:
        return QCoreApplication::translate("kvl::HeadSelection", "layer %1, kv-head %2")
            .arg(layer)
            .arg(head);
    case Mode::EveryHead:
        return QCoreApplication::translate("kvl::HeadSelection", "every layer × kv-head");
    }
    return {};
}

Heatmap selectHeads(const Heatmap& map, const HeadSelection& selection)
{
    const int layers = map.rows;
    const int heads = map.kvHeads;
    const int cols = map.cols;
    if (selection.mode == HeadSelection::Mode::LayersMean || heads <= 0 || map.perHead.isEmpty() ||
        !map.isValid())
        return map;
    const int layer = std::clamp(selection.layer, 0, layers - 1);
    const int head = std::clamp(selection.head, 0, heads - 1);
    const bool withMask = !map.perHeadEvicted.isEmpty();
    Heatmap out;
    out.cols = cols;
    out.evidence = map.evidence;
    out.tokens = map.tokens;
    out.rowKind = QStringLiteral("head");
    // Rows are whole (layer, head) slices of perHead: copy them in order.
    QVector<int> slices; // layer * heads + head
    switch (selection.mode) {
    case HeadSelection::Mode::LayerHeads:
        for (int h = 0; h < heads; ++h) {
            slices << layer * heads + h;
            out.rowLabels << QString::number(h);
        }
        break;
    case HeadSelection::Mode::OneHead:
        slices << layer * heads + head;
        out.rowLabels << QStringLiteral("L%1·h%2").arg(layer).arg(head);
        break;
    default: // EveryHead
        out.rowKind = QStringLiteral("layer·head");
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < heads; ++h) {
                slices << l * heads + h;
                out.rowLabels << QStringLiteral("L%1·h%2").arg(l).arg(h);
            }
        break;
    }
    out.rows = int(slices.size());
    out.values.reserve(qsizetype(out.rows) * cols);
    if (withMask)
        out.evicted.reserve(qsizetype(out.rows) * cols);
    for (int s : slices) {
        const qsizetype from = qsizetype(s) * cols;
        out.values.append(map.perHead.mid(from, cols));
        if (withMask)
            out.evicted.append(map.perHeadEvicted.mid(from, cols));
    }
    return out;
}

} // namespace kvl
