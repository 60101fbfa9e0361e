#pragma once

#include "cache/compressioninput.h"
#include "cache/compressionresult.h"

#include <QString>
#include <cstdint>

namespace kvl {

// A compressor: after the one prefill, picks which (layer, kv-head, position) entries
// survive at compression ratio r (fraction removed, the kvpress convention) and/or
// rewrites their contents. Presses never re-run the model.
class Press
{
  public:
    virtual ~Press() = default;
    // The canonical spec this press was built from, e.g. "adakv(snapkv):alpha_safeguard=0.2".
    virtual QString spec() const = 0;
    // Throws kvl::Error for r outside [0, 1) or input the press cannot use.
    virtual CompressionResult compress(const CompressionInput& input, double ratio) const = 0;
    // Last context queries this press needs captured by prefill (PrefillOptions::window)
    // for a context of `length` tokens; 0 when it needs none.
    virtual int64_t queryWindow(int64_t length) const = 0;
    // Whether this press reads LayerCache::receivedAttention, which prefill accumulates
    // only when asked (PrefillOptions::receivedAttention).
    virtual bool needsReceivedAttention() const = 0;
    // Whether this press reads LayerCache::attentionInputs (BlockPress projecting each
    // block's window queries), kept by prefill only when asked.
    virtual bool needsAttentionInputs() const { return false; }
};

} // namespace kvl
