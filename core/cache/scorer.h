#pragma once

#include "cache/compressioninput.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>

namespace kvl {

// The importance of every context entry: float [layers, kv_heads, T], higher = keep.
// A score of +inf marks a protected entry that every selector keeps whatever the
// budget (whitelisting). A scorer may depend on the ratio (CriticalKV's first stage),
// so it is passed along.
class Scorer
{
  public:
    virtual ~Scorer() = default;
    virtual QString spec() const = 0;
    virtual at::Tensor score(const CompressionInput& input, double ratio) const = 0;
    virtual int64_t queryWindow(int64_t length) const { return 0; }
    // See Press::needsReceivedAttention.
    virtual bool needsReceivedAttention() const { return false; }
    // See Press::needsAttentionInputs (KVzap reads the attention inputs).
    virtual bool needsAttentionInputs() const { return false; }
    // True when an entry's score depends on that entry alone, not on which other entries
    // are scored with it (KNorm, QFilter, H2O): re-scoring a subset gives the same values.
    virtual bool entryWise() const { return false; }
    // True when the scores depend on the ratio (CriticalKV's first stage). Otherwise a
    // sweep scores each sample once per scorer and reuses the scores for every ratio
    // (CompressionInput::scoreMemo).
    virtual bool usesRatio() const { return false; }
};

} // namespace kvl
