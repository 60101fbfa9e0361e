#pragma once

#include "model/contextcache.h"

#include <cstdint>
#include <vector>

namespace kvl {

class Press;

// What one prefill of a `length`-token context must capture so that every press in
// `presses` can score it: the widest query window any of them reads (at least 1, at
// most the context), the received attention when any of them needs it (H2O), and the
// attention inputs when any of them projects its own queries (BlockPress).
PrefillOptions prefillOptionsFor(const std::vector<const Press*>& presses, int64_t length);

} // namespace kvl
