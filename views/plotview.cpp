#include "plotview.h"

#include "legendplacement.h"

#include "common/error.h"
#include "figureexporter.h"
#include "figurelayoutcheck.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStackedLayout>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace kvl {

PlotView::PlotView(const QString& title, const QString& emptyHint, QWidget* parent)
    : QWidget(parent), m_title(title), m_plot(new QCustomPlot), m_emptyLabel(new QLabel),
      m_stack(new QStackedLayout(this)), m_footer(new QVBoxLayout), m_note(new QLabel)
{
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setMargin(24);
    m_emptyLabel->setTextFormat(Qt::RichText);
    setEmptyHint(emptyHint);
    m_emptyLabel->setObjectName(QStringLiteral("emptyHint"));

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_plot, 1);
    m_footer->setContentsMargins(8, 0, 8, 4);
    layout->addLayout(m_footer);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    m_footer->addWidget(m_note);

    // The hint keeps a readable line length, centred in the view.
    auto* emptyPage = new QWidget;
    auto* emptyLayout = new QHBoxLayout(emptyPage);
    m_emptyLabel->setMaximumWidth(560);
    m_emptyLabel->setMinimumWidth(360);
    emptyLayout->addWidget(m_emptyLabel, 0, Qt::AlignCenter);
    m_stack->addWidget(emptyPage);
    m_stack->addWidget(page);
    m_stack->setCurrentIndex(0);
    m_plot->setMinimumSize(240, 160);
    m_plot->setNoAntialiasingOnDrag(true);
    // Views add plottables to their own legends; QCustomPlot's automatic
    // entry would list helper graphs (second panels, reference lines) twice.
    m_plot->setAutoAddPlottableToLegend(false);
    // A legend inside a plot goes where it hides the least data, for this layout.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_hasData && placeInsetLegends(m_plot))
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

void PlotView::setTheme(Theme theme)
{
    m_theme = theme;
    m_palette = ViewPalette::forTheme(theme);
    if (m_hasData)
        rebuild();
}

QString PlotView::emptyHint() const
{
    return m_emptyHint;
}

void PlotView::setEmptyHint(const QString& hint)
{
    // First line as a heading, the rest as a readable paragraph (not greyed out:
    // the hint is what the user reads first).
    m_emptyHint = hint;
    const QString heading = hint.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped();
    const QString rest = hint.section(QLatin1Char('\n'), 1).toHtmlEscaped();
    m_emptyLabel->setText(
        QStringLiteral("<p style='font-size:large; font-weight:600'>%1</p><p>%2</p>")
            .arg(heading, rest));
}

QString PlotView::note() const
{
    return m_note->text();
}

void PlotView::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void PlotView::setHasData(bool hasData)
{
    m_hasData = hasData;
    m_stack->setCurrentIndex(hasData ? 1 : 0);
}

void PlotView::exportFigure(const QString& path, QSize size) const
{
    if (!m_hasData)
        throw Error(path, tr("the %1 view holds no data to export").arg(m_title));
    FigureExporter::saveFigure(m_plot, path, m_provenance.toText(), size);
}

void PlotView::exportFigures(const QVector<const PlotView*>& views, const QString& path,
                             Qt::Orientation orientation, QSize each)
{
    QVector<QCustomPlot*> plots;
    QStringList provenance;
    for (const PlotView* view : views)
        if (view && view->m_hasData) {
            plots << view->m_plot;
            provenance << view->m_provenance.toText();
        }
    if (plots.isEmpty())
        throw Error(path, tr("none of the views holds data to export"));
    FigureExporter::saveFigures(plots, provenance, path, orientation, each);
}

void PlotView::exportCsv(const QString& path) const
{
    if (!m_hasData)
        throw Error(path, tr("the %1 view holds no data to export").arg(m_title));
    FigureExporter::saveCsv(path, csv(), m_provenance.toText(), m_provenance.detailLines());
}

void PlotView::setTitle(const QString& title)
{
    if (title == m_title)
        return;
    m_title = title;
    if (m_hasData)
        rebuild();
}

void PlotView::resetPlot()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->plotLayout()->clear();
    m_plot->plotLayout()->simplify();
    QFont font = m_plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    font.setBold(true);
    auto* title = new QCPTextElement(m_plot, m_title, font);
    title->setTextColor(m_palette.foreground);
    title->setMargins(QMargins(8, 6, 8, 0));
    m_plot->plotLayout()->addElement(0, 0, title);
    // Room on the right for rotated colour-scale labels.
    m_plot->plotLayout()->setMargins(QMargins(2, 0, 12, 4));
}

QCPAxisRect* PlotView::addAxisRect(int row, int column)
{
    auto* rect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(row, column, rect);
    // Plottables and items go on the "main" layer, the grid below them.
    for (QCPAxis* axis : rect->axes())
        axis->grid()->setLayer(QStringLiteral("grid"));
    // Top and right axes close the frame, without ticks of their own.
    for (QCPAxis* axis : {rect->axis(QCPAxis::atTop), rect->axis(QCPAxis::atRight)}) {
        axis->setVisible(true);
        axis->setTicks(false);
        axis->setTickLabels(false);
        axis->grid()->setVisible(false);
    }
    return rect;
}

QCPLegend* PlotView::addLegend(QCPAxisRect* rect, Qt::Alignment alignment)
{
    auto* legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, alignment);
    legend->setLayer(QStringLiteral("legend"));
    legend->setBrush(QBrush(m_palette.background));
    legend->setBorderPen(QPen(m_palette.grid));
    legend->setTextColor(m_palette.foreground);
    legend->setIconSize(18, 10);
    legend->setRowSpacing(0);
    return legend;
}

void PlotView::addPrintLegendRoom(QCPLegend* legend, int row)
{
    // The legend keeps a pointer to the room: the cell must be free (an element added
    // there later would delete the room under it).
    Q_ASSERT(!m_plot->plotLayout()->hasElement(row, 0));
    auto* room = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(row, 0, room);
    m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    // An empty grid's largest size is nothing, which would hold the plot's column to its
    // least width: a spacer, whose largest size is unbounded, keeps the column free.
    room->addElement(0, 1, new QCPLayoutElement(m_plot));
    legend->setProperty(kPrintLegendBelow, QVariant::fromValue<QObject*>(room));
}

void PlotView::finishRebuild()
{
    m_plot->setBackground(QBrush(m_palette.background));
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        rect->setBackground(QBrush(m_palette.background));
        for (QCPAxis* axis : rect->axes())
            m_palette.applyTo(axis);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setRowTicks(QCPAxis* axis, int rows, const QStringList& labels)
{
    int step = 1;
    for (int k = 0; rows / step > 12; ++k)
        step = (k % 3 == 0 ? 2 : k % 3 == 1 ? 5 : 10) * int(std::pow(10, k / 3));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int r = 0; r < rows; r += step)
        ticker->addTick(r, labels.value(r, QString::number(r)));
    axis->setTicker(ticker);
    axis->setSubTicks(false);
}

QLabel* PlotView::addInfoLabel()
{
    auto* label = new QLabel;
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    m_footer->addWidget(label);
    return label;
}

} // namespace kvl
