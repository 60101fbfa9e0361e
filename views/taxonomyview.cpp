#include "taxonomyview.h"

#include "csvtable.h"
#include "signaturenames.h"

#include <qcustomplot.h>

#include <numeric>

namespace kvl {

namespace {

int barTotal(const TaxonomyBar& bar)
{
    return std::accumulate(bar.counts.cbegin(), bar.counts.cend(), 0);
}

} // namespace

TaxonomyView::TaxonomyView(QWidget* parent)
    : TaxonomyView(tr("Failure signatures of C→W rows"),
                   tr("No run open.\nThe taxonomy shows, for each compressor and ratio, why "
                      "rows that FullCache answers correctly fail under compression."),
                   QStringLiteral("signature"), parent)
{}

TaxonomyView::TaxonomyView(const QString& title, const QString& emptyHint,
                           const QString& categoryColumn, QWidget* parent)
    : PlotView(title, emptyHint, parent), m_categoryColumn(categoryColumn)
{
    connect(
        plot(), &QCustomPlot::plottableClick, this,
        [this](QCPAbstractPlottable* p, int index, QMouseEvent*) { onPlottableClick(p, index); });
    connect(plot(), &QCustomPlot::afterLayout, this, &TaxonomyView::fitBarLabels);
}

void TaxonomyView::setData(const TaxonomyCounts& data)
{
    m_data = data;
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void TaxonomyView::clear()
{
    m_data = {};
    setHasData(false);
}

void TaxonomyView::setNormalized(bool normalized)
{
    m_normalized = normalized;
    if (hasData())
        rebuild();
}

double TaxonomyView::segmentValue(int bar, int signature) const
{
    const TaxonomyBar& b = m_data.bars[bar];
    const double count = b.counts.value(signature);
    if (!m_normalized)
        return count;
    const int total = barTotal(b);
    return total > 0 ? count / total : 0.0;
}

QPointF TaxonomyView::segmentCenter(int bar, int signature) const
{
    double base = 0.0;
    for (int s = 0; s < signature; ++s)
        base += segmentValue(bar, s);
    return QPointF(bar, base + segmentValue(bar, signature) / 2.0);
}

void TaxonomyView::rebuild()
{
    const ViewPalette& pal = viewPalette();
    resetPlot();
    QCPAxisRect* rect = addAxisRect(1, 0);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    // The legend sits right of the bars so it never hides a segment.
    auto* side = new QCPLayoutGrid;
    plot()->plotLayout()->addElement(1, 1, side);
    plot()->plotLayout()->setColumnStretchFactor(1, 0.001);
    auto* legend = new QCPLegend;
    side->addElement(0, 0, legend);
    side->addElement(1, 0, new QCPLayoutElement(plot())); // pushes the legend to the top
    side->setRowStretchFactor(0, 0.001);
    legend->setLayer(QStringLiteral("legend"));
    legend->setBrush(QBrush(pal.background));
    legend->setBorderPen(Qt::NoPen);
    legend->setTextColor(pal.foreground);
    // At 3.5 in the bars would get a third of the width: print moves the legend under
    // them (PrintLayoutFit); on screen this grid is empty and takes no room.
    addPrintLegendRoom(legend, 2);

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double maxTotal = 0.0;
    for (int b = 0; b < m_data.bars.size(); ++b) {
        const TaxonomyBar& bar = m_data.bars[b];
        ticker->addTick(b, barLabel(bar, false));
        maxTotal = std::max(maxTotal, m_normalized ? 1.0 : double(barTotal(bar)));
    }
    x->setTicker(ticker);
    x->setSubTicks(false);
    x->grid()->setVisible(false);
    x->setRange(-0.6, m_data.bars.size() - 0.4);
    m_labelsTurned = false;
    x->setLabel(tr("Compressor and compression ratio"));
    y->setLabel(m_normalized ? tr("Share of C→W rows") : tr("C→W rows"));
    y->setRange(0.0, maxTotal > 0 ? maxTotal * 1.05 : 1.0);

    QCPBars* below = nullptr;
    QVector<QCPBars*> stack;
    for (int s = 0; s < m_data.signatures.size(); ++s) {
        auto* bars = new QCPBars(x, y);
        bars->setName(signatureDisplayName(m_data.signatures[s]));
        bars->setProperty("signature", s);
        const QColor color = pal.seriesColor(s);
        bars->setBrush(color);
        bars->setPen(QPen(pal.background, 1));
        bars->setWidth(0.7);
        bars->setStackingGap(0);
        QVector<double> keys, values;
        for (int b = 0; b < m_data.bars.size(); ++b) {
            keys << b;
            values << segmentValue(b, s);
        }
        bars->setData(keys, values, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
        stack.prepend(bars);
    }
    // Legend rows read top to bottom like the stack.
    for (QCPBars* bars : stack)
        bars->addToLegend(legend);
    finishRebuild();
}

QString TaxonomyView::barLabel(const TaxonomyBar& bar, bool oneLine)
{
    return QStringLiteral("%1%2%3")
        .arg(bar.compressor, oneLine ? QStringLiteral(" ") : QStringLiteral("\n"))
        .arg(bar.ratio);
}

void TaxonomyView::fitBarLabels()
{
    QCPAxisRect* rect = plot()->axisRectCount() > 0 ? plot()->axisRect(0) : nullptr;
    if (!hasData() || !rect || m_data.bars.isEmpty())
        return;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(x->ticker());
    if (!ticker || x->range().size() <= 0.0)
        return;
    // Two lines ("snapkv" over "0.5") while a bar's pitch holds the wider of them; else
    // one line each, turned 45°, as the 24 bars of eight presses at three ratios need.
    const QFontMetrics metrics(x->tickLabelFont());
    int widest = 0;
    for (const TaxonomyBar& bar : m_data.bars)
        widest = std::max({widest, metrics.horizontalAdvance(bar.compressor),
                           metrics.horizontalAdvance(QString::number(bar.ratio))});
    const double pitch = rect->width() / x->range().size();
    const bool turn = pitch < widest + metrics.averageCharWidth();
    if (turn == m_labelsTurned)
        return;
    m_labelsTurned = turn;
    QMap<double, QString> ticks;
    for (int b = 0; b < m_data.bars.size(); ++b)
        ticks.insert(b, barLabel(m_data.bars[b], turn));
    ticker->setTicks(ticks);
    x->setTickLabelRotation(turn ? -45.0 : 0.0);
    // This layout was made with the other labels: lay out again.
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString TaxonomyView::csv() const
{
    CsvTable table({QStringLiteral("compressor"), QStringLiteral("ratio"), m_categoryColumn,
                    QStringLiteral("count"), QStringLiteral("share")});
    for (const TaxonomyBar& bar : m_data.bars) {
        const int total = barTotal(bar);
        for (int s = 0; s < m_data.signatures.size(); ++s) {
            const int count = bar.counts.value(s);
            table.add(bar.compressor).add(bar.ratio).add(m_data.signatures[s]).add(count);
            table.add(total > 0 ? double(count) / total : std::nan("")).endRow();
        }
    }
    return table.text();
}

void TaxonomyView::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    auto* bars = qobject_cast<QCPBars*>(plottable);
    if (!bars || !bars->property("signature").isValid() || dataIndex < 0 ||
        dataIndex >= m_data.bars.size())
        return;
    const int s = bars->property("signature").toInt();
    const TaxonomyBar& bar = m_data.bars[dataIndex];
    emit selectionChanged(
        {bar.compressor, bar.ratio, m_data.signatures.value(s), bar.counts.value(s)});
}

} // namespace kvl
