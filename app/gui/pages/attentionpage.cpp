#include "attentionpage.h"

#include "batchfigures.h"
#include "detailhints.h"
#include "pagehost.h"
#include "runsession.h"
#include "sessionstate.h"
#include "viewoptions.h"
#include "views/headgridview.h"
#include "views/headselector.h"
#include "views/heatmapview.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace kvl {

AttentionPage::AttentionPage(PageHost& host)
    : RunPage(host), m_heatmap(new HeatmapView), m_reference(new HeatmapView),
      m_heads(new HeadSelector), m_grid(new HeadGridView)
{
    m_reference->setObjectName(QStringLiteral("ReferenceHeatmap"));
    m_reference->setEmptyHint(tr("No FullCache attention stored for this sample."));
    m_reference->setScalePartner(m_heatmap);
    m_grid->setObjectName(QStringLiteral("HeadGrid"));
    m_grid->hide();
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_reference);
    split->addWidget(m_heatmap);
    split->addWidget(m_grid);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_heads);
    layout->addWidget(split, 1);

    const ViewOptions& options = host.viewOptions();
    for (PooledMapView* map :
         {static_cast<PooledMapView*>(m_heatmap), static_cast<PooledMapView*>(m_reference)})
        connect(&options, &ViewOptions::colorMapChanged, map, &PooledMapView::setColorMap);
    connect(&options, &ViewOptions::colorMapChanged, m_grid, &HeadGridView::setColorMap);
    connect(&options, &ViewOptions::logScaleChanged, m_heatmap, &HeatmapView::setLogScale);
    connect(&options, &ViewOptions::sharedScaleChanged, m_heatmap, &HeatmapView::setSharedScale);
    connect(m_heads, &HeadSelector::selectionChanged, m_heatmap, &HeatmapView::setHeadSelection);
    // A click on a panel of the grid shows that head.
    connect(m_grid, &HeadGridView::headSelected, this, [this](int layer, int head) {
        m_heads->setSelection({HeadSelection::Mode::OneHead, layer, head});
    });
    // The selector is the one writer of the session's heads (a restore goes through it).
    connect(m_heads, &HeadSelector::selectionChanged, this, [this](const HeadSelection& heads) {
        session()->setHeads(heads);
        updateHeadGrid();
    });
}

void AttentionPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::summaryAvailable, this, [this](const RunViewData& data) {
        describeAttentionViews(data, m_heatmap, m_reference);
    });
    connect(session, &RunSession::overviewAvailable, this, [this](const RunViewData& data) {
        describeAttentionViews(data, m_heatmap, m_reference);
    });
    connect(session, &RunSession::detailsAvailable, this, &AttentionPage::showDetails);
}

void AttentionPage::showDetails(const RunViewData& data)
{
    m_heatmap->setProvenance(withRun(data.heatmapProvenance, data));
    m_reference->setProvenance(withRun(data.referenceProvenance, data));
    if (data.heatmap.isEmpty())
        m_heatmap->clear();
    else
        m_heatmap->setData(data.heatmap);
    if (data.referenceHeatmap.isEmpty())
        m_reference->clear();
    else
        m_reference->setData(data.referenceHeatmap);
    updateHeadGrid();
    describeAttentionViews(data, m_heatmap, m_reference);
    const Heatmap& shape = data.referenceHeatmap.isEmpty() ? data.heatmap : data.referenceHeatmap;
    m_heads->setShape(shape.rows, shape.perHead.isEmpty() ? 0 : shape.kvHeads);
    // The session names the heads the selector shows (a restore then moves both).
    if (!(session()->selection().heads == m_heads->selection()))
        session()->setHeads(m_heads->selection());
}

void AttentionPage::updateHeadGrid()
{
    const bool grid = m_heads->selection().mode == HeadSelection::Mode::EveryHead;
    m_grid->setVisible(grid);
    m_heatmap->setVisible(!grid);
    m_reference->setVisible(!grid);
    if (!grid)
        return;
    m_grid->setProvenance(m_heatmap->provenance());
    m_grid->setData(m_heatmap->source());
    if (!m_heatmap->hasData()) // says why, as the heatmap it stands in for
        m_grid->setEmptyHint(m_heatmap->emptyHint());
}

PlotView* AttentionPage::exportedView() const
{
    return m_grid->isHidden() ? static_cast<PlotView*>(m_heatmap) : m_grid;
}

PageFigure AttentionPage::figure() const
{
    // FullCache and the compressed map as one figure; the head grid alone.
    if (!m_grid->isHidden())
        return {};
    return {{m_reference, m_heatmap}, Qt::Vertical};
}

ShownSelection AttentionPage::shownSelection(const ShownSelection& focus) const
{
    // The maps are always of one sample: with "All samples" asked for, the first.
    ShownSelection shown = focus;
    shown.sample = session()->data().sampleKey;
    shown.oneSampleOfAll = !shown.sample.isEmpty() && focus.sample.isEmpty();
    return shown;
}

void AttentionPage::clear()
{
    m_heatmap->clear();
    m_reference->clear();
    m_grid->clear();
}

void AttentionPage::saveState(SessionState& state) const
{
    state.attentionZoom = zoomOf(m_heatmap);
}

void AttentionPage::restoreState(const SessionState& state)
{
    m_heads->setSelection(state.heads);
    // Zoom last: the maps hold this sample's positions now.
    restoreZoom(m_heatmap, state.attentionZoom);
}

void AttentionPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    auto* reference = figures.make(new HeatmapView, data.referenceProvenance);
    reference->setTitle(tr("Question attention · FullCache"));
    if (!data.referenceHeatmap.isEmpty())
        reference->setData(data.referenceHeatmap);
    figures.add(QStringLiteral("heatmap-fullcache"), reference, 0.5,
                data.referenceMissing.isEmpty() ? tr("no FullCache attention stored")
                                                : data.referenceMissing);
    auto* heatmap = figures.make(new HeatmapView, data.heatmapProvenance);
    // One colour scale for the two files, as in the window: equal colours, equal attention.
    heatmap->setScalePartner(reference);
    heatmap->setTitle(tr("Question attention · %1").arg(data.focus.label()));
    if (!data.heatmap.isEmpty())
        heatmap->setData(data.heatmap);
    figures.add(QStringLiteral("heatmap%1").arg(figures.focusTag()), heatmap, 0.5,
                data.heatmapMissing.isEmpty() ? tr("no attention stored") : data.heatmapMissing);
}

} // namespace kvl
