#include "ratiocurvesview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <cmath>

namespace kvl {

RatioCurvesView::RatioCurvesView(const QString& title, const QString& emptyHint, QWidget* parent)
    : RatioPlotView(title, emptyHint, parent)
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
    const RatioAxes axes = resetToRatioAxes(m_data.valueLabel);
    if (!std::isnan(m_data.reference))
        addReferenceLine(
            axes,
            QStringLiteral("%1 (%2)").arg(m_data.referenceLabel).arg(m_data.reference, 0, 'f', 3),
            m_data.reference);
    for (int i = 0; i < m_data.curves.size(); ++i) {
        const RatioCurve& c = m_data.curves[i];
        const QColor color = viewPalette().seriesColor(c.colorIndex >= 0 ? c.colorIndex : i);
        addRatioCurve(axes, c.name, c.ratios, c.values, color, c.dashed)
            ->setSelectable(QCP::stNone);
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
