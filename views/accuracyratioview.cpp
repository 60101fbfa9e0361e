#include "accuracyratioview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <cmath>

namespace kvl {

AccuracyRatioView::AccuracyRatioView(QWidget* parent)
    : PlotView(tr("Accuracy vs compression ratio"),
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
    const ViewPalette& pal = viewPalette();
    resetPlot();
    QCPAxisRect* rect = addAxisRect(1, 0);
    QCPLegend* legend = addLegend(rect, Qt::AlignBottom | Qt::AlignLeft);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    x->setLabel(tr("Compression ratio (share of context KV entries removed)"));
    y->setLabel(tr("Accuracy"));
    x->setRange(0.0, 1.0);
    y->setRange(0.0, 1.05);

    if (!std::isnan(m_data.fullCacheAccuracy)) {
        auto* line = new QCPGraph(x, y);
        line->setName(tr("FullCache (%1)").arg(m_data.fullCacheAccuracy, 0, 'f', 3));
        line->setData({0.0, 1.0}, {m_data.fullCacheAccuracy, m_data.fullCacheAccuracy});
        line->setPen(QPen(pal.reference, 1.5, Qt::DashLine));
        line->setSelectable(QCP::stNone);
        line->addToLegend(legend);
    }

    for (int i = 0; i < m_data.curves.size(); ++i) {
        const AccuracyCurve& curve = m_data.curves[i];
        const QColor color = pal.seriesColor(i);
        auto* graph = new QCPGraph(x, y);
        const double cliff = cliffRatio(curve);
        graph->setName(std::isnan(cliff) ? curve.compressor
                                         : tr("%1 (cliff at %2)").arg(curve.compressor).arg(cliff));
        graph->setData(curve.ratios, curve.accuracy); // sorts by ratio
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 6));
        graph->setProperty("curveIndex", i);
        graph->addToLegend(legend);

        if (std::isnan(cliff))
            continue;
        const int at = int(curve.ratios.indexOf(cliff));
        const double acc = curve.accuracy.value(at);
        auto* marker = new QCPItemTracer(plot());
        marker->setClipAxisRect(rect);
        marker->position->setAxes(x, y);
        marker->position->setCoords(cliff, acc);
        marker->setStyle(QCPItemTracer::tsCircle);
        marker->setSize(16);
        marker->setPen(QPen(color, 2));
        marker->setBrush(Qt::NoBrush);
        marker->setProperty("curveIndex", i);
        marker->setProperty("ratio", cliff);
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
