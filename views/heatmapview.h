#pragma once

#include "heatmapdata.h"
#include "pooledmapview.h"

class QCPAxisRect;

namespace kvl {

// Question attention over context positions × layers (or heads). A long context
// is max-pooled to the pixel width of the plot, so a single bright position
// stays visible and the cost never grows with N². Evidence spans are boxed and
// marked above the map; evicted entries are greyed out.
class HeatmapView : public PooledMapView
{
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(const Heatmap& data);
    const Heatmap& data() const { return m_data; }
    void clear() override;

    bool logScale() const { return m_logScale; }
    void setLogScale(bool on);

    // <rowKind>,position,value,evicted,evidence at full resolution (evicted empty without a mask)
    QString csv() const override;

  protected:
    void rebuild() override;
    void drawPooled() override;

  private:
    QString rowLabel(int row) const;
    void onMouseMove(QMouseEvent* event);

    Heatmap m_data;
    bool m_logScale = false;
    QCPAxisRect* m_rect = nullptr;
};

} // namespace kvl
