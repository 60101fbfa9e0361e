#include "ratiocurvesview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <cmath>

namespace kvl {

RatioCurvesView::RatioCurvesView(const QString& title, const QString& emptyHint, QWidget* parent)
    : PlotView(title, emptyHint, parent)
{}

void RatioCurvesView::setData(const RatioCurves& data)
{
    m_data = data;
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void RatioCurvesView::clear()
{
    m_data = {};
    setHasData(false);
}

void RatioCurvesView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    resetPlot();
    QCPAxisRect* rect = addAxisRect(1, 0);
    QCPLegend* legend = addLegend(rect, Qt::AlignBottom | Qt::AlignLeft);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    x->setLabel(tr("Compression ratio (share of context KV entries removed)"));
    y->setLabel(m_data.valueLabel);
    x->setRange(0.0, 1.0);
    y->setRange(0.0, 1.05); // rates and shares

    if (!std::isnan(m_data.reference)) {
        auto* line = new QCPGraph(x, y);
        line->setName(
            QStringLiteral("%1 (%2)").arg(m_data.referenceLabel).arg(m_data.reference, 0, 'f', 3));
        line->setData({0.0, 1.0}, {m_data.reference, m_data.reference});
        line->setPen(QPen(pal.reference, 1.5, Qt::DashLine));
        line->setSelectable(QCP::stNone);
        line->addToLegend(legend);
    }
    for (int i = 0; i < m_data.curves.size(); ++i) {
        const RatioCurve& c = m_data.curves[i];
        const QColor color = pal.seriesColor(c.colorIndex >= 0 ? c.colorIndex : i);
        auto* graph = new QCPGraph(x, y);
        graph->setName(c.name);
        graph->setData(c.ratios, c.values);
        graph->setPen(QPen(color, 2, c.dashed ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(QCPScatterStyle(
            c.dashed ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, color, 6));
        graph->setSelectable(QCP::stNone);
        graph->addToLegend(legend);
    }
    finishRebuild();
}

QString RatioCurvesView::csv() const
{
    CsvTable table({QStringLiteral("series"), QStringLiteral("ratio"), QStringLiteral("value")});
    if (!std::isnan(m_data.reference))
        table.add(m_data.referenceLabel).add(0.0).add(m_data.reference).endRow();
    for (const RatioCurve& c : m_data.curves)
        for (int i = 0; i < c.ratios.size(); ++i)
            table.add(c.name).add(c.ratios[i]).add(c.values.value(i, std::nan(""))).endRow();
    return table.text();
}

} // namespace kvl
