#include "retrievalmapview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {

RetrievalMapView::RetrievalMapView(QWidget* parent)
    : PooledMapView(tr("Retrieval map: decoding step × context position"),
                    tr("No retrieval map for this row.\nRuns of offloading presses (shadowkv, "
                       "quest, yakv) store, per decoding step, which context positions each "
                       "step retrieved; pick such a row."),
                    ColorMap::Viridis, parent)
{
    setObjectName(QStringLiteral("RetrievalMap"));
}

void RetrievalMapView::setData(const RetrievalMapData& data)
{
    m_data = data;
    dataReplaced();
    if (!m_data.isValid())
        m_data = {};
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void RetrievalMapView::clear()
{
    m_data = {};
    dropPooled();
    setHasData(false);
}

void RetrievalMapView::rebuild()
{
    poolThenDraw(m_data.shares, m_data.steps, m_data.positions, PoolMode::Mean);
}

void RetrievalMapView::drawPooled()
{
    const ViewPalette& pal = viewPalette();
    const int steps = m_data.steps;
    QCPAxisRect* rect = resetToMapAxes();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    // Steps run downwards, as the answer is read; the field bands sit under the map.
    y->setRangeReversed(true);
    const double band = m_data.fields.isEmpty() ? 0.0 : std::max(0.3, steps * 0.09);
    y->setRange(-0.5, steps - 0.5 + band * 1.25);
    const PooledGrid& grid = pooled();
    const int visible = visibleEnd() - visibleBegin();
    QString label =
        grid.bins < visible
            ? tr("Context position (mean over bins of %1 positions)").arg(binWidthText(grid))
            : tr("Context position");
    if (isZoomed())
        label +=
            tr(" · %1–%2 of %3").arg(visibleBegin()).arg(visibleEnd() - 1).arg(m_data.positions);
    x->setLabel(label);
    y->setLabel(tr("Decoding step (0 = question)"));
    setRowTicks(y, steps);

    QCPColorMap* map = addPooledColorMap(x, y, grid.values);
    map->setGradient(colorGradient(colorMap()));
    map->setDataRange(QCPRange(0.0, 1.0));
    addColorScale(rect, map, tr("Retrieved share of selections"));

    QVector<SpanBand> bands;
    QVector<QColor> colors;
    for (int i = 0; i < m_data.fields.size(); ++i) {
        const RetrievalField& f = m_data.fields[i];
        const QColor color = pal.seriesColor(i);
        bands.push_back({f.begin, f.end, f.label});
        colors.push_back(color);
        // The evidence's edges run faintly through the map.
        for (int edge : {f.begin, f.end}) {
            auto* line = new QCPItemLine(plot());
            line->setClipAxisRect(rect);
            line->start->setAxes(x, y);
            line->end->setAxes(x, y);
            line->start->setCoords(edge - 0.5, -0.5);
            line->end->setCoords(edge - 0.5, steps - 0.5);
            QColor c = pal.foreground;
            c.setAlpha(70);
            line->setPen(QPen(c, 1, Qt::DotLine));
        }
        // The step that wrote the field, boxed over the field's evidence.
        if (f.step >= 0 && f.step < steps) {
            auto* box = new QCPItemRect(plot());
            box->setClipAxisRect(rect);
            box->topLeft->setAxes(x, y);
            box->bottomRight->setAxes(x, y);
            box->topLeft->setCoords(f.begin - 0.5, f.step - 0.5);
            box->bottomRight->setCoords(f.end - 0.5, f.step + 0.5);
            box->setPen(QPen(color, 2));
            box->setBrush(Qt::NoBrush);
        }
    }
    // The y axis runs downwards: the band's "high" edge is the one nearer the map.
    addSpanBands(bands, colors, steps - 0.5 + band * 1.2, steps - 0.5 + band * 0.2);
    finishRebuild();
}

QString RetrievalMapView::describeCell(int row, int bin) const
{
    const PooledGrid& grid = pooled();
    const int begin = grid.edges[bin];
    const int end = grid.edges[bin + 1];
    const QString where =
        end - begin > 1 ? tr(" (mean of positions %1–%2)").arg(begin).arg(end - 1) : QString();
    QString text = tr("step %1 · retrieved share %2%3")
                       .arg(row)
                       .arg(grid.value(row, bin), 0, 'g', 3)
                       .arg(where);
    if (row < m_data.stepRecall.size() && !std::isnan(m_data.stepRecall[row]))
        text += tr(" · evidence recall of the step %1").arg(m_data.stepRecall[row], 0, 'g', 3);
    QStringList written;
    for (const RetrievalField& f : m_data.fields)
        if (f.step == row)
            written << (std::isnan(f.recall)
                            ? f.label
                            : tr("%1 (recall %2)").arg(f.label).arg(f.recall, 0, 'g', 3));
    if (!written.isEmpty())
        text += tr(" · writes %1").arg(written.join(QStringLiteral(", ")));
    return text;
}

std::optional<QString> RetrievalMapView::tokenAt(int position) const
{
    if (m_data.tokens.size() != m_data.positions)
        return std::nullopt;
    return m_data.tokens.value(position);
}

QString RetrievalMapView::csv() const
{
    CsvTable table({QStringLiteral("step"), QStringLiteral("position"), QStringLiteral("share"),
                    QStringLiteral("field"), QStringLiteral("written_field")});
    QVector<QStringList> fieldsAt(m_data.positions);
    for (const RetrievalField& f : m_data.fields)
        for (int p = std::max(0, f.begin); p < std::min(f.end, m_data.positions); ++p)
            fieldsAt[p] << f.label;
    for (int s = 0; s < m_data.steps; ++s) {
        QStringList written;
        for (const RetrievalField& f : m_data.fields)
            if (f.step == s)
                written << f.label;
        for (int p = 0; p < m_data.positions; ++p)
            table.add(s)
                .add(p)
                .add(m_data.shares[qsizetype(s) * m_data.positions + p])
                .add(fieldsAt[p].join(QLatin1Char(';')))
                .add(written.join(QLatin1Char(';')))
                .endRow();
    }
    return table.text();
}

} // namespace kvl
