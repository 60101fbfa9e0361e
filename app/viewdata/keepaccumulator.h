#pragma once

#include "views/evictionmapdata.h"

namespace kvl {

struct KeptMask;

// Running mean of per-sample keep maps whose context lengths differ: position t is
// averaged over the samples whose context reaches t.
class KeepAccumulator
{
  public:
    void add(const KeptMask& mask);
    int samples() const { return m_samples; }
    EvictionMap result() const;

  private:
    int m_layers = 0;
    int m_positions = 0;
    int m_samples = 0;
    QVector<double> m_sum; // layers × positions
    QVector<int> m_count;  // per position
};

} // namespace kvl
