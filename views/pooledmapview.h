#pragma once

#include "asyncpooler.h"
#include "colormaps.h"
#include "columnpooling.h"
#include "plotview.h"

class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;

namespace kvl {

// Base of the views that draw a rows × context-positions matrix as a colour map
// (question attention, eviction keep rates). Long contexts are pooled along the
// positions to the plot's pixel width, off the GUI thread for large matrices, so
// the cost never grows with N²; the pooled grid is kept while only the palette
// or colour map changes.
class PooledMapView : public PlotView
{
    Q_OBJECT
  public:
    ColorMap colorMap() const { return m_colorMap; }
    void setColorMap(ColorMap map);
    // Upper bound on drawn columns; 0 (default) = the plot's pixel width.
    int maxBins() const { return m_maxBins; }
    void setMaxBins(int bins);

    // What is drawn now: the pooled grid of the last rebuild.
    const PooledGrid& pooled() const { return m_pooled; }

  protected:
    PooledMapView(const QString& title, const QString& emptyHint, ColorMap colorMap,
                  QWidget* parent);

    // Draws pooled(); called once the grid of the current data is at hand.
    virtual void drawPooled() = 0;

    // setData() calls this first: a grid pooled from earlier data no longer holds.
    void dataReplaced() { ++m_dataVersion; }
    // clear() calls this: drops the grid and any pooling still in flight.
    void dropPooled();
    // rebuild() hands the view's matrix here (rows × cols, row-major; flags empty
    // or rows × cols): draws at once when the grid holds or pools synchronously,
    // otherwise when the pooled grid arrives.
    void poolThenDraw(const QVector<double>& values, int rows, int cols, PoolMode mode,
                      const QVector<bool>& flags = {});
    int targetBins() const;
    void resizeEvent(QResizeEvent* event) override;

    // Resets the plot to one axis rect (layout cell 1,0) without grid lines, its x
    // axis over the context positions; the view sets the y range and the labels.
    QCPAxisRect* resetToMapAxes();
    // A colour map of `cells` (rows × pooled bins, like pooled().values), each cell
    // centred on its bin of context positions; not interpolated.
    QCPColorMap* addPooledColorMap(QCPAxis* x, QCPAxis* y, const QVector<double>& cells) const;
    // The colour scale of `map` right of `rect` (layout cell 1,1), aligned with it.
    QCPColorScale* addColorScale(QCPAxisRect* rect, QCPColorMap* map, const QString& label);

  private:
    PooledGrid m_pooled;
    AsyncPooler* m_pooler;
    int m_dataVersion = 0;    // bumped by dataReplaced() and dropPooled()
    int m_pooledVersion = -1; // data version m_pooled was computed from
    int m_requestVersion = -1;
    int m_columns = 0; // context positions of the matrix last handed to poolThenDraw()
    ColorMap m_colorMap;
    int m_maxBins = 0;
};

} // namespace kvl
