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
    : PlotView(tr("Question attention over the context"),
               tr("No run open.\nThe heatmap shows where the question's attention goes in the "
                  "context, per layer or head, with evidence spans and evicted entries marked."),
               parent),
      m_pooler(new AsyncPooler(this))
{
    connect(m_pooler, &AsyncPooler::pooledAvailable, this, [this](const PooledGrid& grid) {
        m_pooled = grid;
        m_pooledVersion = m_requestVersion;
        if (hasData())
            drawPooled();
    });
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, &HeatmapView::onMouseMove);
}

void HeatmapView::setData(const Heatmap& data)
{
    m_data = data;
    ++m_dataVersion;
    if (!m_data.isValid())
        m_data = {}; // a malformed matrix is not drawn half-way
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void HeatmapView::clear()
{
    m_data = {};
    m_pooled = {};
    ++m_dataVersion;
    m_pooler->cancel();
    setHasData(false);
}

void HeatmapView::setColorMap(ColorMap map)
{
    m_colorMap = map;
    if (hasData())
        rebuild();
}

void HeatmapView::setLogScale(bool on)
{
    m_logScale = on;
    if (hasData())
        rebuild();
}

void HeatmapView::setMaxBins(int bins)
{
    m_maxBins = std::max(0, bins);
    if (hasData())
        rebuild();
}

int HeatmapView::targetBins() const
{
    if (m_maxBins > 0)
        return m_maxBins;
    // The axis rect is the plot minus its margins (axis labels, colour scale).
    return std::max(64, plot()->width() - 150);
}

QString HeatmapView::rowLabel(int row) const
{
    return m_data.rowLabels.value(row, QString::number(row));
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    PlotView::resizeEvent(event);
    // Re-pool only when the pixel width changes what is drawn.
    if (hasData() && m_maxBins == 0 && m_data.cols > m_pooled.bins &&
        std::min(targetBins(), m_data.cols) != m_pooled.bins)
        rebuild();
}

void HeatmapView::rebuild()
{
    const int bins = std::clamp(targetBins(), 1, m_data.cols);
    if (m_pooledVersion == m_dataVersion && m_pooled.bins == bins) {
        drawPooled(); // palette or colour-map change: the pooled grid still holds
        return;
    }
    m_requestVersion = m_dataVersion;
    if (auto grid = m_pooler->request(m_data.values, m_data.rows, m_data.cols, bins, PoolMode::Max,
                                      m_data.evicted)) {
        m_pooled = *grid;
        m_pooledVersion = m_dataVersion;
        drawPooled();
    }
}

void HeatmapView::drawPooled()
{
    const ViewPalette& pal = viewPalette();
    resetPlot();
    m_rect = addAxisRect(1, 0);
    QCPAxis* x = m_rect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_rect->axis(QCPAxis::atLeft);
    const int rows = m_data.rows;
    const int cols = m_data.cols;
    const bool withMask = !m_data.evicted.isEmpty();
    const double band = m_data.evidence.isEmpty() && !withMask ? 0.0 : std::max(0.6, rows * 0.06);
    x->setRange(-0.5, cols - 0.5);
    y->setRange(-0.5, rows - 0.5 + band * 1.4);
    x->grid()->setVisible(false);
    y->grid()->setVisible(false);
    const bool pooledDown = m_pooled.bins < cols;
    x->setLabel(pooledDown ? tr("Context position (max over %1 bins of ~%2 positions)")
                                 .arg(m_pooled.bins)
                                 .arg(double(cols) / m_pooled.bins, 0, 'f', 1)
                           : tr("Context position"));
    if (withMask)
        x->setLabel(x->label() + tr(" · greyed cells: evicted entries"));
    y->setLabel(m_data.rowKind == QLatin1String("head") ? tr("Head") : tr("Layer"));
    setRowTicks(y, rows, m_data.rowLabels);

    // Cell b is drawn centred on its bin; bins are as wide as cols / bins positions.
    const double width = double(cols) / m_pooled.bins;
    const QCPRange keyRange(width / 2 - 0.5, cols - width / 2 - 0.5);
    auto* map = new QCPColorMap(x, y);
    map->data()->setSize(m_pooled.bins, rows);
    map->data()->setRange(keyRange, QCPRange(0, rows - 1));
    double top = 0.0;
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < m_pooled.bins; ++b) {
            const double v = m_pooled.value(r, b);
            map->data()->setCell(b, r, v);
            if (!std::isnan(v))
                top = std::max(top, v);
        }
    map->setInterpolate(false);
    map->setGradient(colorGradient(m_colorMap));
    if (m_logScale) {
        map->setDataScaleType(QCPAxis::stLogarithmic);
        map->setDataRange(QCPRange(std::max(top * 1e-4, 1e-12), std::max(top, 1e-11)));
    } else {
        map->setDataRange(QCPRange(0.0, top > 0 ? top : 1.0));
    }
    auto* scale = new QCPColorScale(plot());
    plot()->plotLayout()->addElement(1, 1, scale);
    scale->setGradient(map->gradient());
    scale->setDataScaleType(map->dataScaleType());
    scale->setDataRange(map->dataRange());
    scale->axis()->setLabel(tr("Attention"));
    map->setColorScale(scale);
    auto* group = new QCPMarginGroup(plot());
    m_rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    pal.applyTo(scale->axis());

    if (!m_pooled.flaggedFraction.isEmpty()) {
        auto* wash = new QCPColorMap(x, y);
        wash->data()->setSize(m_pooled.bins, rows);
        wash->data()->setRange(keyRange, QCPRange(0, rows - 1));
        for (int r = 0; r < rows; ++r)
            for (int b = 0; b < m_pooled.bins; ++b)
                wash->data()->setCell(b, r, m_pooled.flaggedFraction[r * m_pooled.bins + b]);
        wash->setInterpolate(false);
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
    if (!hasData() || !m_rect || !m_rect->rect().contains(event->pos()) || m_pooled.bins == 0)
        return;
    const double px = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
    const int row = int(std::lround(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(event->pos().y())));
    const int col = int(std::lround(px));
    if (row < 0 || row >= m_data.rows || col < 0 || col >= m_data.cols) {
        QToolTip::hideText();
        return;
    }
    const int bin = binOfColumn(m_pooled.edges, col);
    const int begin = m_pooled.edges[bin];
    const int end = m_pooled.edges[bin + 1];
    QString text =
        tr("%1 %2 · positions %3–%4 · max attention %5")
            .arg(m_data.rowKind == QLatin1String("head") ? tr("head") : tr("layer"), rowLabel(row))
            .arg(begin)
            .arg(end - 1)
            .arg(m_pooled.value(row, bin), 0, 'g', 4);
    if (!m_pooled.flaggedFraction.isEmpty())
        text += tr(" · evicted %1%")
                    .arg(std::lround(100 * m_pooled.flaggedFraction[row * m_pooled.bins + bin]));
    QToolTip::showText(event->globalPosition().toPoint(), text, plot());
}

} // namespace kvl
