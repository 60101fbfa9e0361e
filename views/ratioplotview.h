#pragma once

#include "plotview.h"

#include <QVector>

#include <limits>

class QCPAxisRect;
class QCPGraph;
class QColor;

namespace kvl {

// One series of a ratio plot as drawn: its points, how many rows each stands on,
// the 95% interval of each (empty = none), and its look.
struct RatioSeries
{
    QString name;           // legend entry (empty: not in the legend)
    QString pointName;      // what the tooltip calls the series
    QString keyName;        // what the tooltip calls a point's x; empty: the ratio
    QVector<double> ratios; // the true ratios (the drawn points may sit a little apart)
    QVector<double> values;
    QVector<int> n;            // rows per point; empty = unknown
    QVector<double> lo, hi;    // 95% interval per point; empty = none
    QVector<qint64> successes; // per point, for "k of n" in the tooltip; empty = unknown
    QColor color;
    Qt::PenStyle penStyle = Qt::SolidLine;
    int shapeIndex = 0;  // marker shape (cycled)
    bool hollow = false; // circle-like markers for the second member of a pair
};

// Base of the views that draw values against the compression ratio (accuracy,
// span keep rate, leakage, repair rate): one axis rect whose ratio axis is fitted
// to the ratios of the data and values 0…1.05 (rates and shares), a legend at its
// bottom left, a dashed reference line (usually FullCache, with its interval as a
// band), one line per series with 95% intervals as error bars, and a tooltip per
// point naming its value, n and interval. Series sharing a ratio are drawn a little
// apart, so equal values (a row of compressors at 0) stay visible side by side.
class RatioPlotView : public PlotView
{
    Q_OBJECT
  public:
    // The tooltip of the point nearest to a plot-widget position (within a few
    // pixels); empty when none is near.
    QString pointTipAt(const QPoint& plotPixel) const;
    // Pixel position of a drawn point (series in drawing order, point in ratio order).
    QPoint pointPixel(int series, int point) const;
    // The least height on paper that leaves the curves room once a legend of many
    // entries goes under them: 2.6 in up to three entries, 0.16 in more for each beyond.
    double printMinHeightInches() const;

  protected:
    RatioPlotView(const QString& title, const QString& emptyHint, QWidget* parent);

    // What one rebuild draws on.
    struct RatioAxes
    {
        QCPAxisRect* rect = nullptr;
        QCPLegend* legend = nullptr;
        QCPAxis* x = nullptr; // compression ratio
        QCPAxis* y = nullptr; // the value, titled valueLabel
    };

    // Resets the plot to the ratio axes, the ratio axis fitted to `ratios` (every ratio
    // of the data) with a margin; `seriesCount` series will be drawn (for the spacing
    // of points that share a ratio).
    // `ratioLabel`: the x axis title (empty: the compression ratio's).
    RatioAxes resetToRatioAxes(const QString& valueLabel, const QVector<double>& ratios,
                               int seriesCount, const QString& ratioLabel = {});
    // A dashed line at `value` across all ratios, named in the legend, with its
    // interval [lo, hi] as a faint band when known; never selected.
    void addReferenceLine(const RatioAxes& axes, const QString& name, double value,
                          double lo = std::numeric_limits<double>::quiet_NaN(),
                          double hi = std::numeric_limits<double>::quiet_NaN());
    // One series through its points, with error bars where it has intervals; the
    // index-th series drawn (its offset among series sharing a ratio).
    QCPGraph* addRatioCurve(const RatioAxes& axes, const RatioSeries& series);
    // A legend entry without data (a colour or a line style of a grouped legend),
    // in the legend's given column.
    void addLegendKey(const RatioAxes& axes, const QString& name, const QColor& color,
                      Qt::PenStyle style, int shapeIndex, bool hollow, int column);
    // Adds a footnote under the axes (what the bars are, that points sharing a ratio
    // sit apart; `note` first when given), then finishes as PlotView does.
    void finishRatioPlot(const RatioAxes& axes, const QString& note = {});

    // The true ratio of a drawn point of `graph` (data index in ratio order); NaN
    // when the graph is not a series of this view.
    double ratioOf(const QCPGraph* graph, int dataIndex) const;
    // The drawn (offset) position of a series' point, for items placed on it.
    double drawnRatio(int series, double ratio) const;

    // "n = 6" or "n = 4–6" over a series' points; empty when unknown.
    static QString nRange(const QVector<int>& n);

  private:
    struct DrawnPoint
    {
        double key; // as drawn
        double value;
        QString tip;
    };
    struct DrawnSeries
    {
        QCPGraph* graph = nullptr;
        QVector<double> ratios; // true, ascending
        QVector<DrawnPoint> points;
        double offset = 0.0;
    };
    void showPointTip(QMouseEvent* event);

    QVector<DrawnSeries> m_series;
    QCPAxis* m_x = nullptr;
    QCPAxis* m_y = nullptr;
    int m_seriesCount = 1;
    double m_step = 0.0; // ratio between neighbouring series at one ratio
    bool m_anyInterval = false;
};

} // namespace kvl
