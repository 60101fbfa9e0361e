#pragma once

#include "cache/press.h"
#include "cache/scorer.h"

#include <memory>

namespace kvl {

// kvpress ScorerPress: every kv-head keeps its int(T * (1 - r)) best-scored entries.
class ScorerPress : public Press
{
  public:
    explicit ScorerPress(std::unique_ptr<Scorer> scorer, QString spec = {});

    QString spec() const override { return m_spec; }
    CompressionResult compress(const CompressionInput& input, double ratio) const override;
    int64_t queryWindow(int64_t length) const override { return m_scorer->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_scorer->needsReceivedAttention(); }
    bool needsAttentionInputs() const override { return m_scorer->needsAttentionInputs(); }
    const Scorer& scorer() const { return *m_scorer; }

  private:
    std::unique_ptr<Scorer> m_scorer;
    QString m_spec;
};

} // namespace kvl
