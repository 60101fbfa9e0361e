#include "heatmapview.h"

#include "csvtable.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace kvl {

// Evicted entries are washed with translucent grey: still readable, visibly gone.
QCPColorGradient HeatmapView::evictionWash()
{
    QCPColorGradient wash;
    wash.clearColorStops();
    wash.setColorStopAt(0.0, QColor(150, 150, 150, 0));
    wash.setColorStopAt(1.0, QColor(150, 150, 150, 165));
    wash.setLevelCount(64);
    return wash;
}

HeatmapView::HeatmapView(QWidget* parent)
    : PooledMapView(tr("Question attention over the context"),
                    tr("No run open.\nThe heatmap shows where the question's attention goes in "
                       "the context, per layer or head, with evidence spans and evicted entries "
                       "marked."),
                    ColorMap::Viridis, parent)
{}

void HeatmapView::setData(const Heatmap& data)
{
    m_source = data.isValid() ? data : Heatmap{}; // a malformed matrix is not drawn half-way
    applySelection();
    // A shared colour range depends on every linked map: the peers redraw with the new one.
    rebuildPeers();
}

void HeatmapView::rebuildPeers()
{
    if (!m_sharedScale)
        return;
    for (const QPointer<HeatmapView>& peer : std::as_const(m_peers))
        if (peer && peer->hasData())
            peer->rebuild();
}

bool HeatmapView::anyPeerHasData() const
{
    return std::any_of(m_peers.begin(), m_peers.end(),
                       [](const QPointer<HeatmapView>& p) { return p && p->hasData(); });
}

void HeatmapView::setHeadSelection(const HeadSelection& selection)
{
    if (selection == m_selection)
        return;
    m_selection = selection;
    // Own rows first, so that the peers size a shared colour range on them, then again
    // with the peers' new rows: every linked map ends on one range.
    applySelection();
    for (const QPointer<HeatmapView>& peer : std::as_const(m_peers))
        if (peer)
            peer->setHeadSelection(selection);
    if (hasData())
        rebuild();
}

void HeatmapView::applySelection()
{
    m_data = selectHeads(m_source, m_selection);
    dataReplaced();
    // The selector decides the layer and head only where the map carries per-head
    // data; otherwise the rows are what the caller gave (a layer's heads, say), and
    // the caller's provenance stays.
    if (m_source.kvHeads > 0 && !m_source.perHead.isEmpty()) {
        Provenance p = provenance();
        const HeadSelection::Mode mode = m_selection.mode;
        p.layer = mode == HeadSelection::Mode::LayerHeads || mode == HeadSelection::Mode::OneHead
                      ? std::clamp(m_selection.layer, 0, std::max(0, m_source.rows - 1))
                      : -1;
        p.head = mode == HeadSelection::Mode::OneHead
                     ? std::clamp(m_selection.head, 0, std::max(0, m_source.kvHeads - 1))
                     : -1;
        setProvenance(p);
    }
    setHasData(!m_data.isEmpty());
    if (hasData())
        rebuild();
}

void HeatmapView::clear()
{
    m_source = {};
    m_data = {};
    dropPooled();
    setHasData(false);
    rebuildPeers();
}

void HeatmapView::setLogScale(bool on)
{
    if (m_logScale == on)
        return;
    m_logScale = on;
    for (const QPointer<HeatmapView>& peer : std::as_const(m_peers))
        if (peer)
            peer->setLogScale(on);
    if (hasData())
        rebuild();
}

void HeatmapView::setScalePartner(HeatmapView* partner)
{
    if (partner == this || (partner && m_peers.size() == 1 && m_peers.front() == partner))
        return;
    if (partner)
        linkScales({this, partner});
    else
        unlinkScale();
}

HeatmapView* HeatmapView::scalePartner() const
{
    for (const QPointer<HeatmapView>& peer : m_peers)
        if (peer)
            return peer;
    return nullptr;
}

QVector<HeatmapView*> HeatmapView::scalePeers() const
{
    QVector<HeatmapView*> peers;
    for (const QPointer<HeatmapView>& peer : m_peers)
        if (peer)
            peers.push_back(peer);
    return peers;
}

void HeatmapView::unlinkScale()
{
    const QVector<QPointer<HeatmapView>> peers = std::exchange(m_peers, {});
    for (const QPointer<HeatmapView>& peer : peers) {
        if (!peer)
            continue;
        peer->m_peers.removeAll(QPointer<HeatmapView>(this));
        disconnect(peer, &PooledMapView::visibleRangeChanged, this, nullptr);
        disconnect(this, &PooledMapView::visibleRangeChanged, peer, nullptr);
        if (peer->hasData())
            peer->rebuild();
    }
    if (hasData())
        rebuild();
}

void HeatmapView::linkScales(const QVector<HeatmapView*>& views)
{
    for (HeatmapView* view : views)
        if (view)
            view->unlinkScale();
    HeatmapView* lead = nullptr;
    for (HeatmapView* view : views) {
        if (!view)
            continue;
        lead = lead ? lead : view;
        for (HeatmapView* other : views) {
            if (!other || other == view || view->m_peers.contains(QPointer<HeatmapView>(other)))
                continue;
            view->m_peers.push_back(other);
            // Zoom together while both show the same context.
            connect(view, &PooledMapView::visibleRangeChanged, other, [view, other](int b, int e) {
                if (other->columns() == view->columns())
                    other->setVisibleRange(b, e);
            });
        }
    }
    if (!lead)
        return;
    // The first view's settings hold for the group.
    for (HeatmapView* view : views) {
        if (!view || view == lead)
            continue;
        view->m_sharedScale = lead->m_sharedScale;
        view->m_logScale = lead->m_logScale;
        if (view->m_selection != lead->m_selection) {
            view->m_selection = lead->m_selection;
            view->applySelection();
        }
    }
    for (HeatmapView* view : views)
        if (view && view->hasData())
            view->rebuild();
}

void HeatmapView::setSharedScale(bool on)
{
    if (m_sharedScale == on)
        return;
    m_sharedScale = on;
    for (const QPointer<HeatmapView>& peer : std::as_const(m_peers))
        if (peer)
            peer->setSharedScale(on);
    if (hasData())
        rebuild();
}

double HeatmapView::maxOver(int begin, int end) const
{
    double top = 0.0;
    begin = std::max(0, begin);
    end = std::min(end, m_data.cols);
    for (int r = 0; r < m_data.rows; ++r) {
        const double* row = m_data.values.constData() + qsizetype(r) * m_data.cols;
        for (int c = begin; c < end; ++c)
            if (!std::isnan(row[c]))
                top = std::max(top, row[c]);
    }
    return top;
}

QString HeatmapView::rowLabel(int row) const
{
    return m_data.rowLabels.value(row, QString::number(row));
}

void HeatmapView::rebuild()
{
    poolThenDraw(m_data.values, m_data.rows, m_data.cols, PoolMode::Max, m_data.evicted);
}

void HeatmapView::drawPooled()
{
    const ViewPalette& pal = viewPalette();
    QCPAxisRect* rect = resetToMapAxes();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const int rows = m_data.rows;
    const bool withMask = !m_data.evicted.isEmpty();
    // A thin strip above the map for the evidence bands (about 7% of the plot).
    const double band = m_data.evidence.isEmpty() ? 0.0 : std::max(0.15, rows * 0.055);
    y->setRange(-0.5, rows - 0.5 + band * 1.4);
    const PooledGrid& grid = pooled();
    const int visible = visibleEnd() - visibleBegin();
    QString label = grid.bins < visible ? tr("Context position (max over %1 bins of %2 positions)")
                                              .arg(grid.bins)
                                              .arg(binWidthText(grid))
                                        : tr("Context position");
    QStringList notes;
    if (isZoomed())
        notes << tr("%1–%2 of %3").arg(visibleBegin()).arg(visibleEnd() - 1).arg(columns());
    const bool partnerMasked =
        std::any_of(m_peers.begin(), m_peers.end(), [](const QPointer<HeatmapView>& p) {
            return p && p->hasData() && !p->m_data.evicted.isEmpty();
        });
    if (withMask)
        notes << tr("greyed cells: evicted entries");
    else if (partnerMasked)
        notes << tr("no entry evicted");
    if (!notes.isEmpty()) {
        // Paired panels put their notes on a second line alike, so both maps keep the same
        // height and their axes stay in line; a lone panel keeps one line when it fits
        // (a label wider than the map is clipped at both ends).
        const QString oneLine = label + QStringLiteral(" · ") + notes.join(QStringLiteral(" · "));
        const int room = rect->width() > 0 ? rect->width() : width() * 3 / 4;
        const bool paired = anyPeerHasData();
        label = !paired && QFontMetrics(x->labelFont()).horizontalAdvance(oneLine) <= room
                    ? oneLine
                    : label + QLatin1Char('\n') + notes.join(QStringLiteral(" · "));
    }
    x->setLabel(label);
    y->setLabel(m_data.rowKind == QLatin1String("head")         ? tr("Head")
                : m_data.rowKind == QLatin1String("layer·head") ? tr("Layer · kv-head")
                                                                : tr("Layer"));
    setRowTicks(y, rows, m_data.rowLabels);

    QCPColorMap* map = addPooledColorMap(x, y, grid.values);
    // Max pooling keeps every bin's largest value: the top of the visible positions.
    double top = maxOver(visibleBegin(), visibleEnd());
    const bool shared = m_sharedScale && anyPeerHasData();
    if (shared)
        for (const QPointer<HeatmapView>& peer : std::as_const(m_peers))
            if (peer && peer->hasData())
                top = std::max(top, peer->maxOver(peer->visibleBegin(), peer->visibleEnd()));
    map->setGradient(colorGradient(colorMap()));
    if (m_logScale) {
        map->setDataScaleType(QCPAxis::stLogarithmic);
        map->setDataRange(QCPRange(std::max(top * 1e-4, 1e-12), std::max(top, 1e-11)));
    } else {
        map->setDataRange(QCPRange(0.0, top > 0 ? top : 1.0));
    }
    m_colorRange = {map->dataRange().lower, map->dataRange().upper};
    addColorScale(rect, map, shared ? tr("Attention (scale shared)") : tr("Attention"));

    if (!grid.flaggedFraction.isEmpty()) {
        QCPColorMap* wash = addPooledColorMap(x, y, grid.flaggedFraction);
        wash->setGradient(evictionWash());
        wash->setDataRange(QCPRange(0.0, 1.0));
    }

    const QColor evidenceColor = pal.series.at(1);
    QVector<SpanBand> bands;
    for (const PositionSpan& span : m_data.evidence) {
        auto* box = new QCPItemRect(plot());
        box->setClipAxisRect(rect);
        box->topLeft->setAxes(x, y);
        box->bottomRight->setAxes(x, y);
        box->topLeft->setCoords(span.begin - 0.5, rows - 0.5);
        box->bottomRight->setCoords(span.end - 0.5, -0.5);
        box->setPen(QPen(evidenceColor, 1.5, Qt::DashLine));
        bands.push_back({span.begin, span.end, span.label.isEmpty() ? tr("evidence") : span.label});
    }
    addSpanBands(bands, QVector<QColor>(bands.size(), evidenceColor), rows - 0.5 + band * 0.3,
                 rows - 0.5 + band * 1.3);
    finishRebuild();
}

QString HeatmapView::describeCell(int row, int bin) const
{
    const PooledGrid& grid = pooled();
    const int begin = grid.edges[bin];
    const int end = grid.edges[bin + 1];
    const QString where =
        end - begin > 1 ? tr(" (max of positions %1–%2)").arg(begin).arg(end - 1) : QString();
    QString text = tr("%1 %2 · attention %3%4")
                       .arg(m_data.rowKind == QLatin1String("head")         ? tr("head")
                            : m_data.rowKind == QLatin1String("layer·head") ? tr("kv-head")
                                                                            : tr("layer"),
                            rowLabel(row))
                       .arg(grid.value(row, bin), 0, 'g', 4)
                       .arg(where);
    if (!grid.flaggedFraction.isEmpty())
        text += tr(" · evicted %1%")
                    .arg(std::lround(100 * grid.flaggedFraction[row * grid.bins + bin]));
    return text;
}

std::optional<QString> HeatmapView::tokenAt(int position) const
{
    if (m_data.tokens.size() != m_data.cols)
        return std::nullopt;
    return m_data.tokens.value(position);
}

QString HeatmapView::csv() const
{
    return csvOf(m_data);
}

QString HeatmapView::csvOf(const Heatmap& map)
{
    const QString kind = map.rowKind.isEmpty() ? QStringLiteral("row") : map.rowKind;
    CsvTable table({kind, QStringLiteral("position"), QStringLiteral("value"),
                    QStringLiteral("evicted"), QStringLiteral("evidence")});
    QVector<bool> isEvidence(map.cols, false);
    for (const PositionSpan& span : map.evidence)
        for (int c = std::max(0, span.begin); c < std::min(span.end, map.cols); ++c)
            isEvidence[c] = true;
    const bool withMask = !map.evicted.isEmpty();
    for (int r = 0; r < map.rows; ++r)
        for (int c = 0; c < map.cols; ++c) {
            const qsizetype i = qsizetype(r) * map.cols + c;
            table.add(map.rowLabels.value(r, QString::number(r))).add(c).add(map.values[i]);
            table.add(withMask ? QString::number(map.evicted[i] ? 1 : 0) : QString());
            table.add(isEvidence[c] ? 1 : 0).endRow();
        }
    return table.text();
}

} // namespace kvl
