#include "ratioplotview.h"

#include <qcustomplot.h>

namespace kvl {

RatioPlotView::RatioPlotView(const QString& title, const QString& emptyHint, QWidget* parent)
    : PlotView(title, emptyHint, parent)
{}

RatioPlotView::RatioAxes RatioPlotView::resetToRatioAxes(const QString& valueLabel)
{
    resetPlot();
    RatioAxes axes;
    axes.rect = addAxisRect(1, 0);
    axes.legend = addLegend(axes.rect, Qt::AlignBottom | Qt::AlignLeft);
    axes.x = axes.rect->axis(QCPAxis::atBottom);
    axes.y = axes.rect->axis(QCPAxis::atLeft);
    axes.x->setLabel(tr("Compression ratio (share of context KV entries removed)"));
    axes.y->setLabel(valueLabel);
    axes.x->setRange(0.0, 1.0);
    // A little room below 0: a compressor that fails every sample draws its curve above
    // the axis line instead of hidden under it.
    axes.y->setRange(-0.03, 1.05);
    return axes;
}

void RatioPlotView::addReferenceLine(const RatioAxes& axes, const QString& name, double value)
{
    auto* line = new QCPGraph(axes.x, axes.y);
    line->setName(name);
    line->setData({0.0, 1.0}, {value, value});
    line->setPen(QPen(viewPalette().reference, 1.5, Qt::DashLine));
    line->setSelectable(QCP::stNone);
    line->addToLegend(axes.legend);
}

QCPGraph* RatioPlotView::addRatioCurve(const RatioAxes& axes, const QString& name,
                                       const QVector<double>& ratios, const QVector<double>& values,
                                       const QColor& color, bool dashed)
{
    auto* graph = new QCPGraph(axes.x, axes.y);
    graph->setName(name);
    graph->setData(ratios, values); // sorts by ratio
    graph->setPen(QPen(color, 2, dashed ? Qt::DashLine : Qt::SolidLine));
    graph->setScatterStyle(
        QCPScatterStyle(dashed ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, color, 6));
    graph->addToLegend(axes.legend);
    return graph;
}

} // namespace kvl
