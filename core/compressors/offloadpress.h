#pragma once

#include "cache/press.h"
#include "compressors/offloadindex.h"
#include "compressors/pressentry.h"

#include <QString>
#include <memory>

namespace kvl {

// An offloading press (issue 19): keeps every context entry (offloaded) and, at decode
// time, attends per layer and kv-head only to what its OffloadIndex retrieves. compress()
// reports the whole context kept, the context as attention reads it (low-rank or quantized
// keys) as `rewritten`, and the budget and bytes in its details; index() is what the
// offloaded decoding loop asks at every forward.
class OffloadPress : public Press
{
  public:
    // settings.rank < 0: ShadowKV's rank 160, or its share of the SVD width for models
    // narrower than Llama-3-8B's 8 x 128 (see resolvedSettings).
    OffloadPress(const OffloadSettings& settings, QString spec);

    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t) const override { return 0; }
    bool needsReceivedAttention() const override { return false; }
    CompressionResult compress(const CompressionInput& input, double ratio) const override;

    std::unique_ptr<OffloadIndex> index(const CompressionInput& input, double ratio) const;
    // compress()'s result from an index already built for this input (a sweep decodes
    // with the same index, so it is built once per configuration and sample).
    CompressionResult resultOf(const CompressionInput& input, const OffloadIndex& built) const;
    // The settings the index of this input uses (the automatic rank resolved).
    OffloadSettings resolvedSettings(const CompressionInput& input) const;

  private:
    OffloadSettings m_settings;
    QString m_spec;
};

} // namespace kvl
