#pragma once

#include "cache/compressioninput.h"
#include "model/contextcache.h"

#include <cstdint>
#include <vector>

namespace kvl {

class Press;
class Transformer;

// What one prefill of a `length`-token context must capture so that every press in
// `presses` can score it: the widest query window any of them reads (at least 1, at
// most the context), the received attention when any of them needs it (H2O), and the
// attention inputs when any of them projects its own queries (BlockPress).
PrefillOptions prefillOptionsFor(const std::vector<const Press*>& presses, int64_t length);

// What a press reads of one prefill `cache` of `model`: the cache, the config, the
// weights, the rotary embedding and the model itself, plus the context's token ids and
// KVzip's repeat prompts when given (spans and score memo left to the caller). The
// pointers must outlive the input.
CompressionInput compressionInputFor(const Transformer& model, const ContextCache& cache,
                                     const std::vector<int>* contextIds = nullptr,
                                     const RepeatPrompts* repeatPrompts = nullptr);

} // namespace kvl
