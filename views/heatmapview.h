#pragma once

#include "asyncpooler.h"
#include "colormaps.h"
#include "columnpooling.h"
#include "heatmapdata.h"
#include "plotview.h"

class QCPAxisRect;

namespace kvl {

// Question attention over context positions × layers (or heads). A long context
// is max-pooled to the pixel width of the plot, so a single bright position
// stays visible and the cost never grows with N². Evidence spans are boxed and
// marked above the map; evicted entries are greyed out.
class HeatmapView : public PlotView
{
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(const Heatmap& data);
    const Heatmap& data() const { return m_data; }
    void clear() override;

    ColorMap colorMap() const { return m_colorMap; }
    void setColorMap(ColorMap map);
    bool logScale() const { return m_logScale; }
    void setLogScale(bool on);
    // Upper bound on drawn columns; 0 (default) = the plot's pixel width.
    int maxBins() const { return m_maxBins; }
    void setMaxBins(int bins);

    // What is drawn now: the pooled grid of the last rebuild.
    const PooledGrid& pooled() const { return m_pooled; }

    // <rowKind>,position,value,evicted,evidence at full resolution (evicted empty without a mask)
    QString csv() const override;

  protected:
    void rebuild() override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    int targetBins() const;
    // Draws m_pooled; rebuild() pools first (off-thread for large matrices).
    void drawPooled();
    QString rowLabel(int row) const;
    void onMouseMove(QMouseEvent* event);

    Heatmap m_data;
    PooledGrid m_pooled;
    AsyncPooler* m_pooler;
    int m_dataVersion = 0;    // bumped by setData
    int m_pooledVersion = -1; // data version m_pooled was computed from
    int m_requestVersion = -1;
    ColorMap m_colorMap = ColorMap::Viridis;
    bool m_logScale = false;
    int m_maxBins = 0;
    QCPAxisRect* m_rect = nullptr;
};

} // namespace kvl
