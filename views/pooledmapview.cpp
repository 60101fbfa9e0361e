#include "pooledmapview.h"

#include <qcustomplot.h>

#include <algorithm>

namespace kvl {

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
}

int PooledMapView::targetBins() const
{
    if (m_maxBins > 0)
        return m_maxBins;
    // The axis rect is the plot minus its margins (axis labels, colour scale).
    return std::max(64, plot()->width() - 150);
}

void PooledMapView::resizeEvent(QResizeEvent* event)
{
    PlotView::resizeEvent(event);
    // Re-pool only when the pixel width changes what is drawn.
    if (hasData() && m_maxBins == 0 && m_columns > m_pooled.bins &&
        std::min(targetBins(), m_columns) != m_pooled.bins)
        rebuild();
}

void PooledMapView::poolThenDraw(const QVector<double>& values, int rows, int cols, PoolMode mode,
                                 const QVector<bool>& flags)
{
    m_columns = cols;
    const int bins = std::clamp(targetBins(), 1, cols);
    if (m_pooledVersion == m_dataVersion && m_pooled.bins == bins) {
        drawPooled(); // palette or colour-map change: the pooled grid still holds
        return;
    }
    m_requestVersion = m_dataVersion;
    if (auto grid = m_pooler->request(values, rows, cols, bins, mode, flags)) {
        m_pooled = *grid;
        m_pooledVersion = m_dataVersion;
        drawPooled();
    }
}

QCPAxisRect* PooledMapView::resetToMapAxes()
{
    resetPlot();
    QCPAxisRect* rect = addAxisRect(1, 0);
    rect->axis(QCPAxis::atBottom)->setRange(-0.5, m_columns - 0.5);
    rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    rect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    return rect;
}

QCPColorMap* PooledMapView::addPooledColorMap(QCPAxis* x, QCPAxis* y,
                                              const QVector<double>& cells) const
{
    // Cell b is drawn centred on its bin; bins are as wide as columns / bins positions.
    const int rows = m_pooled.rows;
    const int bins = m_pooled.bins;
    const double width = double(m_columns) / bins;
    auto* map = new QCPColorMap(x, y);
    map->data()->setSize(bins, rows);
    map->data()->setRange(QCPRange(width / 2 - 0.5, m_columns - width / 2 - 0.5),
                          QCPRange(0, rows - 1));
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
    // The map takes gradient, range and scale type back from its scale: set them first.
    map->setColorScale(scale);
    auto* group = new QCPMarginGroup(plot());
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    viewPalette().applyTo(scale->axis());
    return scale;
}

} // namespace kvl
