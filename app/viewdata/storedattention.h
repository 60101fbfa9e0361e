#pragma once

#include "diagnose/attentionsummary.h"

#include <QString>

#include <optional>

namespace kvl {

class RunReader;

// A row's stored question attention on the sample's token positions. The run may keep
// it pooled to fewer columns than the context has positions (store.attention_positions,
// diagnose/attentionpooling.h); the views index attention by token position, so a pooled
// blob is spread back over the positions its columns cover. `positionsPerColumn`, when
// given, receives the pooling width (1 when stored per position).
std::optional<AttentionSummary> storedAttentionOnPositions(RunReader& reader, qint64 sampleId,
                                                           qint64 configId, int contextLen,
                                                           int* positionsPerColumn = nullptr);

// "; attention stored pooled, N positions per column" for a figure's provenance note, or
// nothing when it was stored per position.
QString pooledAttentionNote(int positionsPerColumn);

} // namespace kvl
