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
    QVector<double> ratios;
    for (const AccuracyCurve& curve : m_data.curves)
        ratios += curve.ratios;
    const RatioAxes axes = resetToRatioAxes(tr("Accuracy"), ratios, int(m_data.curves.size()));
    if (!std::isnan(m_data.fullCacheAccuracy)) {
        const QString name = m_data.fullCacheN > 0
                                 ? tr("FullCache (%1, n = %2)")
                                       .arg(m_data.fullCacheAccuracy, 0, 'f', 3)
                                       .arg(m_data.fullCacheN)
                                 : tr("FullCache (%1)").arg(m_data.fullCacheAccuracy, 0, 'f', 3);
        addReferenceLine(axes, name, m_data.fullCacheAccuracy, m_data.fullCacheLo,
                         m_data.fullCacheHi);
    }

    for (int i = 0; i < m_data.curves.size(); ++i) {
        const AccuracyCurve& curve = m_data.curves[i];
        const QColor color = viewPalette().seriesColor(i);
        const double cliff = cliffRatio(curve);
        QStringList about;
        if (!std::isnan(cliff))
            about << tr("cliff at %1").arg(cliff);
        if (const QString n = nRange(curve.n); !n.isEmpty())
            about << n;
        RatioSeries series;
        series.name =
            about.isEmpty()
                ? curve.compressor
                : QStringLiteral("%1 (%2)").arg(curve.compressor, about.join(QStringLiteral("; ")));
        series.pointName = curve.compressor;
        series.ratios = curve.ratios;
        series.values = curve.accuracy;
        series.n = curve.n;
        series.successes = curve.correct;
        series.lo = curve.lo;
        series.hi = curve.hi;
        series.color = color;
        series.shapeIndex = i;
        QCPGraph* graph = addRatioCurve(axes, series);
        graph->setProperty("curveIndex", i);

        if (std::isnan(cliff))
            continue;
        const int at = int(curve.ratios.indexOf(cliff));
        const double acc = curve.accuracy.value(at);
        auto* marker = new QCPItemTracer(plot());
        marker->setClipAxisRect(axes.rect);
        marker->position->setAxes(axes.x, axes.y);
        marker->position->setCoords(drawnRatio(i, cliff), acc);
        marker->setStyle(QCPItemTracer::tsCircle);
        marker->setSize(16);
        marker->setPen(QPen(color, 2));
        marker->setBrush(Qt::NoBrush);
        marker->setProperty("curveIndex", i);
        marker->setProperty("ratio", cliff);
    }
    finishRatioPlot(axes, curvesHaveIntervals() ? tr("Wilson score intervals") : QString());
}

bool AccuracyRatioView::curvesHaveIntervals() const
{
    for (const AccuracyCurve& curve : m_data.curves)
        if (!curve.lo.isEmpty())
            return true;
    return false;
}

QString AccuracyRatioView::csv() const
{
    CsvTable table({QStringLiteral("compressor"), QStringLiteral("ratio"),
                    QStringLiteral("accuracy"), QStringLiteral("n"), QStringLiteral("ci95_low"),
                    QStringLiteral("ci95_high"), QStringLiteral("cliff")});
    // n = 0 is "unknown" (data without counts): an empty field, as for NaN.
    auto count = [](int n) { return n > 0 ? QString::number(n) : QString(); };
    if (!std::isnan(m_data.fullCacheAccuracy))
        table.add(QStringLiteral("FullCache"))
            .add(0.0)
            .add(m_data.fullCacheAccuracy)
            .add(count(m_data.fullCacheN))
            .add(m_data.fullCacheLo)
            .add(m_data.fullCacheHi)
            .add(0)
            .endRow();
    for (const AccuracyCurve& curve : m_data.curves) {
        const double cliff = cliffRatio(curve);
        for (int i = 0; i < curve.ratios.size(); ++i)
            table.add(curve.compressor)
                .add(curve.ratios[i])
                .add(curve.accuracy.value(i, std::nan("")))
                .add(count(curve.n.value(i)))
                .add(curve.lo.value(i, std::nan("")))
                .add(curve.hi.value(i, std::nan("")))
                .add(curve.ratios[i] == cliff ? 1 : 0)
                .endRow();
    }
    return table.text();
}

void AccuracyRatioView::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    // A point's error bar lies on top of it: a click there is a click on the point.
    if (auto* bars = qobject_cast<QCPErrorBars*>(plottable))
        plottable = bars->dataPlottable();
    auto* graph = qobject_cast<QCPGraph*>(plottable);
    if (!graph || !graph->property("curveIndex").isValid())
        return;
    const AccuracyCurve& curve = m_data.curves.value(graph->property("curveIndex").toInt());
    if (dataIndex < 0 || dataIndex >= graph->dataCount())
        return;
    // The drawn key may sit a little off the ratio (series spread apart); the true one.
    const double ratio = ratioOf(graph, dataIndex);
    if (!std::isnan(ratio))
        emit configurationSelected(curve.compressor, ratio);
}

} // namespace kvl
