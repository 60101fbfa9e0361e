#include "pooledmapview.h"

#include "colorscaleticks.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kvl {

namespace {

// Moves of fewer pixels than this between press and release are a click, not a drag.
constexpr int kClickSlop = 3;

} // namespace

PooledMapView::PooledMapView(const QString& title, const QString& emptyHint, ColorMap colorMap,
                             QWidget* parent)
    : PlotView(title, emptyHint, parent), m_pooler(new AsyncPooler(this)), m_colorMap(colorMap)
{
    connect(m_pooler, &AsyncPooler::pooledAvailable, this, [this](const PooledGrid& grid) {
        m_pooled = grid;
        m_pooledVersion = m_requestVersion;
        if (hasData())
            drawPooled();
    });
    plot()->setMouseTracking(true);
    plot()->setFocusPolicy(Qt::StrongFocus);
    plot()->installEventFilter(this);
}

void PooledMapView::setColorMap(ColorMap map)
{
    m_colorMap = map;
    if (hasData())
        rebuild();
}

void PooledMapView::setMaxBins(int bins)
{
    m_maxBins = std::max(0, bins);
    if (hasData())
        rebuild();
}

void PooledMapView::dropPooled()
{
    m_pooled = {};
    ++m_dataVersion;
    m_pooler->cancel();
    m_values = {};
    m_flags = {};
    m_bands.clear();
    m_bandItems.clear();
    m_mapRect = nullptr;
}

int PooledMapView::targetBins() const
{
    if (m_maxBins > 0)
        return m_maxBins;
    // The axis rect is the plot minus its margins (axis labels, colour scale).
    return std::max(64, plot()->width() - 150);
}

void PooledMapView::plotResized()
{
    // Re-pool only when the pixel width changes what is drawn.
    const int visible = m_viewEnd - m_viewBegin;
    if (hasData() && m_maxBins == 0 && visible > m_pooled.bins &&
        std::min(targetBins(), visible) != m_pooled.bins)
        rebuild();
}

void PooledMapView::poolThenDraw(const QVector<double>& values, int rows, int cols, PoolMode mode,
                                 const QVector<bool>& flags)
{
    if (cols != m_columns || m_viewEnd > cols || m_viewEnd <= m_viewBegin) {
        m_viewBegin = 0;
        m_viewEnd = cols;
    }
    m_columns = cols;
    // QVector copies share their data: no copy of the matrix is made here.
    m_values = values;
    m_flags = flags;
    m_rows = rows;
    m_mode = mode;
    requestPool();
}

void PooledMapView::requestPool()
{
    const int visible = m_viewEnd - m_viewBegin;
    if (visible <= 0)
        return;
    const int bins = std::clamp(targetBins(), 1, visible);
    if (m_pooledVersion == m_dataVersion && m_pooled.bins == bins && !m_pooled.edges.isEmpty() &&
        m_pooled.edges.front() == m_viewBegin && m_pooled.edges.back() == m_viewEnd) {
        drawPooled(); // palette or colour-map change: the pooled grid still holds
        return;
    }
    m_requestVersion = m_dataVersion;
    if (auto grid = m_pooler->requestRange(m_values, m_rows, m_columns, m_viewBegin, m_viewEnd,
                                           bins, m_mode, m_flags)) {
        m_pooled = *grid;
        m_pooledVersion = m_dataVersion;
        drawPooled();
    }
}

void PooledMapView::setVisibleRange(int begin, int end)
{
    if (m_columns <= 0)
        return;
    const int minWidth = std::min(kMinVisible, m_columns);
    if (end - begin < minWidth) {
        const double centre = (begin + end) / 2.0;
        begin = int(std::lround(centre - minWidth / 2.0));
        end = begin + minWidth;
    }
    const int width = std::min(end - begin, m_columns);
    begin = std::clamp(begin, 0, m_columns - width);
    end = begin + width;
    if (begin == m_viewBegin && end == m_viewEnd)
        return;
    m_viewBegin = begin;
    m_viewEnd = end;
    // The drawn map follows at once; the re-pooled one replaces it when ready.
    if (m_mapRect) {
        m_mapRect->axis(QCPAxis::atBottom)->setRange(begin - 0.5, end - 0.5);
        plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    emit visibleRangeChanged(begin, end);
    if (hasData())
        requestPool();
}

void PooledMapView::zoomBy(double factor, double anchor)
{
    const double width = m_viewEnd - m_viewBegin;
    if (width <= 0 || factor <= 0)
        return;
    const double newWidth =
        std::clamp(width * factor, double(std::min(kMinVisible, m_columns)), double(m_columns));
    // The anchor keeps its place on screen: the same share of the view lies left of it.
    const double left = m_viewBegin - 0.5;
    const double share = std::clamp((anchor - left) / width, 0.0, 1.0);
    const int begin = int(std::lround(anchor - share * newWidth + 0.5));
    setVisibleRange(begin, begin + int(std::lround(newWidth)));
}

void PooledMapView::panBy(int positions)
{
    setVisibleRange(m_viewBegin + positions, m_viewEnd + positions);
}

bool PooledMapView::zoomToSpan(int index)
{
    if (index < 0 || index >= m_bands.size())
        return false;
    const SpanBand& band = m_bands[index];
    const int margin = std::max(2, (band.end - band.begin) / 4);
    setVisibleRange(band.begin - margin, band.end + margin);
    return true;
}

QRect PooledMapView::spanBandPixels(int index) const
{
    if (index < 0 || index >= m_bandItems.size() || !m_mapRect || m_mapRect->width() <= 0)
        return {};
    const QPointF a = m_bandItems[index]->topLeft->pixelPosition();
    const QPointF b = m_bandItems[index]->bottomRight->pixelPosition();
    return QRectF(a, b).normalized().toRect();
}

double PooledMapView::pixelsPerPosition() const
{
    double width = m_mapRect && m_mapRect->width() > 0 ? m_mapRect->width() : 0.0;
    if (width <= 0)
        width = std::max(64, plot()->width() - kLeftMargin - kScaleMargin - 50);
    return width / std::max(1, m_viewEnd - m_viewBegin);
}

QCPAxisRect* PooledMapView::resetToMapAxes()
{
    // The previous geometry of the map, so that band widths and labels are sized right
    // before the new rect is laid out.
    const QRect previous = m_mapRect ? m_mapRect->rect() : QRect();
    resetPlot();
    m_bands.clear();
    m_bandItems.clear();
    QCPAxisRect* rect = addAxisRect(1, 0);
    rect->axis(QCPAxis::atBottom)->setRange(m_viewBegin - 0.5, m_viewEnd - 0.5);
    rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    rect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    // Fixed side margins: two maps of one width put position p at the same pixel column.
    rect->setAutoMargins(QCP::msTop | QCP::msBottom);
    rect->setMargins(QMargins(kLeftMargin, 0, 4, 0));
    if (previous.width() > 0)
        rect->setOuterRect(previous.adjusted(-kLeftMargin, 0, 4, 0));
    m_mapRect = rect;
    return rect;
}

QCPColorMap* PooledMapView::addPooledColorMap(QCPAxis* x, QCPAxis* y,
                                              const QVector<double>& cells) const
{
    // Cell b is drawn centred on its bin; bins split the pooled range evenly.
    const int rows = m_pooled.rows;
    const int bins = m_pooled.bins;
    const int first = m_pooled.edges.isEmpty() ? 0 : m_pooled.edges.front();
    const int last = m_pooled.edges.isEmpty() ? m_columns : m_pooled.edges.back();
    const double width = double(last - first) / std::max(1, bins);
    auto* map = new QCPColorMap(x, y);
    map->data()->setSize(bins, rows);
    // QCustomPlot spans a single cell over a range of zero size: give one bin, or one row
    // (a single kv-head), its own width or it is drawn zero pixels wide.
    const QCPRange keys = bins > 1 ? QCPRange(first + width / 2 - 0.5, last - width / 2 - 0.5)
                                   : QCPRange(first - 0.5, last - 0.5);
    const QCPRange values = rows > 1 ? QCPRange(0, rows - 1) : QCPRange(-0.5, 0.5);
    map->data()->setRange(keys, values);
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < bins; ++b)
            map->data()->setCell(b, r, cells[r * bins + b]);
    map->setInterpolate(false);
    return map;
}

QCPColorScale* PooledMapView::addColorScale(QCPAxisRect* rect, QCPColorMap* map,
                                            const QString& label)
{
    auto* scale = new QCPColorScale(plot());
    plot()->plotLayout()->addElement(1, 1, scale);
    scale->setGradient(map->gradient());
    scale->setDataScaleType(map->dataScaleType());
    scale->setDataRange(map->dataRange());
    scale->axis()->setLabel(label);
    // The scale's tick labels ("0.05" or "0.037") must not change the map's width.
    scale->axis()->axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
    scale->axis()->axisRect()->setMargins(QMargins(6, 0, kScaleMargin, 0));
    // The map takes gradient, range and scale type back from its scale: set them first.
    map->setColorScale(scale);
    auto* group = new QCPMarginGroup(plot());
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    viewPalette().applyTo(scale->axis());
    fitColorScaleTicks(scale);
    return scale;
}

void PooledMapView::addSpanBands(const QVector<SpanBand>& bands, const QVector<QColor>& colors,
                                 double yLow, double yHigh)
{
    QCPAxisRect* rect = m_mapRect;
    if (!rect)
        return;
    const ViewPalette& pal = viewPalette();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const double ppp = pixelsPerPosition();
    const double minHalf = kMinBandPixels / 2.0 / ppp;
    const QFontMetrics metrics(plot()->font());
    const double yMid = (yLow + yHigh) / 2;

    auto addText = [&](double at, const QString& text, Qt::Alignment align, const QColor& color,
                       bool backed) {
        auto* item = new QCPItemText(plot());
        item->setClipAxisRect(rect);
        item->position->setAxes(x, y);
        item->position->setCoords(at, yMid);
        item->setPositionAlignment(align | Qt::AlignVCenter);
        item->setText(text);
        item->setColor(color);
        item->setPadding(QMargins(3, 0, 3, 0));
        if (backed) {
            QColor back = pal.background;
            back.setAlpha(215);
            item->setBrush(back);
        }
    };

    // Extent on screen (positions) of each band: its span, widened to the minimum width.
    QVector<QPair<double, double>> extent;
    for (int i = 0; i < bands.size(); ++i) {
        const SpanBand& band = bands[i];
        const double mid = (band.begin + band.end) / 2.0 - 0.5;
        const double half = std::max((band.end - band.begin) / 2.0, minHalf);
        extent.push_back({mid - half, mid + half});
        auto* item = new QCPItemRect(plot());
        item->setClipAxisRect(rect);
        item->topLeft->setAxes(x, y);
        item->bottomRight->setAxes(x, y);
        item->topLeft->setCoords(mid - half, yHigh);
        item->bottomRight->setCoords(mid + half, yLow);
        item->setPen(QPen(pal.background, 1));
        item->setBrush(colors.value(i, pal.series.value(0)));
        m_bands.push_back(band);
        m_bandItems.push_back(item);
    }

    // Labels: inside a band that is wide enough; otherwise beside it, neighbouring bands
    // that are too narrow sharing one label ("system, format #1"), so every span is
    // named at every zoom without labels written over each other.
    QVector<int> order(bands.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return bands[a].begin < bands[b].begin; });
    const double viewLeft = m_viewBegin - 0.5;
    const double viewRight = m_viewEnd - 0.5;
    const int maxLabelPixels = std::max(80, int(ppp * (m_viewEnd - m_viewBegin) * 0.45));
    QStringList cluster;
    double clusterLeft = 0, clusterRight = 0;
    auto flush = [&] {
        if (cluster.isEmpty())
            return;
        const QString text =
            metrics.elidedText(cluster.join(QStringLiteral(", ")), Qt::ElideRight, maxLabelPixels);
        const double textWidth = (metrics.horizontalAdvance(text) + 8) / ppp;
        const double gap = 2 / ppp;
        // Right of the cluster when there is room in view, else left of it.
        if (clusterRight + gap + textWidth <= viewRight || clusterLeft - textWidth < viewLeft)
            addText(clusterRight + gap, text, Qt::AlignLeft, pal.foreground, true);
        else
            addText(clusterLeft - gap, text, Qt::AlignRight, pal.foreground, true);
        cluster.clear();
    };
    for (int i : order) {
        const auto [left, right] = extent[i];
        if (right < viewLeft || left > viewRight)
            continue; // out of view: nothing to label
        const QString label = bands[i].label;
        const double visibleWidth =
            (std::min(right, viewRight) - std::max(left, viewLeft)) * ppp; // pixels
        if (metrics.horizontalAdvance(label) + 8 <= visibleWidth) {
            const QColor fill = colors.value(i, pal.series.value(0));
            const bool light = fill.lightnessF() > 0.55;
            addText((std::max(left, viewLeft) + std::min(right, viewRight)) / 2, label,
                    Qt::AlignHCenter, light ? QColor(0x10, 0x10, 0x10) : QColor(Qt::white), false);
            continue;
        }
        if (!cluster.isEmpty()) {
            const QString joined = cluster.join(QStringLiteral(", "));
            const double labelEnd = clusterRight + (metrics.horizontalAdvance(joined) + 12) / ppp;
            if (left > labelEnd)
                flush();
        }
        if (cluster.isEmpty())
            clusterLeft = left;
        if (!cluster.contains(label))
            cluster << label;
        clusterRight = std::max(clusterRight, right);
        if (cluster.size() == 1)
            clusterRight = right;
    }
    flush();
}

double PooledMapView::positionAtPixel(double px) const
{
    if (!m_mapRect || m_mapRect->width() <= 0)
        return -1;
    const double share = (px - m_mapRect->left()) / m_mapRect->width();
    return m_viewBegin - 0.5 + share * (m_viewEnd - m_viewBegin);
}

int PooledMapView::bandAtPixel(const QPoint& pos) const
{
    for (int i = int(m_bandItems.size()) - 1; i >= 0; --i)
        if (spanBandPixels(i).adjusted(-1, -1, 1, 1).contains(pos))
            return i;
    return -1;
}

void PooledMapView::showHover(const QPoint& pos, const QPoint& globalPos)
{
    const PooledGrid& grid = m_pooled;
    if (!m_mapRect || !m_mapRect->rect().contains(pos) || grid.bins == 0) {
        QToolTip::hideText();
        return;
    }
    const int col = int(std::lround(positionAtPixel(pos.x())));
    if (col < grid.edges.front() || col >= grid.edges.back()) {
        QToolTip::hideText();
        return;
    }
    const int bin = binOfColumn(grid.edges, col);
    QStringList parts;
    const std::optional<QString> token = tokenAt(col);
    if (!token) {
        parts << tr("position %1 (the run stores no token text)").arg(col);
    } else {
        QString shown = *token;
        shown.replace(QLatin1Char('\n'), QStringLiteral("⏎"));
        shown.replace(QLatin1Char('\t'), QStringLiteral("⇥"));
        parts << (shown.isEmpty() ? tr("position %1 (a token without text)").arg(col)
                                  : tr("“%1” at position %2").arg(shown).arg(col));
    }
    QStringList spans;
    for (const SpanBand& band : m_bands)
        if (col >= band.begin && col < band.end && !spans.contains(band.label))
            spans << band.label;
    const int band = bandAtPixel(pos);
    if (band >= 0 && !spans.contains(m_bands[band].label))
        spans << m_bands[band].label; // a narrow span widened to stay visible
    if (!spans.isEmpty())
        parts << tr("span %1").arg(spans.join(QStringLiteral(", ")));
    const int row = int(std::lround(m_mapRect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y())));
    if (row >= 0 && row < grid.rows)
        parts << describeCell(row, bin);
    if (band >= 0)
        parts << tr("click: zoom to this span");
    // How to zoom, under the read-out (the plot has no tooltip of its own to say it).
    const QString help = tr("wheel: zoom · drag: pan · right-drag or Shift+drag: zoom to a range "
                            "· + − 0 ← → · double-click: whole context");
    QToolTip::showText(globalPos, parts.join(QStringLiteral(" · ")) + QLatin1Char('\n') + help,
                       plot());
}

bool PooledMapView::eventFilter(QObject* watched, QEvent* event)
{
    // The plot's own size is what the bins follow (the view's resize comes before the
    // layout has resized the plot).
    if (watched == plot() && event->type() == QEvent::Resize)
        plotResized();
    if (watched != plot() || !hasData() || !m_mapRect)
        return PlotView::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        const QPoint pos = wheel->position().toPoint();
        if (!m_mapRect->rect().contains(pos))
            return false;
        const double steps = wheel->angleDelta().y() / 120.0;
        if (steps != 0)
            zoomBy(std::pow(0.8, steps), positionAtPixel(pos.x()));
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (!m_mapRect->rect().contains(mouse->pos()))
            return false;
        plot()->setFocus(Qt::MouseFocusReason);
        const bool band =
            mouse->button() == Qt::RightButton ||
            (mouse->button() == Qt::LeftButton && mouse->modifiers().testFlag(Qt::ShiftModifier));
        m_drag = band ? Drag::Band : mouse->button() == Qt::LeftButton ? Drag::Pan : Drag::None;
        m_pressPos = mouse->pos();
        m_pressBegin = m_viewBegin;
        m_pressEnd = m_viewEnd;
        m_moved = false;
        return m_drag != Drag::None;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const int dx = mouse->pos().x() - m_pressPos.x();
        if (m_drag != Drag::None && std::abs(dx) >= kClickSlop)
            m_moved = true;
        if (m_drag == Drag::Pan && m_moved) {
            const double perPixel = double(m_pressEnd - m_pressBegin) / m_mapRect->width();
            const int shift = int(std::lround(-dx * perPixel));
            setVisibleRange(m_pressBegin + shift, m_pressEnd + shift);
        } else if (m_drag == Drag::Band && m_moved) {
            if (!m_rubberBand)
                m_rubberBand = new QRubberBand(QRubberBand::Rectangle, plot());
            const int left =
                std::max(m_mapRect->left(), std::min(m_pressPos.x(), mouse->pos().x()));
            const int right =
                std::min(m_mapRect->right(), std::max(m_pressPos.x(), mouse->pos().x()));
            m_rubberBand->setGeometry(
                QRect(QPoint(left, m_mapRect->top()), QPoint(right, m_mapRect->bottom())));
            m_rubberBand->show();
        } else if (m_drag == Drag::None) {
            showHover(mouse->pos(), mouse->globalPosition().toPoint());
        }
        return m_drag != Drag::None;
    }
    case QEvent::MouseButtonRelease: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const Drag drag = m_drag;
        m_drag = Drag::None;
        if (m_rubberBand)
            m_rubberBand->hide();
        if (drag == Drag::Band && m_moved) {
            const double a = positionAtPixel(m_pressPos.x());
            const double b = positionAtPixel(mouse->pos().x());
            setVisibleRange(int(std::lround(std::min(a, b))), int(std::lround(std::max(a, b))) + 1);
        } else if (drag == Drag::Pan && !m_moved) {
            zoomToSpan(bandAtPixel(mouse->pos()));
        }
        return drag != Drag::None;
    }
    case QEvent::MouseButtonDblClick:
        resetZoom();
        return true;
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent*>(event)->key();
        const double centre = (m_viewBegin + m_viewEnd) / 2.0 - 0.5;
        const int step = std::max(1, (m_viewEnd - m_viewBegin) / 10);
        switch (key) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(0.5, centre);
            return true;
        case Qt::Key_Minus:
            zoomBy(2.0, centre);
            return true;
        case Qt::Key_0:
        case Qt::Key_Home:
            resetZoom();
            return true;
        case Qt::Key_Left:
            panBy(-step);
            return true;
        case Qt::Key_Right:
            panBy(step);
            return true;
        default:
            return false;
        }
    }
    default:
        return false;
    }
}

} // namespace kvl
