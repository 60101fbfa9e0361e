#include "heatmapview.h"

#include "csvtable.h"

#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {

namespace {

// Evicted entries are washed with translucent grey: still readable, visibly gone.
QCPColorGradient evictionWash()
{
    QCPColorGradient wash;
    wash.clearColorStops();
    wash.setColorStopAt(0.0, QColor(150, 150, 150, 0));
    wash.setColorStopAt(1.0, QColor(150, 150, 150, 165));
    wash.setLevelCount(64);
    return wash;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent)
    : PooledMapView(tr("Question attention over the context"),
                    tr("No run open.\nThe heatmap shows where the question's attention goes in "
                       "the context, per layer or head, with evidence spans and evicted entries "
                       "marked."),
                    ColorMap::Viridis, parent)
{
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, &HeatmapView::onMouseMove);
}

void HeatmapView::setData(const Heatmap& data)
{
    m_data = data;
    dataReplaced();
    if (!m_data.isValid())
        m_data = {}; // a malformed matrix is not drawn half-way
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void HeatmapView::clear()
{
    m_data = {};
    dropPooled();
    setHasData(false);
}

void HeatmapView::setLogScale(bool on)
{
    m_logScale = on;
    if (hasData())
        rebuild();
}

QString HeatmapView::rowLabel(int row) const
{
    return m_data.rowLabels.value(row, QString::number(row));
}

void HeatmapView::rebuild()
{
    poolThenDraw(m_data.values, m_data.rows, m_data.cols, PoolMode::Max, m_data.evicted);
}

void HeatmapView::drawPooled()
{
    const ViewPalette& pal = viewPalette();
    m_rect = resetToMapAxes();
    QCPAxis* x = m_rect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_rect->axis(QCPAxis::atLeft);
    const int rows = m_data.rows;
    const int cols = m_data.cols;
    const bool withMask = !m_data.evicted.isEmpty();
    const double band = m_data.evidence.isEmpty() && !withMask ? 0.0 : std::max(0.6, rows * 0.06);
    y->setRange(-0.5, rows - 0.5 + band * 1.4);
    const PooledGrid& grid = pooled();
    const bool pooledDown = grid.bins < cols;
    x->setLabel(pooledDown ? tr("Context position (max over %1 bins of %2 positions)")
                                 .arg(grid.bins)
                                 .arg(binWidthText(grid))
                           : tr("Context position"));
    if (withMask)
        x->setLabel(x->label() + tr(" · greyed cells: evicted entries"));
    y->setLabel(m_data.rowKind == QLatin1String("head") ? tr("Head") : tr("Layer"));
    setRowTicks(y, rows, m_data.rowLabels);

    QCPColorMap* map = addPooledColorMap(x, y, grid.values);
    double top = 0.0;
    for (double v : grid.values)
        if (!std::isnan(v))
            top = std::max(top, v);
    map->setGradient(colorGradient(colorMap()));
    if (m_logScale) {
        map->setDataScaleType(QCPAxis::stLogarithmic);
        map->setDataRange(QCPRange(std::max(top * 1e-4, 1e-12), std::max(top, 1e-11)));
    } else {
        map->setDataRange(QCPRange(0.0, top > 0 ? top : 1.0));
    }
    addColorScale(m_rect, map, tr("Attention"));

    if (!grid.flaggedFraction.isEmpty()) {
        QCPColorMap* wash = addPooledColorMap(x, y, grid.flaggedFraction);
        wash->setGradient(evictionWash());
        wash->setDataRange(QCPRange(0.0, 1.0));
    }

    const QColor evidenceColor = pal.series.at(1);
    for (const PositionSpan& span : m_data.evidence) {
        auto* box = new QCPItemRect(plot());
        box->setClipAxisRect(m_rect);
        box->topLeft->setAxes(x, y);
        box->bottomRight->setAxes(x, y);
        box->topLeft->setCoords(span.begin - 0.5, rows - 0.5);
        box->bottomRight->setCoords(span.end - 0.5, -0.5);
        box->setPen(QPen(evidenceColor, 1.5, Qt::DashLine));
        auto* mark = new QCPItemRect(plot());
        mark->setClipAxisRect(m_rect);
        mark->topLeft->setAxes(x, y);
        mark->bottomRight->setAxes(x, y);
        // At least a few pixels wide, so a one-token evidence span is still visible.
        const double minWidth = 4.0 * cols / std::max(1, targetBins());
        const double mid = (span.begin + span.end) / 2.0 - 0.5;
        const double half = std::max((span.end - span.begin) / 2.0, minWidth / 2);
        mark->topLeft->setCoords(mid - half, rows - 0.5 + band * 1.3);
        mark->bottomRight->setCoords(mid + half, rows - 0.5 + band * 0.3);
        mark->setPen(Qt::NoPen);
        mark->setBrush(evidenceColor);
        auto* text = new QCPItemText(plot());
        text->setClipAxisRect(m_rect);
        text->position->setAxes(x, y);
        text->position->setCoords(mid + half, rows - 0.5 + band * 0.8);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(4, 0, 0, 0));
        text->setText(span.label.isEmpty() ? tr("evidence") : span.label);
        text->setColor(pal.foreground);
    }
    finishRebuild();
}

QString HeatmapView::csv() const
{
    const QString kind = m_data.rowKind.isEmpty() ? QStringLiteral("row") : m_data.rowKind;
    CsvTable table({kind, QStringLiteral("position"), QStringLiteral("value"),
                    QStringLiteral("evicted"), QStringLiteral("evidence")});
    QVector<bool> isEvidence(m_data.cols, false);
    for (const PositionSpan& span : m_data.evidence)
        for (int c = std::max(0, span.begin); c < std::min(span.end, m_data.cols); ++c)
            isEvidence[c] = true;
    const bool withMask = !m_data.evicted.isEmpty();
    for (int r = 0; r < m_data.rows; ++r)
        for (int c = 0; c < m_data.cols; ++c) {
            const qsizetype i = qsizetype(r) * m_data.cols + c;
            table.add(rowLabel(r)).add(c).add(m_data.values[i]);
            table.add(withMask ? QString::number(m_data.evicted[i] ? 1 : 0) : QString());
            table.add(isEvidence[c] ? 1 : 0).endRow();
        }
    return table.text();
}

void HeatmapView::onMouseMove(QMouseEvent* event)
{
    const PooledGrid& grid = pooled();
    if (!hasData() || !m_rect || !m_rect->rect().contains(event->pos()) || grid.bins == 0)
        return;
    const double px = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
    const int row = int(std::lround(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(event->pos().y())));
    const int col = int(std::lround(px));
    if (row < 0 || row >= m_data.rows || col < 0 || col >= m_data.cols) {
        QToolTip::hideText();
        return;
    }
    const int bin = binOfColumn(grid.edges, col);
    const int begin = grid.edges[bin];
    const int end = grid.edges[bin + 1];
    QString text =
        tr("%1 %2 · positions %3–%4 · max attention %5")
            .arg(m_data.rowKind == QLatin1String("head") ? tr("head") : tr("layer"), rowLabel(row))
            .arg(begin)
            .arg(end - 1)
            .arg(grid.value(row, bin), 0, 'g', 4);
    if (!grid.flaggedFraction.isEmpty())
        text += tr(" · evicted %1%")
                    .arg(std::lround(100 * grid.flaggedFraction[row * grid.bins + bin]));
    QToolTip::showText(event->globalPosition().toPoint(), text, plot());
}

} // namespace kvl
