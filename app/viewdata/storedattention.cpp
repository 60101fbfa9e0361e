#include "storedattention.h"

#include "diagnose/attentionpooling.h"
#include "store/runreader.h"

namespace kvl {

std::optional<AttentionSummary> storedAttentionOnPositions(RunReader& reader, qint64 sampleId,
                                                           qint64 configId, int contextLen,
                                                           int* positionsPerColumn)
{
    std::optional<AttentionSummary> stored = reader.attention(sampleId, configId);
    if (positionsPerColumn)
        *positionsPerColumn = 1;
    if (!stored || stored->contextLen == contextLen || contextLen <= 0)
        return stored;
    if (positionsPerColumn && stored->contextLen > 0)
        *positionsPerColumn = (contextLen + stored->contextLen - 1) / stored->contextLen;
    return expandStoredAttention(*stored, contextLen);
}

QString pooledAttentionNote(int positionsPerColumn)
{
    if (positionsPerColumn <= 1)
        return QString();
    return QStringLiteral("; attention stored pooled, %1 positions per column (each position "
                          "shows its column's mean)")
        .arg(positionsPerColumn);
}

} // namespace kvl
