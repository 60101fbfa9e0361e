#include "headgridview.h"

#include "colorscaleticks.h"
#include "headselection.h"
#include "heatmapview.h"

#include <QMouseEvent>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {

namespace {

constexpr int kMinVisible = 8;

} // namespace

HeadGridView::HeadGridView(QWidget* parent)
    : PlotView(tr("Question attention, every layer × kv-head"),
               tr("No per-head attention drawn.\nChoose \"Every layer × kv-head\" on a sample "
                  "whose attention is stored per kv-head: one small panel per layer and "
                  "kv-head, on one colour scale."),
               parent)
{
    plot()->installEventFilter(this);
    plot()->setMouseTracking(true);
}

void HeadGridView::setData(const Heatmap& data)
{
    const bool perHead = data.isValid() && data.kvHeads > 0 && !data.perHead.isEmpty();
    if (!perHead) {
        clear();
        if (data.isValid() && !data.isEmpty())
            setEmptyHint(tr("This attention has no per-head values (the run stored the mean "
                            "over kv-heads of each layer): there are no heads to draw."));
        return;
    }
    const bool sameLength = data.cols == m_source.cols;
    m_source = data;
    HeadSelection every;
    every.mode = HeadSelection::Mode::EveryHead;
    m_every = selectHeads(m_source, every);
    if (!sameLength || m_viewEnd <= m_viewBegin) {
        m_viewBegin = 0;
        m_viewEnd = m_source.cols;
    }
    setHasData(true);
    rebuild();
}

void HeadGridView::clear()
{
    m_source = {};
    m_every = {};
    m_panels.clear();
    m_viewBegin = m_viewEnd = 0;
    setHasData(false);
}

void HeadGridView::setColorMap(ColorMap map)
{
    m_colorMap = map;
    if (hasData())
        rebuild();
}

QCPAxisRect* HeadGridView::panel(int layer, int head) const
{
    if (layer < 0 || head < 0 || layer >= layers() || head >= kvHeads())
        return nullptr;
    return m_panels.value(layer * kvHeads() + head);
}

void HeadGridView::setVisibleRange(int begin, int end)
{
    const int cols = m_source.cols;
    if (cols <= 0)
        return;
    const int width = std::min(cols, std::max(kMinVisible, end - begin));
    begin = std::clamp(begin, 0, cols - width);
    if (begin == m_viewBegin && begin + width == m_viewEnd)
        return;
    m_viewBegin = begin;
    m_viewEnd = begin + width;
    rebuild();
    emit visibleRangeChanged(m_viewBegin, m_viewEnd);
}

void HeadGridView::rebuild()
{
    resetPlot();
    m_panels.clear();
    if (!hasData())
        return;
    const ViewPalette& pal = viewPalette();
    const int nLayers = layers();
    const int nHeads = kvHeads();
    // Panels in a grid of their own, the one colour bar right of it at full height.
    auto* grid = new QCPLayoutGrid;
    plot()->plotLayout()->addElement(1, 0, grid);
    grid->setRowSpacing(2);
    grid->setColumnSpacing(6);
    QFont small = plot()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    auto* margins = new QCPMarginGroup(plot());
    for (int h = 0; h < nHeads; ++h) {
        auto* header = new QCPTextElement(plot(), tr("kv-head %1").arg(h), small);
        header->setTextColor(pal.foreground);
        grid->addElement(0, h, header);
    }
    // Bins per panel: its share of the plot's width, never more than the positions shown.
    const int visible = m_viewEnd - m_viewBegin;
    const int panelWidth = std::max(32, (plot()->width() - 140) / std::max(1, nHeads));
    const int bins = std::clamp(panelWidth, 1, visible);
    const PooledGrid pooled =
        poolColumnRange(m_every.values, m_every.rows, m_every.cols, m_viewBegin, m_viewEnd, bins,
                        PoolMode::Max, m_every.evicted);
    double top = 0.0;
    for (double v : pooled.values)
        if (!std::isnan(v))
            top = std::max(top, v);
    m_colorRange = {0.0, top > 0 ? top : 1.0};
    const QCPRange range(m_viewBegin - 0.5, m_viewEnd - 0.5);
    for (int l = 0; l < nLayers; ++l)
        for (int h = 0; h < nHeads; ++h) {
            auto* rect = new QCPAxisRect(plot());
            grid->addElement(1 + l, h, rect);
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
            rect->setupFullAxesBox(false);
            QCPAxis* x = rect->axis(QCPAxis::atBottom);
            QCPAxis* y = rect->axis(QCPAxis::atLeft);
            for (QCPAxis* axis : rect->axes()) {
                axis->grid()->setVisible(false);
                axis->setTicks(false);
                axis->setTickLabels(false);
            }
            x->setRange(range);
            y->setRange(-0.5, 0.5);
            if (h == 0) {
                y->setLabel(QStringLiteral("L%1").arg(l));
                y->setLabelFont(small);
                y->setLabelPadding(2);
            }
            // Two value cells over [-0.5, 0.5]: QCustomPlot draws a one-cell-high map with
            // no height at all.
            auto* map = new QCPColorMap(x, y);
            map->data()->setSize(pooled.bins, 2);
            // Cells centred on their bins of positions.
            const double firstCentre = (pooled.edges.front() + pooled.edges[1] - 1) / 2.0;
            const double lastCentre =
                (pooled.edges[pooled.bins - 1] + pooled.edges.back() - 1) / 2.0;
            map->data()->setRange(QCPRange(firstCentre, std::max(firstCentre, lastCentre)),
                                  QCPRange(-0.25, 0.25));
            const int row = l * nHeads + h;
            for (int b = 0; b < pooled.bins; ++b)
                for (int v : {0, 1})
                    map->data()->setCell(b, v, pooled.value(row, b));
            map->setInterpolate(false);
            map->setGradient(colorGradient(m_colorMap));
            map->setDataRange(QCPRange(m_colorRange.first, m_colorRange.second));
            if (!pooled.flaggedFraction.isEmpty()) {
                auto* wash = new QCPColorMap(x, y);
                wash->data()->setSize(pooled.bins, 2);
                wash->data()->setRange(map->data()->keyRange(), QCPRange(-0.25, 0.25));
                for (int b = 0; b < pooled.bins; ++b)
                    for (int v : {0, 1})
                        wash->data()->setCell(b, v, pooled.flaggedFraction[row * pooled.bins + b]);
                wash->setInterpolate(false);
                wash->setGradient(HeatmapView::evictionWash());
                wash->setDataRange(QCPRange(0.0, 1.0));
            }
            for (const PositionSpan& span : m_source.evidence) {
                auto* box = new QCPItemRect(plot());
                box->setClipAxisRect(rect);
                box->topLeft->setAxes(x, y);
                box->bottomRight->setAxes(x, y);
                box->topLeft->setCoords(span.begin - 0.5, 0.5);
                box->bottomRight->setCoords(span.end - 0.5, -0.5);
                box->setPen(QPen(pal.series.at(1), 1.2, Qt::DashLine));
            }
            m_panels.push_back(rect);
        }
    // Under each column a rect of no height that carries only the position axis: every
    // panel keeps the same height, the last row's included.
    auto* axisMargins = new QCPMarginGroup(plot()); // the axes in line, labelled or not
    for (int h = 0; h < nHeads; ++h) {
        auto* axisRow = new QCPAxisRect(plot());
        grid->addElement(1 + nLayers, h, axisRow);
        axisRow->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        axisRow->setMarginGroup(QCP::msBottom, axisMargins);
        // Its height is its ticks and label (the outer rect), nothing inside them.
        const int height = QFontMetrics(small).height() * 2 + QFontMetrics(plot()->font()).height();
        axisRow->setSizeConstraintRect(QCPLayoutElement::scrOuterRect);
        axisRow->setMinimumSize(0, height);
        axisRow->setMaximumSize(QWIDGETSIZE_MAX, height);
        axisRow->setBackground(Qt::NoBrush);
        for (QCPAxis* axis : axisRow->axes())
            axis->setVisible(axis->axisType() == QCPAxis::atBottom);
        QCPAxis* x = axisRow->axis(QCPAxis::atBottom);
        x->grid()->setVisible(false);
        x->setRange(range);
        x->setTickLabelFont(small);
        if (h == 0)
            x->setLabel(pooled.bins < visible
                            ? tr("Context position (max over %1 bins of %2 positions)")
                                  .arg(pooled.bins)
                                  .arg(binWidthText(pooled))
                            : tr("Context position"));
    }
    auto* scale = new QCPColorScale(plot());
    plot()->plotLayout()->addElement(1, 1, scale);
    scale->setType(QCPAxis::atRight);
    scale->setGradient(colorGradient(m_colorMap));
    scale->setDataRange(QCPRange(m_colorRange.first, m_colorRange.second));
    scale->axis()->setLabel(tr("Attention (one scale)"));
    scale->setBarWidth(10);
    fitColorScaleTicks(scale);
    plot()->plotLayout()->setColumnStretchFactor(1, 0.01);
    finishRebuild();
}

QPoint HeadGridView::panelAt(const QPoint& pos) const
{
    for (int i = 0; i < m_panels.size(); ++i)
        if (m_panels[i]->rect().contains(pos))
            return QPoint(i / std::max(1, kvHeads()), i % std::max(1, kvHeads()));
    return QPoint(-1, -1);
}

bool HeadGridView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != plot() || !hasData())
        return PlotView::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() == Qt::LeftButton)
            m_pressPos = e->position().toPoint();
        break;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        const QPoint pos = e->position().toPoint();
        // A click, not a drag: that panel's head.
        if (e->button() == Qt::LeftButton && m_pressPos.x() >= 0 &&
            (pos - m_pressPos).manhattanLength() <= 4) {
            const QPoint at = panelAt(pos);
            if (at.x() >= 0)
                emit headSelected(at.x(), at.y());
        }
        m_pressPos = QPoint(-1, -1);
        break;
    }
    case QEvent::MouseButtonDblClick:
        resetZoom();
        return true;
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const QPoint at = panelAt(e->position().toPoint());
        if (at.x() < 0 || e->angleDelta().y() == 0)
            break;
        // Zoom around the position under the cursor, in every panel.
        const QCPAxis* x = panel(at.x(), at.y())->axis(QCPAxis::atBottom);
        const double anchor = x->pixelToCoord(e->position().x()) + 0.5;
        const double factor = e->angleDelta().y() > 0 ? 0.8 : 1.25;
        const double width = (m_viewEnd - m_viewBegin) * factor;
        const double share = (anchor - m_viewBegin) / std::max(1, m_viewEnd - m_viewBegin);
        const int begin = int(std::lround(anchor - share * width));
        setVisibleRange(begin, begin + int(std::lround(width)));
        return true;
    }
    default:
        break;
    }
    return PlotView::eventFilter(watched, event);
}

QString HeadGridView::csv() const
{
    return HeatmapView::csvOf(m_every);
}

} // namespace kvl
