#pragma once

#include "colormaps.h"
#include "columnpooling.h"
#include "heatmapdata.h"
#include "plotview.h"

#include <QPoint>

class QCPAxisRect;

namespace kvl {

// Small multiples of question attention: one small panel per (layer, kv-head), layers
// down and kv-heads across, each labelled, all on one colour scale (one bar for the
// grid) and one zoom: the wheel over any panel zooms every panel around the position
// under the cursor, a double-click shows all positions again; every change re-pools
// the visible positions to the panels' pixel width. A click on a panel asks for that
// head (headSelected). Exports as one figure; the CSV is that of every layer × kv-head.
class HeadGridView : public PlotView
{
    Q_OBJECT
  public:
    explicit HeadGridView(QWidget* parent = nullptr);

    // `data` per layer with per-head attention (Heatmap::perHead); without it the view
    // stays empty and says why.
    void setData(const Heatmap& data);
    const Heatmap& source() const { return m_source; }
    void clear() override;

    ColorMap colorMap() const { return m_colorMap; }
    void setColorMap(ColorMap map);

    int layers() const { return m_source.rows; }
    int kvHeads() const { return m_source.kvHeads; }
    // The panel of (layer, head) as drawn (null before data or out of range).
    QCPAxisRect* panel(int layer, int head) const;
    // The one colour range of every panel (lower, upper).
    QPair<double, double> colorRange() const { return m_colorRange; }

    int visibleBegin() const { return m_viewBegin; }
    int visibleEnd() const { return m_viewEnd; }
    // Shows the positions [begin, end) in every panel (clamped, at least 8 wide).
    void setVisibleRange(int begin, int end);
    void resetZoom() { setVisibleRange(0, m_source.cols); }

    // head,position,value,evicted,evidence rows of every (layer, kv-head), as the
    // heatmap's every-head CSV.
    QString csv() const override;

  signals:
    void headSelected(int layer, int head);
    void visibleRangeChanged(int begin, int end);

  protected:
    void rebuild() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The (layer, head) of the panel under a plot pixel; {-1, -1} when none.
    QPoint panelAt(const QPoint& pos) const;

    Heatmap m_source;
    Heatmap m_every; // one row per (layer, kv-head), layer-major
    ColorMap m_colorMap = ColorMap::Viridis;
    QVector<QCPAxisRect*> m_panels; // layer-major
    QPair<double, double> m_colorRange{0.0, 0.0};
    int m_viewBegin = 0;
    int m_viewEnd = 0;
    QPoint m_pressPos{-1, -1};
};

} // namespace kvl
