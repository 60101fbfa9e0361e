#include "ratiocurvesview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <algorithm>
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
    QVector<double> ratios;
    for (const RatioCurve& c : m_data.curves)
        ratios += c.ratios;
    const RatioAxes axes =
        resetToRatioAxes(m_data.valueLabel, ratios, int(m_data.curves.size()), m_data.ratioLabel);
    if (!m_data.pointKeyName.isEmpty()) {
        // Steps are whole numbers: ticks on them, never at 2.5.
        QSharedPointer<QCPAxisTickerFixed> steps(new QCPAxisTickerFixed);
        steps->setTickStep(1.0);
        steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axes.x->setTicker(steps);
    }
    if (!std::isnan(m_data.reference)) {
        QString name =
            QStringLiteral("%1 (%2").arg(m_data.referenceLabel).arg(m_data.reference, 0, 'f', 3);
        if (m_data.referenceN > 0)
            name += QStringLiteral(", ") + tr("n = %1").arg(m_data.referenceN);
        addReferenceLine(axes, name + QLatin1Char(')'), m_data.reference, m_data.referenceLo,
                         m_data.referenceHi);
    }
    // A grid of curves (compressor × instruction) gets a grouped legend: colours in one
    // column, line styles in the other, instead of one entry per curve.
    const bool grouped = !m_data.colorNames.isEmpty() && !m_data.styleNames.isEmpty();
    for (int i = 0; i < m_data.curves.size(); ++i) {
        const RatioCurve& c = m_data.curves[i];
        const int colorIndex = c.colorIndex >= 0 ? c.colorIndex : i;
        RatioSeries series;
        const QString n = nRange(c.n);
        series.name = grouped       ? QString()
                      : n.isEmpty() ? c.name
                                    : QStringLiteral("%1 (%2)").arg(c.name, n);
        series.pointName = c.name;
        series.keyName = m_data.pointKeyName;
        series.ratios = c.ratios;
        series.values = c.values;
        series.n = c.n;
        series.successes = c.successes;
        series.lo = c.lo;
        series.hi = c.hi;
        series.color = viewPalette().seriesColor(colorIndex);
        series.shapeIndex = colorIndex;
        series.penStyle = c.styleIndex >= 0 ? penStyleFor(c.styleIndex)
                          : c.dashed        ? Qt::DashLine
                                            : Qt::SolidLine;
        series.hollow = c.dashed && c.styleIndex < 0;
        addRatioCurve(axes, series)->setSelectable(QCP::stNone);
    }
    if (grouped) {
        for (int i = 0; i < m_data.colorNames.size(); ++i)
            addLegendKey(axes, m_data.colorNames[i], viewPalette().seriesColor(i), Qt::SolidLine, i,
                         false, 0);
        for (int j = 0; j < m_data.styleNames.size(); ++j)
            addLegendKey(axes, m_data.styleNames[j], viewPalette().foreground, penStyleFor(j), -1,
                         false, 1);
    }
    finishRatioPlot(axes, m_data.intervalNote);
}

Qt::PenStyle RatioCurvesView::penStyleFor(int styleIndex)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};
    return styles[std::max(0, styleIndex) % 5];
}

QString RatioCurvesView::csv() const
{
    // The x column is named for what it holds: the compression ratio, or the step.
    const QString key =
        m_data.pointKeyName.isEmpty() ? QStringLiteral("ratio") : QStringLiteral("step");
    CsvTable table({QStringLiteral("series"), key, QStringLiteral("value"), QStringLiteral("n"),
                    QStringLiteral("ci95_low"), QStringLiteral("ci95_high")});
    auto count = [](int n) { return n > 0 ? QString::number(n) : QString(); };
    if (!std::isnan(m_data.reference))
        table.add(m_data.referenceLabel)
            .add(0.0)
            .add(m_data.reference)
            .add(count(m_data.referenceN))
            .add(m_data.referenceLo)
            .add(m_data.referenceHi)
            .endRow();
    for (const RatioCurve& c : m_data.curves)
        for (int i = 0; i < c.ratios.size(); ++i)
            table.add(c.name)
                .add(c.ratios[i])
                .add(c.values.value(i, std::nan("")))
                .add(count(c.n.value(i)))
                .add(c.lo.value(i, std::nan("")))
                .add(c.hi.value(i, std::nan("")))
                .endRow();
    return table.text();
}

} // namespace kvl
