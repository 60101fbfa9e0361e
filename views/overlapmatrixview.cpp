#include "overlapmatrixview.h"

#include "colormaps.h"
#include "colorscaleticks.h"
#include "csvtable.h"

#include <QLabel>
#include <QToolTip>
#include <qcustomplot.h>

#include <cmath>

namespace kvl {

OverlapMatrixView::OverlapMatrixView(QWidget* parent)
    : PlotView(tr("Failure-set overlap (Jaccard)"),
               tr("No run open.\nThe overlap matrix compares which rows fail under each pair "
                  "of compressors: same mean accuracy can hide different failures."),
               parent),
      m_info(addInfoLabel()), m_baseTitle(title())
{
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, &OverlapMatrixView::onMouseMove);
    connect(plot(), &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { m_pressCell = cellAt(e->pos()); });
    connect(plot(), &QCustomPlot::mouseRelease, this, &OverlapMatrixView::onMouseRelease);
    connect(plot(), &QCustomPlot::afterLayout, this, &OverlapMatrixView::fitCellLabels);
}

void OverlapMatrixView::setData(const OverlapMatrix& data)
{
    m_data = data;
    m_selected = QPoint(-1, -1);
    // The ratio in the title, provenance and CSV: the same pair overlaps differently
    // at another ratio.
    Provenance p = provenance();
    p.ratio = data.ratio;
    setProvenance(p);
    setTitle(std::isnan(data.ratio) ? m_baseTitle
                                    : tr("%1 at ratio %2").arg(m_baseTitle).arg(data.ratio));
    m_info->setText(tr("Hover a cell for the A-only / B-only / both breakdown; click to select "
                       "the pair."));
    setHasData(!m_data.isEmpty());
    // Rows tall enough for a value each (eight presses were squeezed into 13-px rows
    // under the window's lists); a taller page scrolls.
    plot()->setMinimumHeight(
        std::min(kMostMinimumHeight, kMatrixMargins + kRowPixels * m_data.size()));
    if (hasData())
        rebuild();
}

void OverlapMatrixView::clear()
{
    m_data = {};
    setTitle(m_baseTitle);
    m_selected = QPoint(-1, -1);
    m_info->clear();
    setHasData(false);
}

void OverlapMatrixView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    const int n = m_data.size();
    resetPlot();
    m_rect = addAxisRect(1, 0);
    QCPAxis* x = m_rect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_rect->axis(QCPAxis::atLeft);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < n; ++i)
        ticker->addTick(i, m_data.names[i]);
    for (QCPAxis* axis : {x, y}) {
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
        axis->grid()->setVisible(false);
        axis->setRange(-0.5, n - 0.5);
    }
    y->setRangeReversed(true); // row 0 on top, as a matrix is read
    x->setLabel(tr("Compressor B"));
    y->setLabel(tr("Compressor A"));

    auto* map = new QCPColorMap(x, y);
    map->data()->setSize(n, n);
    map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            map->data()->setCell(b, a, m_data.jaccard.value(m_data.index(a, b), std::nan("")));
    map->setGradient(colorGradient(ColorMap::Cividis));
    map->setDataRange(QCPRange(0.0, 1.0));
    map->setInterpolate(false);

    auto* scale = new QCPColorScale(plot());
    plot()->plotLayout()->addElement(1, 1, scale);
    scale->setGradient(map->gradient());
    scale->setDataRange(QCPRange(0.0, 1.0));
    scale->axis()->setLabel(tr("Jaccard"));
    map->setColorScale(scale);
    auto* group = new QCPMarginGroup(plot());
    m_rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    pal.applyTo(scale->axis());
    fitColorScaleTicks(scale);

    QFont cellFont = plot()->font();
    if (n > 4)
        cellFont.setPointSizeF(cellFont.pointSizeF() * 0.85);
    m_cells.clear();
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
            const int i = m_data.index(a, b);
            const double j = m_data.jaccard.value(i, std::nan(""));
            const bool few = a != b && !std::isnan(j) && unionOf(a, b) < m_minimumUnion;
            if (few) {
                // Too few failures for the Jaccard to mean anything: greyed, sizes kept.
                auto* veil = new QCPItemRect(plot());
                veil->setClipAxisRect(m_rect);
                veil->topLeft->setAxes(x, y);
                veil->bottomRight->setAxes(x, y);
                veil->topLeft->setCoords(b - 0.5, a - 0.5);
                veil->bottomRight->setCoords(b + 0.5, a + 0.5);
                veil->setPen(Qt::NoPen);
                veil->setBrush(QColor(0x9A, 0x9A, 0x9A, 230));
            }
            auto* text = new QCPItemText(plot());
            text->setClipAxisRect(m_rect);
            text->position->setAxes(x, y);
            text->position->setCoords(b, a);
            text->setFont(cellFont);
            QString label = std::isnan(j) ? QStringLiteral("–") : QString::number(j, 'f', 2);
            // The set sizes behind the ratio: |A|, |B| and |A ∩ B|.
            if (a != b && !std::isnan(j))
                label += QStringLiteral("\n|A| %1 · |B| %2 · ∩ %3")
                             .arg(m_data.aOnly.value(i) + m_data.both.value(i))
                             .arg(m_data.bOnly.value(i) + m_data.both.value(i))
                             .arg(m_data.both.value(i));
            text->setText(label);
            m_cells.push_back({text, label});
            // Light text on the dark (low) end of cividis, dark text on the light end.
            text->setColor(!std::isnan(j) && j > 0.55 ? QColor(0x10, 0x10, 0x10) : Qt::white);
            if (std::isnan(j) || few)
                text->setColor(few ? QColor(0x20, 0x20, 0x20) : pal.foreground);
        }
    }
    m_marker = new QCPItemRect(plot());
    m_marker->setClipAxisRect(m_rect);
    m_marker->topLeft->setAxes(x, y);
    m_marker->bottomRight->setAxes(x, y);
    m_marker->setPen(QPen(pal.series.at(1), 3));
    m_marker->setBrush(Qt::NoBrush);
    updateSelectionMarker();
    finishRebuild();
}

void OverlapMatrixView::fitCellLabels()
{
    if (!m_rect || m_cells.empty() || m_data.size() == 0)
        return;
    // Each cell says what its size holds: the Jaccard and the set sizes, the Jaccard
    // alone, or nothing (the tooltip and the CSV always have all of it).
    const double width = m_rect->width() / double(m_data.size());
    const double height = m_rect->height() / double(m_data.size());
    const QFontMetrics metrics(m_cells.front().item->font());
    // One level of detail for every cell, so that the matrix reads alike throughout.
    bool values = metrics.height() + 2 <= height;
    bool sizes = 2 * metrics.height() + 2 <= height;
    for (const Cell& cell : m_cells) {
        values = values &&
                 metrics.horizontalAdvance(cell.full.section(QLatin1Char('\n'), 0, 0)) + 4 <= width;
        sizes = sizes &&
                metrics.horizontalAdvance(cell.full.section(QLatin1Char('\n'), 1)) + 4 <= width;
    }
    bool changed = false;
    for (const Cell& cell : m_cells) {
        const QString shown = !values ? QString()
                              : sizes ? cell.full
                                      : cell.full.section(QLatin1Char('\n'), 0, 0);
        if (cell.item->text() != shown) {
            cell.item->setText(shown);
            changed = true;
        }
    }
    if (changed)
        plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString OverlapMatrixView::csv() const
{
    CsvTable table({QStringLiteral("ratio"), QStringLiteral("a"), QStringLiteral("b"),
                    QStringLiteral("jaccard"), QStringLiteral("a_only"), QStringLiteral("b_only"),
                    QStringLiteral("both")});
    const int n = m_data.size();
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const int i = m_data.index(a, b);
            table.add(m_data.ratio).add(m_data.names[a]).add(m_data.names[b]);
            table.add(m_data.jaccard.value(i, std::nan("")));
            table.add(m_data.aOnly.value(i)).add(m_data.bOnly.value(i)).add(m_data.both.value(i));
            table.endRow();
        }
    return table.text();
}

QPoint OverlapMatrixView::cellAt(const QPoint& pixel) const
{
    if (!hasData() || !m_rect || !m_rect->rect().contains(pixel))
        return QPoint(-1, -1);
    const int b = int(std::lround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    const int a = int(std::lround(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
    const int n = m_data.size();
    if (a < 0 || b < 0 || a >= n || b >= n)
        return QPoint(-1, -1);
    return QPoint(a, b);
}

QPoint OverlapMatrixView::cellCenter(int a, int b) const
{
    if (!m_rect)
        return {};
    return QPoint(int(m_rect->axis(QCPAxis::atBottom)->coordToPixel(b)),
                  int(m_rect->axis(QCPAxis::atLeft)->coordToPixel(a)));
}

OverlapSelection OverlapMatrixView::selectionOf(int a, int b) const
{
    const int i = m_data.index(a, b);
    return {m_data.names.value(a), m_data.names.value(b), m_data.jaccard.value(i, std::nan("")),
            m_data.aOnly.value(i), m_data.bOnly.value(i), m_data.both.value(i)};
}

QString OverlapMatrixView::describe(int a, int b) const
{
    const OverlapSelection s = selectionOf(a, b);
    QString text =
        tr("%1 vs %2: Jaccard %3 · %1 only %4 · %2 only %5 · both %6")
            .arg(s.a, s.b, std::isnan(s.jaccard) ? tr("n/a") : QString::number(s.jaccard, 'f', 3))
            .arg(s.aOnly)
            .arg(s.bOnly)
            .arg(s.both);
    if (a != b && !std::isnan(s.jaccard) && unionOf(a, b) < m_minimumUnion)
        text += tr(" · greyed: %n failure(s) in all, too few to compare", nullptr, unionOf(a, b));
    return text;
}

int OverlapMatrixView::unionOf(int a, int b) const
{
    const int i = m_data.index(a, b);
    return m_data.aOnly.value(i) + m_data.bOnly.value(i) + m_data.both.value(i);
}

void OverlapMatrixView::setMinimumUnion(int rows)
{
    m_minimumUnion = std::max(0, rows);
    if (hasData())
        rebuild();
}

void OverlapMatrixView::selectPair(int a, int b)
{
    const int n = m_data.size();
    if (a < 0 || b < 0 || a >= n || b >= n)
        return;
    m_selected = QPoint(a, b);
    m_info->setText(describe(a, b));
    updateSelectionMarker();
    plot()->replot(QCustomPlot::rpQueuedReplot);
    emit pairSelected(selectionOf(a, b));
}

void OverlapMatrixView::updateSelectionMarker()
{
    if (!m_marker)
        return;
    m_marker->setVisible(m_selected.x() >= 0);
    m_marker->topLeft->setCoords(m_selected.y() - 0.5, m_selected.x() - 0.5);
    m_marker->bottomRight->setCoords(m_selected.y() + 0.5, m_selected.x() + 0.5);
}

void OverlapMatrixView::onMouseMove(QMouseEvent* event)
{
    const QPoint cell = cellAt(event->pos());
    if (cell.x() < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), describe(cell.x(), cell.y()), plot());
}

void OverlapMatrixView::onMouseRelease(QMouseEvent* event)
{
    const QPoint cell = cellAt(event->pos());
    if (event->button() == Qt::LeftButton && cell.x() >= 0 && cell == m_pressCell)
        selectPair(cell.x(), cell.y());
}

} // namespace kvl
