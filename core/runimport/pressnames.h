#pragma once

#include <QString>

namespace kvl {

// KVLens's press name for a press as another tool names it: kvpress's class names
// (SnapKVPress, KnormPress, ChunkKVPress_Knorm as KVDiagnosis writes it, QuantizedCache)
// and its evaluation's registry keys (snapkv, streaming_llm, observed_attention, ...).
// Empty when KVLens has no such press: the importer then keeps the source's name.
QString kvlensPressName(const QString& sourceName);

} // namespace kvl
