#include "failuresetsview.h"

#include "csvtable.h"

#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {
namespace {

// Counts of samples tick at whole numbers (1, 2, 5, 10, ... steps), never at 2.5.
QSharedPointer<QCPAxisTicker> wholeCountTicker()
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

} // namespace

FailureSetsView::FailureSetsView(QWidget* parent)
    : PlotView(tr("Failure sets (UpSet)"),
               tr("No failure sets to compare.\nWith two or more compressors at one ratio, this "
                  "view counts the samples each combination of them fails (C→W) and no other."),
               parent),
      m_baseTitle(title())
{
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const int column = columnAt(e->pos());
        if (column < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), describe(column), plot());
    });
    connect(plot(), &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { m_pressColumn = columnAt(e->pos()); });
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        const int column = columnAt(e->pos());
        if (e->button() == Qt::LeftButton && column >= 0 && column == m_pressColumn)
            selectColumn(column);
    });
}

QStringList FailureSetsView::members(int column) const
{
    QStringList names;
    if (column >= 0 && column < shownColumns())
        for (int m : m_data.intersections[column].members)
            names << m_data.names.value(m);
    return names;
}

QStringList FailureSetsView::nonMembers(int column) const
{
    QStringList names;
    if (column >= 0 && column < shownColumns())
        for (int s = 0; s < m_data.names.size(); ++s)
            if (!m_data.intersections[column].members.contains(s))
                names << m_data.names[s];
    return names;
}

void FailureSetsView::selectColumn(int column)
{
    m_selected = column >= 0 && column < shownColumns() ? column : -1;
    if (hasData())
        rebuild();
    if (m_selected >= 0)
        emit intersectionSelected(m_data.ratio, members(m_selected), nonMembers(m_selected));
}

void FailureSetsView::setData(const FailureSets& data)
{
    m_data = data;
    m_selected = -1;
    Provenance p = provenance();
    p.ratio = data.ratio;
    const bool capped = shownColumns() < m_data.intersections.size();
    const QString shown = tr("the %1 largest of %2 intersections; the CSV holds every one")
                              .arg(shownColumns())
                              .arg(m_data.intersections.size());
    if (capped)
        p.note = shown;
    setNote(capped ? shown : QString());
    setProvenance(p);
    setHasData(!m_data.isEmpty());
    // The ratio belongs in the title: the same compressors fail other samples elsewhere.
    setTitle(std::isnan(data.ratio) ? m_baseTitle
                                    : tr("%1 at ratio %2").arg(m_baseTitle).arg(data.ratio));
    if (hasData())
        rebuild();
}

void FailureSetsView::clear()
{
    m_data = {};
    m_selected = -1;
    setHasData(false);
    setTitle(m_baseTitle);
}

void FailureSetsView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    const int sets = int(m_data.names.size());
    const int columns = shownColumns();
    resetPlot();
    auto* grid = new QCPLayoutGrid;
    plot()->plotLayout()->addElement(1, 0, grid);
    m_bars = new QCPAxisRect(plot());
    m_dots = new QCPAxisRect(plot());
    auto* sizes = new QCPAxisRect(plot());
    grid->addElement(0, 1, m_bars);
    grid->addElement(1, 1, m_dots);
    grid->addElement(1, 0, sizes);
    grid->setColumnStretchFactors({0.28, 0.72});
    // Dot rows a readable height each (more presses, a larger share); the bars take
    // the rest.
    const double dotShare = std::clamp(0.07 * sets, 0.38, 0.6);
    grid->setRowStretchFactors({1.0 - dotShare, dotShare});
    auto* columnsGroup = new QCPMarginGroup(plot());
    m_bars->setMarginGroup(QCP::msLeft | QCP::msRight, columnsGroup);
    m_dots->setMarginGroup(QCP::msLeft | QCP::msRight, columnsGroup);
    auto* rowsGroup = new QCPMarginGroup(plot());
    m_dots->setMarginGroup(QCP::msTop | QCP::msBottom, rowsGroup);
    sizes->setMarginGroup(QCP::msTop | QCP::msBottom, rowsGroup);
    for (QCPAxisRect* rect : {m_bars, m_dots, sizes})
        for (QCPAxis* axis : rect->axes())
            axis->grid()->setLayer(QStringLiteral("grid"));

    // Intersection sizes.
    QCPAxis* bx = m_bars->axis(QCPAxis::atBottom);
    QCPAxis* by = m_bars->axis(QCPAxis::atLeft);
    bx->setRange(-0.5, columns - 0.5);
    bx->setTicks(false);
    bx->setTickLabels(false);
    bx->grid()->setVisible(false);
    by->setLabel(tr("Samples failing under exactly these"));
    int most = 1;
    for (const FailureIntersection& i : m_data.intersections)
        most = std::max(most, i.count);
    by->setRange(0, most * 1.15);
    by->setTicker(wholeCountTicker());
    auto* bars = new QCPBars(bx, by);
    bars->setWidth(0.6);
    bars->setPen(Qt::NoPen);
    bars->setBrush(pal.seriesColor(0));
    bars->setSelectable(QCP::stNone);
    for (int c = 0; c < columns; ++c) {
        const int count = m_data.intersections[c].count;
        bars->addData(c, count);
        auto* label = new QCPItemText(plot());
        label->setClipAxisRect(m_bars);
        label->position->setAxes(bx, by);
        label->position->setCoords(c, count);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(QString::number(count));
        label->setColor(pal.foreground);
    }
    if (m_selected >= 0) {
        // The selected column: its bar in the accent colour, over the plain one.
        auto* chosen = new QCPBars(bx, by);
        chosen->setWidth(0.6);
        chosen->setPen(QPen(pal.foreground, 1.5));
        chosen->setBrush(pal.seriesColor(1));
        chosen->setSelectable(QCP::stNone);
        chosen->addData(m_selected, m_data.intersections[m_selected].count);
    }

    // Members: a dot per compressor, filled and joined where it belongs to the column.
    QCPAxis* dx = m_dots->axis(QCPAxis::atBottom);
    QCPAxis* dy = m_dots->axis(QCPAxis::atLeft);
    dx->setRange(-0.5, columns - 0.5);
    dx->setTicks(false);
    dx->setTickLabels(false);
    dx->grid()->setVisible(false);
    dy->setRange(-0.5, sets - 0.5);
    dy->setRangeReversed(true); // first compressor on top
    setRowTicks(dy, sets, m_data.names);
    dy->setTickLength(0, 0);
    dy->grid()->setVisible(false);
    QColor faint = pal.foreground;
    faint.setAlpha(50);
    auto* absent = new QCPGraph(dx, dy);
    absent->setLineStyle(QCPGraph::lsNone);
    absent->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, faint, 11));
    absent->setSelectable(QCP::stNone);
    for (int c = 0; c < columns; ++c) {
        const QVector<int>& members = m_data.intersections[c].members;
        auto* present = new QCPGraph(dx, dy);
        present->setLineStyle(QCPGraph::lsLine);
        present->setPen(QPen(pal.foreground, 2.5));
        present->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, pal.foreground, 11));
        present->setSelectable(QCP::stNone);
        for (int s = 0; s < sets; ++s) {
            if (members.contains(s))
                present->addData(c, s);
            else
                absent->addData(c, s);
        }
    }

    // Set sizes, growing leftwards towards the names.
    QCPAxis* sy = sizes->axis(QCPAxis::atLeft);
    QCPAxis* sx = sizes->axis(QCPAxis::atBottom);
    sy->setRange(-0.5, sets - 0.5);
    sy->setRangeReversed(true);
    sy->setTicks(false);
    sy->setTickLabels(false);
    sy->grid()->setVisible(false);
    int largest = 1;
    for (int size : m_data.setSizes)
        largest = std::max(largest, size);
    sx->setRange(0, largest * 1.3);
    sx->setTicker(wholeCountTicker());
    sx->setRangeReversed(true);
    sx->setLabel(tr("C→W samples"));
    auto* setBars = new QCPBars(sy, sx);
    setBars->setWidth(0.55);
    setBars->setPen(Qt::NoPen);
    setBars->setBrush(pal.reference);
    setBars->setSelectable(QCP::stNone);
    for (int s = 0; s < sets; ++s) {
        const int size = m_data.setSizes.value(s);
        setBars->addData(s, size);
        auto* label = new QCPItemText(plot());
        label->setClipAxisRect(sizes);
        label->position->setAxes(sx, sy);
        label->position->setCoords(size, s);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
        label->setPadding(QMargins(0, 0, 4, 0));
        label->setText(QString::number(size));
        label->setColor(pal.foreground);
    }
    finishRebuild();
}

QString FailureSetsView::describe(int column) const
{
    if (column < 0 || column >= shownColumns())
        return {};
    const FailureIntersection& i = m_data.intersections[column];
    QStringList names;
    for (int m : i.members)
        names << m_data.names.value(m);
    const QString who = names.size() == m_data.names.size() && names.size() > 1
                            ? tr("every compressor (%1)").arg(names.join(QStringLiteral(" & ")))
                            : tr("%1 only").arg(names.join(QStringLiteral(" & ")));
    return tr("Failed (C→W) by %1: %n sample(s)", nullptr, i.count).arg(who);
}

int FailureSetsView::columnAt(const QPoint& pixel) const
{
    if (!hasData() || !m_bars || !m_dots)
        return -1;
    const QRect area = m_bars->rect().united(m_dots->rect());
    if (!area.contains(pixel))
        return -1;
    const int c = int(std::lround(m_dots->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    return c >= 0 && c < shownColumns() ? c : -1;
}

int FailureSetsView::shownColumns() const
{
    const int all = int(m_data.intersections.size());
    return m_maxColumns > 0 ? std::min(all, m_maxColumns) : all;
}

void FailureSetsView::setMaxColumns(int n)
{
    m_maxColumns = std::max(0, n);
    if (hasData())
        rebuild();
}

QPoint FailureSetsView::columnCenter(int column) const
{
    if (!m_dots)
        return {};
    return QPoint(int(m_dots->axis(QCPAxis::atBottom)->coordToPixel(column)),
                  m_dots->rect().center().y());
}

QString FailureSetsView::csv() const
{
    CsvTable table({QStringLiteral("ratio"), QStringLiteral("kind"), QStringLiteral("members"),
                    QStringLiteral("count")});
    for (int s = 0; s < m_data.names.size(); ++s)
        table.add(m_data.ratio)
            .add(QStringLiteral("set"))
            .add(m_data.names[s])
            .add(m_data.setSizes.value(s))
            .endRow();
    for (const FailureIntersection& i : m_data.intersections) {
        QStringList names;
        for (int m : i.members)
            names << m_data.names.value(m);
        table.add(m_data.ratio)
            .add(QStringLiteral("intersection"))
            .add(names.join(QStringLiteral(" & ")))
            .add(i.count)
            .endRow();
    }
    return table.text();
}

} // namespace kvl
