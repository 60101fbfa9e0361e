#pragma once

#include "heatmapdata.h"

#include <QMetaType>
#include <QString>

namespace kvl {

// Which rows a question-attention heatmap draws of per-(layer, kv-head) attention.
struct HeadSelection
{
    enum class Mode
    {
        LayersMean, // one row per layer: the mean over its kv-heads (the default)
        LayerHeads, // one row per kv-head of `layer`
        OneHead,    // the single row (`layer`, `head`)
        EveryHead   // one row per (layer, kv-head): every head at a glance
    };
    Mode mode = Mode::LayersMean;
    int layer = 0;
    int head = 0;

    bool operator==(const HeadSelection&) const = default;
    // "all layers, mean over kv-heads", "layer 3, its kv-heads", "layer 3, kv-head 1", ...
    QString describe() const;
};

// The rows of `map` (built per layer, with perHead) that `selection` names; the map
// itself when it carries no per-head attention or the selection is LayersMean. A layer
// or head out of range is clamped.
Heatmap selectHeads(const Heatmap& map, const HeadSelection& selection);

} // namespace kvl

Q_DECLARE_METATYPE(kvl::HeadSelection)
