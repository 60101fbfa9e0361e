#include "accuracyratioview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <cmath>

namespace kvl {

AccuracyRatioView::AccuracyRatioView(QWidget* parent)
    : RatioPlotView(tr("Accuracy vs compression ratio"),
                    tr("No run open.\nOpen a run file (File › Open run…) or start one (File › New "
                       "run…) to see accuracy against compression ratio for each compressor."),
                    parent)
{
    connect(
        plot(), &QCustomPlot::plottableClick, this,
        [this](QCPAbstractPlottable* p, int index, QMouseEvent*) { onPlottableClick(p, index); });
    // The cliff ring sits on top of its data point and catches that point's clicks.
    connect(plot(), &QCustomPlot::itemClick, this, [this](QCPAbstractItem* item, QMouseEvent*) {
        if (!item->property("curveIndex").isValid())
            return;
        const int curve = item->property("curveIndex").toInt();
        if (curve >= 0 && curve < m_data.curves.size())
            emit configurationSelected(m_data.curves[curve].compressor,
                                       item->property("ratio").toDouble());
    });
}

void AccuracyRatioView::setData(const AccuracyData& data)
{
    m_data = data;
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void AccuracyRatioView::clear()
{
    m_data = {};
    setHasData(false);
}

void AccuracyRatioView::rebuild()
{
    const RatioAxes axes = resetToRatioAxes(tr("Accuracy"));
    if (!std::isnan(m_data.fullCacheAccuracy))
        addReferenceLine(axes, tr("FullCache (%1)").arg(m_data.fullCacheAccuracy, 0, 'f', 3),
                         m_data.fullCacheAccuracy);

    for (int i = 0; i < m_data.curves.size(); ++i) {
        const AccuracyCurve& curve = m_data.curves[i];
        const QColor color = viewPalette().seriesColor(i);
        const double cliff = cliffRatio(curve);
        QCPGraph* graph = addRatioCurve(
            axes,
            std::isnan(cliff) ? curve.compressor
                              : tr("%1 (cliff at %2)").arg(curve.compressor).arg(cliff),
            curve.ratios, curve.accuracy, color);
        graph->setProperty("curveIndex", i);

        if (std::isnan(cliff))
            continue;
        const int at = int(curve.ratios.indexOf(cliff));
        const double acc = curve.accuracy.value(at);
        auto* marker = new QCPItemTracer(plot());
        marker->setClipAxisRect(axes.rect);
        marker->position->setAxes(axes.x, axes.y);
        marker->position->setCoords(cliff, acc);
        marker->setStyle(QCPItemTracer::tsCircle);
        marker->setSize(16);
        marker->setPen(QPen(color, 2));
        marker->setBrush(Qt::NoBrush);
        marker->setProperty("curveIndex", i);
        marker->setProperty("ratio", cliff);
    }
    finishRebuild();
}

QString AccuracyRatioView::csv() const
{
    CsvTable table({QStringLiteral("compressor"), QStringLiteral("ratio"),
                    QStringLiteral("accuracy"), QStringLiteral("cliff")});
    if (!std::isnan(m_data.fullCacheAccuracy))
        table.add(QStringLiteral("FullCache"))
            .add(0.0)
            .add(m_data.fullCacheAccuracy)
            .add(0)
            .endRow();
    for (const AccuracyCurve& curve : m_data.curves) {
        const double cliff = cliffRatio(curve);
        for (int i = 0; i < curve.ratios.size(); ++i)
            table.add(curve.compressor)
                .add(curve.ratios[i])
                .add(curve.accuracy.value(i, std::nan("")))
                .add(curve.ratios[i] == cliff ? 1 : 0)
                .endRow();
    }
    return table.text();
}

void AccuracyRatioView::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    auto* graph = qobject_cast<QCPGraph*>(plottable);
    if (!graph || !graph->property("curveIndex").isValid())
        return;
    const AccuracyCurve& curve = m_data.curves.value(graph->property("curveIndex").toInt());
    if (dataIndex < 0 || dataIndex >= graph->dataCount())
        return;
    const double ratio = (graph->data()->constBegin() + dataIndex)->key;
    emit configurationSelected(curve.compressor, ratio);
}

} // namespace kvl
