#include "evictionmapview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <algorithm>

namespace kvl {

EvictionMapView::EvictionMapView(QWidget* parent)
    : PooledMapView(tr("Eviction map over instruction spans"),
                    tr("No run open.\nThe eviction map shows, per layer and context position, "
                       "the share of kv-heads that keep each token, under the instruction spans."),
                    ColorMap::Cividis, parent)
{}

void EvictionMapView::setData(const EvictionMap& data)
{
    m_data = data;
    dataReplaced();
    if (!m_data.isValid())
        m_data = {};
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void EvictionMapView::clear()
{
    m_data = {};
    dropPooled();
    setHasData(false);
}

void EvictionMapView::rebuild()
{
    poolThenDraw(m_data.keep, m_data.layers, m_data.positions, PoolMode::Mean);
}

void EvictionMapView::drawPooled()
{
    const ViewPalette& pal = viewPalette();
    const int layers = m_data.layers;
    const int positions = m_data.positions;
    QCPAxisRect* rect = resetToMapAxes();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    // A strip under the map for the span bands: about a tenth of the plot, whatever the
    // number of layers (a fixed row's height took a quarter of a four-layer map).
    const double band = m_data.spans.isEmpty() ? 0.0 : std::max(0.2, layers * 0.09);
    y->setRange(-0.5 - band * 1.25, layers - 0.5);
    const PooledGrid& grid = pooled();
    const int visible = visibleEnd() - visibleBegin();
    QString label =
        grid.bins < visible
            ? tr("Context position (mean over bins of %1 positions)").arg(binWidthText(grid))
            : tr("Context position");
    if (isZoomed())
        label += tr(" · %1–%2 of %3").arg(visibleBegin()).arg(visibleEnd() - 1).arg(positions);
    x->setLabel(label);
    y->setLabel(tr("Layer"));
    setRowTicks(y, layers);

    QCPColorMap* map = addPooledColorMap(x, y, grid.values);
    map->setGradient(colorGradient(colorMap()));
    map->setDataRange(QCPRange(0.0, 1.0));
    addColorScale(rect, map, tr("Keep fraction (share of kv-heads)"));

    // A one-row legend of the roles under the plot: the colours of the bands.
    QStringList roles;
    for (const RoleSpan& span : m_data.spans)
        if (!roles.contains(span.role))
            roles << span.role;
    if (!roles.isEmpty()) {
        auto* row = new QCPLayoutGrid;
        plot()->plotLayout()->addElement(2, 0, row);
        plot()->plotLayout()->setRowStretchFactor(2, 0.001);
        auto* legend = new QCPLegend;
        row->addElement(0, 0, new QCPLayoutElement(plot())); // centres the legend
        row->addElement(0, 1, legend);
        row->addElement(0, 2, new QCPLayoutElement(plot()));
        row->setColumnStretchFactor(1, 0.001);
        legend->setLayer(QStringLiteral("legend"));
        legend->setFillOrder(QCPLegend::foColumnsFirst);
        legend->setWrap(0);
        legend->setBrush(Qt::NoBrush);
        legend->setBorderPen(Qt::NoPen);
        legend->setTextColor(pal.foreground);
        legend->setMargins(QMargins(0, 0, 0, 0));
        for (const QString& role : roles) {
            auto* swatch = new QCPBars(x, y); // no data: a legend entry only
            swatch->setName(role);
            swatch->setBrush(pal.roleColor(role));
            swatch->setPen(Qt::NoPen);
            swatch->addToLegend(legend);
        }
    }
    QVector<SpanBand> bands;
    QVector<QColor> colors;
    for (const RoleSpan& span : m_data.spans) {
        bands.push_back({span.begin, span.end, span.label.isEmpty() ? span.role : span.label});
        colors.push_back(pal.roleColor(span.role));
        // Span edges continue faintly through the map, so a band's layers can be read off.
        for (int edge : {span.begin, span.end}) {
            auto* line = new QCPItemLine(plot());
            line->setClipAxisRect(rect);
            line->start->setAxes(x, y);
            line->end->setAxes(x, y);
            line->start->setCoords(edge - 0.5, -0.5);
            line->end->setCoords(edge - 0.5, layers - 0.5);
            QColor c = pal.foreground;
            c.setAlpha(90);
            line->setPen(QPen(c, 1, Qt::DotLine));
        }
    }
    addSpanBands(bands, colors, -0.5 - band * 1.2, -0.5 - band * 0.2);
    finishRebuild();
}

QString EvictionMapView::describeCell(int row, int bin) const
{
    const PooledGrid& grid = pooled();
    const int begin = grid.edges[bin];
    const int end = grid.edges[bin + 1];
    const QString where =
        end - begin > 1 ? tr(" (mean of positions %1–%2)").arg(begin).arg(end - 1) : QString();
    return tr("layer %1 · keep fraction %2%3")
        .arg(row)
        .arg(grid.value(row, bin), 0, 'g', 3)
        .arg(where);
}

std::optional<QString> EvictionMapView::tokenAt(int position) const
{
    if (m_data.tokens.size() != m_data.positions)
        return std::nullopt;
    return m_data.tokens.value(position);
}

QString EvictionMapView::csv() const
{
    CsvTable table({QStringLiteral("layer"), QStringLiteral("position"), QStringLiteral("keep"),
                    QStringLiteral("span_role"), QStringLiteral("span_label")});
    QVector<int> spanOf(m_data.positions, -1);
    for (int s = 0; s < m_data.spans.size(); ++s)
        for (int p = std::max(0, m_data.spans[s].begin);
             p < std::min(m_data.spans[s].end, m_data.positions); ++p)
            spanOf[p] = s;
    for (int l = 0; l < m_data.layers; ++l)
        for (int p = 0; p < m_data.positions; ++p) {
            table.add(l).add(p).add(m_data.keep[qsizetype(l) * m_data.positions + p]);
            const RoleSpan span = spanOf[p] >= 0 ? m_data.spans[spanOf[p]] : RoleSpan{};
            table.add(span.role).add(span.label).endRow();
        }
    return table.text();
}

} // namespace kvl
