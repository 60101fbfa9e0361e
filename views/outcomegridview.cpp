#include "outcomegridview.h"

#include "figurelayoutcheck.h"

#include "csvtable.h"

#include <QLabel>
#include <QToolTip>
#include <qcustomplot.h>

#include <cmath>

namespace kvl {

namespace {

// The gap between the panels, in cells.
constexpr double kPanelGap = 0.22;

// ColorBrewer's 9-class sequential ramps (Brewer, colorbrewer2.org; matplotlib's YlGnBu
// and YlOrRd), light at the low end.
const char* const yellowGreenBlue[] = {"#FFFFD9", "#EDF8B1", "#C7E9B4", "#7FCDBB", "#41B6C4",
                                       "#1D91C0", "#225EA8", "#253494", "#081D58"};
const char* const yellowOrangeRed[] = {"#FFFFCC", "#FFEDA0", "#FED976", "#FEB24C", "#FD8D3C",
                                       "#FC4E2A", "#E31A1C", "#BD0026", "#800026"};

QCPColorGradient rampGradient(GridRamp ramp)
{
    const char* const* stops =
        ramp == GridRamp::YellowOrangeRed ? yellowOrangeRed : yellowGreenBlue;
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (int i = 0; i < 9; ++i)
        gradient.setColorStopAt(i / 8.0, QColor(QLatin1String(stops[i])));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(256);
    return gradient;
}

// Dark text on the light end of a ramp, light text on the dark end.
QColor textColorOn(const QColor& fill)
{
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.52 ? QColor(0x11, 0x11, 0x11) : QColor(0xFF, 0xFF, 0xFF);
}

QString ratioText(double ratio)
{
    return QString::number(ratio, 'g', 6);
}

} // namespace

OutcomeGridView::OutcomeGridView(GridFigure figure, QWidget* parent)
    : PlotView(figure == GridFigure::Outcomes ? tr("Outcomes by compressor and compression ratio")
                                              : tr("C→W failures by suite and compression ratio"),
               figure == GridFigure::Outcomes
                   ? tr("No compressed rows.\nFor every compressor and compression ratio, this "
                        "view shows the mean task score and the C→W rate (the share of the "
                        "samples FullCache answers correctly that the compressed cache gets "
                        "wrong), pooled over the run's suites, with the counts behind each.")
                   : tr("No compressed rows.\nFor every suite and compression ratio, this view "
                        "shows the C→W rate averaged over the compressors, and how much two "
                        "compressors' failures overlap (Jaccard of their C→W samples)."),
               parent),
      m_baseTitle(title())
{
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const Hit hit = cellAt(e->pos());
        if (hit.panel < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(),
                               describe(hit.panel, hit.row, hit.column), plot());
    });
    addInfoLabel()->setText(tr("Hover a cell for the counts behind its value. Colours are on "
                               "fixed ranges; grey cells have no value."));
}

void OutcomeGridView::setData(const GridPanels& data)
{
    m_data = data;
    setHasData(!m_data.isEmpty() && m_data.isValid());
    setTitle(hasData() && !m_data.title.isEmpty() ? m_data.title : m_baseTitle);
    if (hasData())
        rebuild();
}

void OutcomeGridView::clear()
{
    m_data = {};
    setHasData(false);
    setTitle(m_baseTitle);
}

double OutcomeGridView::panelOffset(int index) const
{
    return index == 0 ? 0.0 : m_data.columnCount() + kPanelGap;
}

double OutcomeGridView::printHeightInches() const
{
    // Title, panel titles, ratio ticks, axis label and footer take about 1.5 in; a row
    // 0.3 in, at any width (the cells' numbers need the height, not the width).
    return 1.5 + 0.3 * std::max(1, m_data.rowCount());
}

void OutcomeGridView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    const int rows = m_data.rowCount();
    const int columns = m_data.columnCount();
    resetPlot();
    m_rect = addAxisRect(1, 0);
    QCPAxis* x = m_rect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_rect->axis(QCPAxis::atLeft);
    // Each panel draws its own frame: the axis rect spans both and the gap between them.
    m_rect->axis(QCPAxis::atTop)->setVisible(false);
    m_rect->axis(QCPAxis::atRight)->setVisible(false);

    QSharedPointer<QCPAxisTickerText> ratioTicks(new QCPAxisTickerText);
    for (int p = 0; p < 2; ++p)
        for (int c = 0; c < columns; ++c)
            ratioTicks->addTick(panelOffset(p) + c, ratioText(m_data.ratios[c]));
    x->setTicker(ratioTicks);
    x->setRange(-0.5, panelOffset(1) + columns - 0.5);
    x->setLabel(tr("Compression ratio (share of context KV entries removed)"));
    QSharedPointer<QCPAxisTickerText> rowTicks(new QCPAxisTickerText);
    for (int r = 0; r < rows; ++r)
        rowTicks->addTick(r, m_data.rows[r]);
    y->setTicker(rowTicks);
    y->setRange(-0.5, rows - 0.5);
    y->setRangeReversed(true); // first row on top, as a table is read
    for (QCPAxis* axis : {x, y}) {
        axis->setSubTicks(false);
        axis->setTickLength(0, 4);
        axis->grid()->setVisible(false);
    }

    QFont titleFont = plot()->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.05);
    // Room above the cells for the panels' titles.
    m_rect->setMinimumMargins(QMargins(0, QFontMetrics(titleFont).height() + 8, 0, 0));

    const QColor missingFill = pal.grid;
    QColor missingText = pal.foreground;
    missingText.setAlphaF(0.6);
    for (int p = 0; p < 2; ++p) {
        const GridPanel& g = panel(p);
        QCPColorGradient gradient = rampGradient(g.ramp); // color() is not const
        const QCPRange range(g.minimum, g.maximum);
        const double left = panelOffset(p);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < columns; ++c) {
                const GridPanelCell& cell = g.cells[m_data.index(r, c)];
                const bool missing = std::isnan(cell.value);
                const QColor fill =
                    missing ? missingFill : QColor::fromRgb(gradient.color(cell.value, range));
                auto* rect = new QCPItemRect(plot());
                rect->setClipAxisRect(m_rect);
                rect->topLeft->setAxes(x, y);
                rect->bottomRight->setAxes(x, y);
                rect->topLeft->setCoords(left + c - 0.5, r - 0.5);
                rect->bottomRight->setCoords(left + c + 0.5, r + 0.5);
                rect->setBrush(fill);
                // Thin separators in the background colour, as between printed cells.
                rect->setPen(QPen(pal.background, 1.0));
                rect->setSelectable(false);

                auto* text = new QCPItemText(plot());
                text->setClipAxisRect(m_rect);
                text->position->setAxes(x, y);
                text->position->setCoords(left + c, r);
                text->setText(missing ? tr("n/a") : QString::number(cell.value, 'f', g.decimals));
                text->setColor(missing ? missingText : textColorOn(fill));
                text->setSelectable(false);
            }
        auto* frame = new QCPItemRect(plot());
        frame->setClipToAxisRect(false);
        frame->topLeft->setAxes(x, y);
        frame->bottomRight->setAxes(x, y);
        frame->topLeft->setCoords(left - 0.5, -0.5);
        frame->bottomRight->setCoords(left + columns - 0.5, rows - 0.5);
        frame->setPen(QPen(pal.foreground, 1.0));
        frame->setBrush(Qt::NoBrush);
        frame->setSelectable(false);

        auto* heading = new QCPItemText(plot());
        heading->setClipToAxisRect(false);
        heading->position->setAxes(x, y);
        heading->position->setCoords(left - 0.5, -0.5);
        heading->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        heading->setPadding(QMargins(0, 0, 0, 4));
        heading->setFont(titleFont);
        heading->setColor(pal.foreground);
        heading->setText(g.title);
        if (!g.shortTitle.isEmpty())
            heading->setProperty(kPrintShortText, g.shortTitle);
        heading->setSelectable(false);
    }
    finishRebuild();
    // The frames stand in for the axis lines, which the palette has just drawn.
    x->setBasePen(Qt::NoPen);
    y->setBasePen(Qt::NoPen);
}

QString OutcomeGridView::csv() const
{
    QStringList header = {m_data.rowColumn.isEmpty() ? QStringLiteral("row") : m_data.rowColumn,
                          QStringLiteral("ratio")};
    for (int p = 0; p < 2; ++p) {
        const GridPanel& g = panel(p);
        header << g.valueColumn;
        for (const auto& [name, value] : g.constants)
            header << name;
        header << g.countColumns << g.valueColumn + QStringLiteral("_missing");
    }
    CsvTable table(header);
    for (int r = 0; r < m_data.rowCount(); ++r)
        for (int c = 0; c < m_data.columnCount(); ++c) {
            table.add(m_data.rows[r]).add(m_data.ratios[c]);
            for (int p = 0; p < 2; ++p) {
                const GridPanel& g = panel(p);
                const GridPanelCell& cell = g.cells.value(m_data.index(r, c));
                table.add(cell.value);
                for (const auto& [name, value] : g.constants)
                    table.add(value);
                for (int k = 0; k < g.countColumns.size(); ++k)
                    table.add(QString::number(cell.counts.value(k)));
                table.add(std::isnan(cell.value) ? cell.missingReason : QString());
            }
            table.endRow();
        }
    return table.text();
}

OutcomeGridView::Hit OutcomeGridView::cellAt(const QPoint& pixel) const
{
    if (!hasData() || !m_rect || !m_rect->rect().contains(pixel))
        return {};
    const double cx = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const int row = int(std::floor(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()) + 0.5));
    if (row < 0 || row >= m_data.rowCount())
        return {};
    for (int p = 0; p < 2; ++p) {
        const double local = cx - panelOffset(p);
        if (local >= -0.5 && local < m_data.columnCount() - 0.5)
            return {p, row, int(std::floor(local + 0.5))};
    }
    return {}; // between the panels
}

QPoint OutcomeGridView::cellCenter(int panel, int row, int column) const
{
    if (!m_rect)
        return {};
    return QPoint(int(m_rect->axis(QCPAxis::atBottom)->coordToPixel(panelOffset(panel) + column)),
                  int(m_rect->axis(QCPAxis::atLeft)->coordToPixel(row)));
}

QString OutcomeGridView::describe(int p, int row, int column) const
{
    if (p < 0 || p > 1 || row < 0 || row >= m_data.rowCount() || column < 0 ||
        column >= m_data.columnCount() || !m_data.isValid())
        return {};
    const GridPanel& g = panel(p);
    const GridPanelCell& cell = g.cells[m_data.index(row, column)];
    const QString where =
        tr("%1 at ratio %2").arg(m_data.rows[row], ratioText(m_data.ratios[column]));
    if (std::isnan(cell.value))
        return tr("%1\n%2: n/a (%3)").arg(where, g.valueLabel, cell.missingReason);
    QStringList counts;
    for (int k = 0; k < g.countLabels.size(); ++k)
        counts << tr("%1: %2").arg(g.countLabels[k]).arg(cell.counts.value(k));
    return tr("%1\n%2: %3%4\n%5")
        .arg(where, g.valueLabel, QString::number(cell.value, 'f', g.decimals + 1), g.unit,
             counts.join(QStringLiteral(" · ")));
}

} // namespace kvl
