#pragma once

#include "views/evictionmapdata.h"
#include "views/heatmapdata.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

namespace kvl {

struct AttentionSummary;
struct KeptMask;

// Turns stored masks and attention summaries into view values. Spans are the
// store's sample spans: [{"kind", "start", "end", "order", "role", "label"}, ...]
// over context token positions.

// Fraction of a layer's kv-heads keeping each position: layers × contextLen, layer-major.
QVector<double> layerKeepRates(const KeptMask& mask);
// Fraction of all (layer, kv-head) slots keeping each position: how many heads kept a token.
QVector<double> tokenKeepRates(const KeptMask& mask);

// Question attention per layer (mean over kv-heads) over the context, with every
// kv-head's row as well (Heatmap::perHead) for the head selector. With a mask,
// an entry is marked evicted when no kv-head of the layer keeps the position: it
// then contributes no attention at all.
Heatmap attentionHeatmap(const AttentionSummary& attention, const KeptMask* mask,
                         const QJsonArray& spans);

QVector<PositionSpan> evidenceSpans(const QJsonArray& spans);
// Each context position's token text, from a sample's meta "context" and
// "token_offsets" (see SampleDetail); empty when the run stored no text or the offsets
// do not cover contextLen positions.
QStringList contextTokens(const QJsonObject& meta, int contextLen);
// Every span with a kind other than evidence/distractor, labelled by role (or kind).
QVector<RoleSpan> roleSpans(const QJsonArray& spans);

} // namespace kvl
