#pragma once

#include <QLatin1String>

namespace kvl {

// Keys of the JSON the sweep writes beside the rows (a sample's meta, a configuration's
// params) that the store's torch-free readers (report, views) act on.

// SampleInfo::meta: why the sweep skipped the sample whole (too long for the model, say):
// it has no row under any configuration.
inline constexpr QLatin1String kSkippedSample("skipped");

// SampleInfo::meta: {config key: why}, the configurations whose compression or decoding
// failed on the sample. They have no row there; the sample's other rows (FullCache
// included) are kept.
inline constexpr QLatin1String kFailedConfigs("failed_configs");

// SampleInfo::meta: {config key: why}, the cells the source planned but could not run (an
// imported release's ThinK at 75 %: the method does not define that ratio). They have no
// row and are no failure: the missing table names them apart.
inline constexpr QLatin1String kUnsupportedConfigs("unsupported_configs");

// SampleInfo::meta: {field: hash} of what the sweep read for the sample (its context,
// question, answer, spans, system turn) and ran it with (model identity, tokenizer, chat
// template), store/sampleinputs.h. A resume or a merge refuses a sample whose hashes
// differ. Runs written before it was recorded lack it, and are not checked.
inline constexpr QLatin1String kSampleInputs("inputs_sha256");

// ConfigRecord::params: true when the configuration's press compresses during decoding
// (its rows carry extra_json.decoding). Runs written before it was recorded lack it.
inline constexpr QLatin1String kDecodeTimeParam("decode_time");

} // namespace kvl
