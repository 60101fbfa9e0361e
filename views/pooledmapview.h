#pragma once

#include "asyncpooler.h"
#include "colormaps.h"
#include "columnpooling.h"
#include "plotview.h"

#include <QPoint>

#include <optional>

class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QRubberBand;

namespace kvl {

// Base of the views that draw a rows × context-positions matrix as a colour map
// (question attention, eviction keep rates). Long contexts are pooled along the
// positions to the plot's pixel width, off the GUI thread for large matrices, so
// the cost never grows with N²; the pooled grid is kept while only the palette
// or colour map changes.
//
// The position axis zooms and pans (wheel around the cursor, left drag, a rubber
// band with the right button or Shift+drag, + - 0 and the arrow keys, double-click
// resets); every change of the visible range re-pools only that range to the pixel
// width, so a 32k-token context stays interactive. Spans are drawn as bands at
// least a few pixels wide with their labels at every zoom; a click on a band zooms
// to its span.
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

    // The context positions in view, [visibleBegin, visibleEnd): all of them unless zoomed.
    int columns() const { return m_columns; }
    int visibleBegin() const { return m_viewBegin; }
    int visibleEnd() const { return m_viewEnd; }
    bool isZoomed() const { return m_viewEnd - m_viewBegin < m_columns; }
    // Shows [begin, end) (clamped to the positions, at least kMinVisible wide) and re-pools it.
    void setVisibleRange(int begin, int end);
    void resetZoom() { setVisibleRange(0, m_columns); }
    // Zooms by `factor` (< 1 = in) keeping `anchor` (a position) where it is on screen.
    void zoomBy(double factor, double anchor);
    void panBy(int positions);
    // Span band `index` (spanBands()) fills the view, with a margin; false when there is none.
    bool zoomToSpan(int index);

    // A labelled range of positions drawn as a band; what spanBands() lists.
    struct SpanBand
    {
        int begin = 0;
        int end = 0;
        QString label;
    };
    // The bands of the last draw, in the order the view added them.
    const QVector<SpanBand>& spanBands() const { return m_bands; }
    // Pixel rect of band i as drawn (for tests and hit testing); empty before a layout.
    QRect spanBandPixels(int index) const;
    // Bands are never narrower than this on screen, whatever the zoom.
    static constexpr int kMinBandPixels = 5;
    // Never fewer positions in view than this (or all of them when fewer).
    static constexpr int kMinVisible = 8;

    // Where the colour maps and the position axis are drawn (null before data).
    QCPAxisRect* mapRect() const { return m_mapRect; }
    // Fixed left margin of the map and right margin of the colour scale, so two maps of
    // the same width line up position for position (their labels differ in width).
    static constexpr int kLeftMargin = 64;
    static constexpr int kScaleMargin = 78;

  signals:
    void visibleRangeChanged(int begin, int end);

  protected:
    PooledMapView(const QString& title, const QString& emptyHint, ColorMap colorMap,
                  QWidget* parent);

    // Draws pooled(); called once the grid of the current data is at hand.
    virtual void drawPooled() = 0;
    // The value part of the hover read-out for a row and a pooled bin ("layer 3 · keep 0.5").
    virtual QString describeCell(int row, int bin) const = 0;
    // The token text at a position; nullopt when the data holds no token text.
    virtual std::optional<QString> tokenAt(int position) const = 0;

    // setData() calls this first: a grid pooled from earlier data no longer holds.
    void dataReplaced() { ++m_dataVersion; }
    // clear() calls this: drops the grid and any pooling still in flight.
    void dropPooled();
    // rebuild() hands the view's matrix here (rows × cols, row-major; flags empty
    // or rows × cols): draws at once when the grid holds or pools synchronously,
    // otherwise when the pooled grid arrives. The visible range is kept while the
    // number of columns stays; new data of another length shows all of it.
    void poolThenDraw(const QVector<double>& values, int rows, int cols, PoolMode mode,
                      const QVector<bool>& flags = {});
    int targetBins() const;
    bool eventFilter(QObject* watched, QEvent* event) override;

    // Resets the plot to one axis rect (layout cell 1,0) without grid lines, its x
    // axis over the visible positions; the view sets the y range and the labels.
    QCPAxisRect* resetToMapAxes();
    // A colour map of `cells` (rows × pooled bins, like pooled().values), each cell
    // centred on its bin of context positions; not interpolated.
    QCPColorMap* addPooledColorMap(QCPAxis* x, QCPAxis* y, const QVector<double>& cells) const;
    // The colour scale of `map` right of `rect` (layout cell 1,1), aligned with it.
    QCPColorScale* addColorScale(QCPAxisRect* rect, QCPColorMap* map, const QString& label);
    // Span bands between yLow and yHigh (plot coordinates) of mapRect(), each at least
    // kMinBandPixels wide, filled with colors[i]; labels inside a band when they fit,
    // else beside it (neighbours that do not fit share one label). Recorded for
    // spanBands(), click-to-zoom and the hover read-out.
    void addSpanBands(const QVector<SpanBand>& bands, const QVector<QColor>& colors, double yLow,
                      double yHigh);
    // Screen pixels per context position at the current zoom (an estimate before layout).
    double pixelsPerPosition() const;

  private:
    void showHover(const QPoint& pos, const QPoint& globalPos);
    // The context position (fractional) under a pixel column of the map; -1 before layout.
    double positionAtPixel(double px) const;
    int bandAtPixel(const QPoint& pos) const;
    void requestPool();
    void plotResized();

    PooledGrid m_pooled;
    AsyncPooler* m_pooler;
    int m_dataVersion = 0;    // bumped by dataReplaced() and dropPooled()
    int m_pooledVersion = -1; // data version m_pooled was computed from
    int m_requestVersion = -1;
    int m_columns = 0; // context positions of the matrix last handed to poolThenDraw()
    int m_viewBegin = 0;
    int m_viewEnd = 0;
    ColorMap m_colorMap;
    int m_maxBins = 0;
    QCPAxisRect* m_mapRect = nullptr;
    QVector<SpanBand> m_bands;
    QVector<QCPItemRect*> m_bandItems;
    // The matrix of the last poolThenDraw(), for re-pooling on zoom.
    QVector<double> m_values;
    QVector<bool> m_flags;
    int m_rows = 0;
    PoolMode m_mode = PoolMode::Max;
    // Mouse gesture in progress.
    enum class Drag
    {
        None,
        Pan,
        Band
    };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    int m_pressBegin = 0;
    int m_pressEnd = 0;
    bool m_moved = false;
    QRubberBand* m_rubberBand = nullptr;
};

} // namespace kvl
