#include "keepaccumulator.h"

#include "diagnose/keptmask.h"
#include "maskviews.h"

namespace kvl {

void KeepAccumulator::add(const KeptMask& mask)
{
    if (m_samples > 0 && mask.layers != m_layers)
        return; // another model's mask: not averaged with this one
    m_layers = mask.layers;
    if (mask.contextLen > m_positions) {
        QVector<double> sum(qsizetype(m_layers) * mask.contextLen, 0.0);
        for (int l = 0; l < m_layers; ++l)
            for (int t = 0; t < m_positions; ++t)
                sum[qsizetype(l) * mask.contextLen + t] = m_sum[qsizetype(l) * m_positions + t];
        m_sum = sum;
        m_count.resize(mask.contextLen, 0);
        m_positions = mask.contextLen;
    }
    const QVector<double> keep = layerKeepRates(mask);
    for (int l = 0; l < m_layers; ++l)
        for (int t = 0; t < mask.contextLen; ++t)
            m_sum[qsizetype(l) * m_positions + t] += keep[qsizetype(l) * mask.contextLen + t];
    for (int t = 0; t < mask.contextLen; ++t)
        ++m_count[t];
    ++m_samples;
}

EvictionMap KeepAccumulator::result() const
{
    EvictionMap map;
    map.layers = m_layers;
    map.positions = m_positions;
    map.keep = m_sum;
    for (int l = 0; l < m_layers; ++l)
        for (int t = 0; t < m_positions; ++t)
            if (m_count[t] > 0)
                map.keep[qsizetype(l) * m_positions + t] /= m_count[t];
    return map;
}

} // namespace kvl
