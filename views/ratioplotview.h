#pragma once

#include "plotview.h"

#include <QVector>

class QCPAxisRect;
class QCPGraph;
class QColor;

namespace kvl {

// Base of the views that draw values against the compression ratio (accuracy,
// span keep rate, leakage, repair rate): one axis rect over ratios 0…1 and values
// 0…1.05 (rates and shares), a legend at its bottom left, a dashed reference line
// (usually FullCache) and one line per series.
class RatioPlotView : public PlotView
{
    Q_OBJECT
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

    // Resets the plot to the ratio axes.
    RatioAxes resetToRatioAxes(const QString& valueLabel);
    // A dashed line at `value` across all ratios, named in the legend; never selected.
    void addReferenceLine(const RatioAxes& axes, const QString& name, double value);
    // One series through its points (discs; circles on a dashed line), in the legend.
    QCPGraph* addRatioCurve(const RatioAxes& axes, const QString& name,
                            const QVector<double>& ratios, const QVector<double>& values,
                            const QColor& color, bool dashed = false);
};

} // namespace kvl
