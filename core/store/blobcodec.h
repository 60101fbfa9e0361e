#pragma once

#include "diagnose/attentionsummary.h"
#include "diagnose/keptmask.h"
#include "diagnose/retrievalmap.h"

#include <QByteArray>

namespace kvl {

// Blob formats of the mask and attention tables. Both are zlib-compressed (qCompress);
// masks are bit-packed first, attention is stored as IEEE half floats (enough for a
// heatmap and for EAR to 3 digits, half the bytes). Decoding checks the size against
// the dimensions and throws kvl::Error ("damaged blob") otherwise.
QByteArray encodeMask(const KeptMask& mask);
KeptMask decodeMask(const QByteArray& blob, int layers, int kvHeads, int contextLen);

QByteArray encodeAttention(const AttentionSummary& attention);
AttentionSummary decodeAttention(const QByteArray& blob, int layers, int kvHeads, int contextLen);

// Retrieval maps (offloaded decoding) are their share bytes, step-major, compressed:
// neighbouring positions share chunks, so rows compress well.
QByteArray encodeRetrieval(const RetrievalMap& map);
RetrievalMap decodeRetrieval(const QByteArray& blob, std::int64_t steps,
                             std::int64_t contextLength);

} // namespace kvl
