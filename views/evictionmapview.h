#pragma once

#include "asyncpooler.h"
#include "colormaps.h"
#include "columnpooling.h"
#include "evictionmapdata.h"
#include "plotview.h"

namespace kvl {

// Keep fraction per context position × layer, with the instruction spans drawn
// as labelled bands under the map: shows which instruction is evicted first.
// Long contexts are mean-pooled to the plot's pixel width.
class EvictionMapView : public PlotView
{
    Q_OBJECT
  public:
    explicit EvictionMapView(QWidget* parent = nullptr);

    void setData(const EvictionMap& data);
    const EvictionMap& data() const { return m_data; }
    void clear() override;

    ColorMap colorMap() const { return m_colorMap; }
    void setColorMap(ColorMap map);
    int maxBins() const { return m_maxBins; }
    void setMaxBins(int bins); // 0 (default) = the plot's pixel width
    const PooledGrid& pooled() const { return m_pooled; }

    // layer,position,keep,span_role,span_label at full resolution
    QString csv() const override;

  protected:
    void rebuild() override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    int targetBins() const;
    // Draws m_pooled; rebuild() pools first (off-thread for large matrices).
    void drawPooled();

    EvictionMap m_data;
    PooledGrid m_pooled;
    AsyncPooler* m_pooler;
    int m_dataVersion = 0;    // bumped by setData
    int m_pooledVersion = -1; // data version m_pooled was computed from
    int m_requestVersion = -1;
    ColorMap m_colorMap = ColorMap::Cividis;
    int m_maxBins = 0;
};

} // namespace kvl
