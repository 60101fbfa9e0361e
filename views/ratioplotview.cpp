#include "ratioplotview.h"

#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kvl {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// How near (pixels) the pointer must be to a point for its tooltip.
constexpr double kTipRadius = 10.0;

QCPScatterStyle::ScatterShape shapeFor(int index)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssDisc,
                                                           QCPScatterStyle::ssSquare,
                                                           QCPScatterStyle::ssTriangle,
                                                           QCPScatterStyle::ssDiamond,
                                                           QCPScatterStyle::ssTriangleInverted,
                                                           QCPScatterStyle::ssCrossSquare,
                                                           QCPScatterStyle::ssPlusCircle};
    constexpr int count = int(sizeof(shapes) / sizeof(shapes[0]));
    return shapes[((index % count) + count) % count];
}

QCPScatterStyle scatterFor(int shapeIndex, bool hollow, const QColor& color,
                           const QColor& background)
{
    const QCPScatterStyle::ScatterShape shape = shapeFor(shapeIndex);
    if (shape == QCPScatterStyle::ssDisc)
        return hollow ? QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.5),
                                        QBrush(background), 7)
                      : QCPScatterStyle(QCPScatterStyle::ssDisc, color, 7);
    return QCPScatterStyle(shape, QPen(color, 1.5), QBrush(hollow ? background : color), 7);
}

QString number(double v)
{
    return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', 3);
}

} // namespace

RatioPlotView::RatioPlotView(const QString& title, const QString& emptyHint, QWidget* parent)
    : PlotView(title, emptyHint, parent)
{
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, &RatioPlotView::showPointTip);
    // On the widget, not in the figure's footer: an exported figure cannot be hovered.
    plot()->setToolTip(tr("Hover a point for its n"));
}

QString RatioPlotView::nRange(const QVector<int>& n)
{
    // Points without a count (n = 0: no rows yet) do not narrow the range.
    int lo = -1, hi = -1;
    for (int v : n)
        if (v > 0) {
            lo = lo < 0 ? v : std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (lo < 0)
        return {};
    return lo == hi ? tr("n = %1").arg(lo) : tr("n = %1–%2").arg(lo).arg(hi);
}

double RatioPlotView::printMinHeightInches() const
{
    int entries = 0;
    for (QCPAxisRect* rect : plot()->axisRects())
        for (int i = 0; i < rect->insetLayout()->elementCount(); ++i)
            if (auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i)))
                entries += legend->itemCount();
    // One entry a row: long entries ("streamingllm (cliff at 0.5; n = 2600)") do not go
    // two to a row in a single column. A double column's 0.62 aspect is taller anyway.
    return std::max(2.6, 2.0 + 0.16 * entries);
}

RatioPlotView::RatioAxes RatioPlotView::resetToRatioAxes(const QString& valueLabel,
                                                         const QVector<double>& ratios,
                                                         int seriesCount, const QString& ratioLabel)
{
    resetPlot();
    m_series.clear();
    m_anyInterval = false;
    m_seriesCount = std::max(1, seriesCount);
    RatioAxes axes;
    axes.rect = addAxisRect(1, 0);
    axes.legend = addLegend(axes.rect, Qt::AlignBottom | Qt::AlignLeft);
    // A legend that hides curves in every corner goes under the plot in an export.
    addPrintLegendRoom(axes.legend, 2);
    axes.x = axes.rect->axis(QCPAxis::atBottom);
    axes.y = axes.rect->axis(QCPAxis::atLeft);
    axes.x->setLabel(ratioLabel.isEmpty()
                         ? tr("Compression ratio (share of context KV entries removed)")
                         : ratioLabel);
    axes.y->setLabel(valueLabel);
    m_x = axes.x;
    m_y = axes.y;

    // The ratio axis spans the data's ratios, not always 0…1: a sweep over 0.5…0.9
    // uses the whole width. The margin leaves room for the spread of series.
    std::vector<double> sorted;
    for (double r : ratios)
        if (!std::isnan(r))
            sorted.push_back(r);
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    double lo = sorted.empty() ? 0.0 : sorted.front();
    double hi = sorted.empty() ? 1.0 : sorted.back();
    const double span = hi - lo;
    const double margin = std::max(0.05, 0.1 * span);
    axes.x->setRange(lo - margin, hi + margin);
    double minGap = span > 0 ? span : 2 * margin;
    for (size_t i = 1; i < sorted.size(); ++i)
        minGap = std::min(minGap, sorted[i] - sorted[i - 1]);
    // All series at one ratio within 30% of the gap to the next ratio, and within 4% of
    // the axis: close enough to read as one ratio, apart enough to tell apart.
    const double width = axes.x->range().size();
    m_step = m_seriesCount > 1 ? std::min(0.3 * minGap, 0.04 * width) / (m_seriesCount - 1) : 0.0;
    // A little room below 0: a compressor that fails every sample draws its curve above
    // the axis line instead of hidden under it.
    axes.y->setRange(-0.03, 1.05);
    return axes;
}

void RatioPlotView::addReferenceLine(const RatioAxes& axes, const QString& name, double value,
                                     double lo, double hi)
{
    // Past both ends of the fitted axis (ratios, or steps counted from 0), so the line
    // crosses the whole range.
    const QCPRange range = axes.x->range();
    const QVector<double> keys{range.lower - range.size(), range.upper + range.size()};
    QColor bandColor = viewPalette().reference;
    if (!std::isnan(lo) && !std::isnan(hi)) {
        bandColor.setAlpha(40);
        auto* low = new QCPGraph(axes.x, axes.y);
        low->setData(keys, {lo, lo});
        low->setPen(Qt::NoPen);
        low->setSelectable(QCP::stNone);
        auto* high = new QCPGraph(axes.x, axes.y);
        high->setData(keys, {hi, hi});
        high->setPen(Qt::NoPen);
        high->setBrush(bandColor);
        high->setChannelFillGraph(low);
        high->setSelectable(QCP::stNone);
    }
    auto* line = new QCPGraph(axes.x, axes.y);
    line->setName(name);
    line->setData(keys, {value, value});
    line->setPen(QPen(viewPalette().reference, 1.5, Qt::DashLine));
    line->setSelectable(QCP::stNone);
    line->addToLegend(axes.legend);
}

QCPGraph* RatioPlotView::addRatioCurve(const RatioAxes& axes, const RatioSeries& s)
{
    const int index = int(m_series.size());
    DrawnSeries drawn;
    drawn.offset = (index - (m_seriesCount - 1) / 2.0) * m_step;

    // Points in ratio order: the graph keeps them sorted, the error bars follow its order.
    std::vector<int> order(size_t(std::min(s.ratios.size(), s.values.size())));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&s](int a, int b) { return s.ratios[a] < s.ratios[b]; });
    QVector<double> keys, values, minus, plus;
    bool hasInterval = false;
    for (int i : order) {
        const double r = s.ratios[i], v = s.values[i];
        const double lo = s.lo.value(i, kNaN), hi = s.hi.value(i, kNaN);
        keys << r + drawn.offset;
        values << v;
        minus << (std::isnan(lo) || std::isnan(v) ? kNaN : v - lo);
        plus << (std::isnan(hi) || std::isnan(v) ? kNaN : hi - v);
        hasInterval |= !std::isnan(lo) && !std::isnan(hi);
        drawn.ratios << r;
        QString tip = s.keyName.isEmpty()
                          ? tr("%1 at ratio %2: %3").arg(s.pointName).arg(r).arg(number(v))
                          : tr("%1 at %2 %3: %4", "series at step 2: value")
                                .arg(s.pointName, s.keyName)
                                .arg(r)
                                .arg(number(v));
        const int n = s.n.value(i, -1);
        const qint64 k = s.successes.value(i, -1);
        if (n >= 0 && k >= 0)
            tip += tr(" (%1 of %2)").arg(k).arg(n);
        else if (n >= 0)
            tip += tr(" (n = %1)").arg(n);
        if (!std::isnan(lo) && !std::isnan(hi))
            tip += QLatin1Char('\n') + tr("95% interval %1–%2").arg(number(lo), number(hi));
        drawn.points.push_back({r + drawn.offset, v, tip});
    }

    auto* graph = new QCPGraph(axes.x, axes.y);
    graph->setName(s.name);
    graph->setData(keys, values, true);
    graph->setPen(QPen(s.color, 2, s.penStyle));
    graph->setScatterStyle(scatterFor(s.shapeIndex, s.hollow, s.color, viewPalette().background));
    if (!s.name.isEmpty())
        graph->addToLegend(axes.legend);
    if (hasInterval) {
        m_anyInterval = true;
        auto* bars = new QCPErrorBars(axes.x, axes.y);
        bars->setDataPlottable(graph);
        bars->setData(minus, plus);
        bars->setPen(QPen(s.color, 1.2));
        bars->setWhiskerWidth(6);
        bars->setSymbolGap(0);
        bars->setSelectable(QCP::stNone);
    }
    drawn.graph = graph;
    m_series << drawn;
    return graph;
}

void RatioPlotView::addLegendKey(const RatioAxes& axes, const QString& name, const QColor& color,
                                 Qt::PenStyle style, int shapeIndex, bool hollow, int column)
{
    // A graph without data stands for its colour or style in the legend.
    auto* key = new QCPGraph(axes.x, axes.y);
    key->setName(name);
    key->setPen(QPen(color, 2, style));
    key->setScatterStyle(shapeIndex < 0
                             ? QCPScatterStyle()
                             : scatterFor(shapeIndex, hollow, color, viewPalette().background));
    key->setSelectable(QCP::stNone);
    int row = 0;
    while (axes.legend->hasElement(row, column))
        ++row;
    axes.legend->addElement(row, column, new QCPPlottableLegendItem(axes.legend, key));
}

void RatioPlotView::finishRatioPlot(const RatioAxes& axes, const QString& note)
{
    // The legend goes to the corner with the fewest points: accuracy falls towards the
    // bottom right, leakage rises from the bottom left, where a fixed legend hid the
    // points at 0.
    const QCPRange xr = axes.x->range(), yr = axes.y->range();
    int counts[4] = {0, 0, 0, 0}; // bottom left, bottom right, top left, top right
    for (const DrawnSeries& s : m_series)
        for (const DrawnPoint& p : s.points)
            if (!std::isnan(p.value))
                ++counts[(p.value > yr.center() ? 2 : 0) + (p.key > xr.center() ? 1 : 0)];
    static const Qt::Alignment corners[4] = {
        Qt::AlignBottom | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignRight,
        Qt::AlignTop | Qt::AlignLeft, Qt::AlignTop | Qt::AlignRight};
    int best = 0;
    for (int c = 1; c < 4; ++c)
        if (counts[c] < counts[best])
            best = c;
    for (int i = 0; i < axes.rect->insetLayout()->elementCount(); ++i)
        if (axes.rect->insetLayout()->elementAt(i) == axes.legend)
            axes.rect->insetLayout()->setInsetAlignment(i, corners[best]);

    QStringList parts;
    if (!note.isEmpty())
        parts << note;
    if (m_anyInterval)
        parts << tr("bars: 95% intervals");
    if (m_step > 0)
        parts << tr("series at one ratio drawn slightly apart, so equal values stay visible");
    QFont font = plot()->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    auto* foot = new QCPTextElement(plot(), parts.join(QStringLiteral(" · ")), font);
    foot->setTextColor(viewPalette().foreground);
    foot->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    foot->setMargins(QMargins(8, 0, 8, 2));
    // Row 2 is the room an export moves a crowded legend into (resetToRatioAxes).
    plot()->plotLayout()->addElement(3, 0, foot);
    finishRebuild();
}

double RatioPlotView::ratioOf(const QCPGraph* graph, int dataIndex) const
{
    for (const DrawnSeries& s : m_series)
        if (s.graph == graph)
            return s.ratios.value(dataIndex, kNaN);
    return kNaN;
}

double RatioPlotView::drawnRatio(int series, double ratio) const
{
    return ratio + (series >= 0 && series < m_series.size() ? m_series[series].offset : 0.0);
}

QPoint RatioPlotView::pointPixel(int series, int point) const
{
    if (series < 0 || series >= m_series.size() || !m_x || !m_y)
        return {};
    const DrawnPoint& p = m_series[series].points.value(point);
    return QPoint(int(std::lround(m_x->coordToPixel(p.key))),
                  int(std::lround(m_y->coordToPixel(p.value))));
}

QString RatioPlotView::pointTipAt(const QPoint& pixel) const
{
    if (!hasData() || !m_x || !m_y)
        return {};
    double best = kTipRadius * kTipRadius;
    QString tip;
    for (const DrawnSeries& s : m_series)
        for (const DrawnPoint& p : s.points) {
            if (std::isnan(p.value))
                continue;
            const double dx = m_x->coordToPixel(p.key) - pixel.x();
            const double dy = m_y->coordToPixel(p.value) - pixel.y();
            if (dx * dx + dy * dy <= best) {
                best = dx * dx + dy * dy;
                tip = p.tip;
            }
        }
    return tip;
}

void RatioPlotView::showPointTip(QMouseEvent* event)
{
    const QString tip = pointTipAt(event->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, plot());
}

} // namespace kvl
