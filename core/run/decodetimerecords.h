#pragma once

#include <QJsonObject>

namespace at {
class Tensor;
}

namespace kvl {

struct CompressedDecoding;
class DecodingPress;
class OffloadIndex;
struct OffloadedDecoding;
struct PreparedSample;
class Tokenizer;

// What a row records of a decode-time press (extra_json.decoding) and of an offloading
// press (extra_json.retrieval), core/tasks/SCHEMA.md; the sweep's rows and `kvlens-cli
// compress --json` print the same objects.

// Every compression (when, cache sizes, the evidence kept after it as ERR over the
// context part of its mask, CaM's merges) and the totals. `prefillKept`: the press's
// prefill mask; `answerMs`: the decode's wall time.
QJsonObject decodingJson(const CompressedDecoding& d, const DecodingPress& press,
                         const PreparedSample& sample, const at::Tensor& prefillKept,
                         double answerMs);

// The index's settings and cost, the share of the context attended, evidence recall per
// step and, for Text2JSON answers, each written field's recall at the step that wrote it.
QJsonObject retrievalJson(const OffloadedDecoding& d, const OffloadIndex& index,
                          const PreparedSample& sample, const Tokenizer& tokenizer);

} // namespace kvl
