#include "legendplacement.h"

#include <qcustomplot.h>

#include <array>

namespace kvl {

namespace {

const std::array<Qt::Alignment, 4> kCorners = {
    Qt::AlignBottom | Qt::AlignLeft, Qt::AlignTop | Qt::AlignLeft, Qt::AlignTop | Qt::AlignRight,
    Qt::AlignBottom | Qt::AlignRight};

// Where a legend of `size` stands when aligned to `corner` of `area`.
QRectF cornerRect(const QRect& area, QSizeF size, Qt::Alignment corner)
{
    const double x = corner & Qt::AlignLeft ? area.left() : area.right() - size.width();
    const double y = corner & Qt::AlignTop ? area.top() : area.bottom() - size.height();
    return QRectF(QPointF(x, y), size);
}

// How much of the rect's drawn data `box` covers: the points of every line graph of the
// rect and samples along the segments between them.
int coveredData(QCPAxisRect* rect, const QRectF& box)
{
    constexpr int kSamplesPerSegment = 8;
    int covered = 0;
    for (QCPGraph* graph : rect->graphs()) {
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        QPointF previous;
        bool first = true;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF p = graph->coordsToPixels(it->key, it->value);
            if (box.contains(p))
                covered += kSamplesPerSegment; // a point, with its marker, counts as a segment
            if (!first && graph->lineStyle() != QCPGraph::lsNone)
                for (int s = 1; s < kSamplesPerSegment; ++s)
                    covered +=
                        box.contains(previous + (p - previous) * (s / double(kSamplesPerSegment)));
            previous = p;
            first = false;
        }
    }
    return covered;
}

// The axis rect whose inset layout holds `legend`, or nullptr.
QCPAxisRect* insetRectOf(QCPLegend* legend)
{
    auto* inset = legend ? qobject_cast<QCPLayoutInset*>(legend->layout()) : nullptr;
    if (!inset || !legend->parentPlot())
        return nullptr;
    for (QCPAxisRect* r : legend->parentPlot()->axisRects())
        if (r->insetLayout() == inset)
            return r;
    return nullptr;
}

} // namespace

int insetLegendCoverage(QCPLegend* legend)
{
    QCPAxisRect* rect = insetRectOf(legend);
    return rect && legend->visible() ? coveredData(rect, legend->outerRect()) : 0;
}

bool insetLegendHidesData(QCPLegend* legend)
{
    QCPAxisRect* rect = insetRectOf(legend);
    const QSizeF size = legend ? legend->outerRect().size() : QSizeF();
    if (!rect || size.isEmpty())
        return false;
    for (Qt::Alignment corner : kCorners)
        if (coveredData(rect, cornerRect(rect->rect(), size, corner)) == 0)
            return false;
    return true;
}

bool placeInsetLegends(QCustomPlot* plot)
{
    bool moved = false;
    for (QCPAxisRect* rect : plot->axisRects()) {
        QCPLayoutInset* inset = rect->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            auto* legend = qobject_cast<QCPLegend*>(inset->elementAt(i));
            if (!legend || !legend->visible() ||
                inset->insetPlacement(i) != QCPLayoutInset::ipBorderAligned)
                continue;
            const QSizeF size = legend->outerRect().size();
            if (size.isEmpty())
                continue;
            const Qt::Alignment current = inset->insetAlignment(i);
            int best = coveredData(rect, cornerRect(rect->rect(), size, current));
            Qt::Alignment choice = current;
            for (Qt::Alignment corner : kCorners) {
                const int covered = coveredData(rect, cornerRect(rect->rect(), size, corner));
                if (covered < best) {
                    best = covered;
                    choice = corner;
                }
            }
            if (choice != current) {
                inset->setInsetAlignment(i, choice);
                moved = true;
            }
        }
    }
    return moved;
}

} // namespace kvl
