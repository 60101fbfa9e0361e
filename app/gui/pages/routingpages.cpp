#include "routingpages.h"

#include "batchfigures.h"
#include "detailhints.h"
#include "runsession.h"
#include "sessionstate.h"
#include "views/evictionmapview.h"
#include "views/gerconsensusview.h"

namespace kvl {

EvictionPage::EvictionPage(PageHost& host) : RunPage(host), m_view(new EvictionMapView)
{
    setContent(m_view);
}

void EvictionPage::connectSession(RunSession* session)
{
    auto describe = [this](const RunViewData& data) { describeEvictionView(data, m_view); };
    connect(session, &RunSession::summaryAvailable, this, describe);
    connect(session, &RunSession::overviewAvailable, this, describe);
    connect(session, &RunSession::detailsAvailable, this, [this](const RunViewData& data) {
        m_view->setProvenance(withRun(data.evictionProvenance, data));
        if (data.eviction.isEmpty())
            m_view->clear();
        else
            m_view->setData(data.eviction);
        describeEvictionView(data, m_view);
    });
}

PlotView* EvictionPage::exportedView() const
{
    return m_view;
}

void EvictionPage::clear()
{
    m_view->clear();
}

void EvictionPage::saveState(SessionState& state) const
{
    state.evictionZoom = zoomOf(m_view);
}

void EvictionPage::restoreState(const SessionState& state)
{
    restoreZoom(m_view, state.evictionZoom);
}

void EvictionPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    auto* view = figures.make(new EvictionMapView, data.evictionProvenance);
    if (!data.eviction.isEmpty())
        view->setData(data.eviction);
    figures.add(QStringLiteral("eviction%1").arg(figures.focusTag()), view, 0.62,
                data.evictionMissing.isEmpty() ? tr("no kept mask stored") : data.evictionMissing);
}

GerPage::GerPage(PageHost& host) : RunPage(host), m_view(new GerConsensusView)
{
    setContent(m_view);
}

void GerPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::detailsAvailable, this, [this](const RunViewData& data) {
        // Drawn for the focus compressor, every ratio of it.
        Provenance p = baseProvenance(data);
        p.compressor = data.focus.compressor;
        m_view->setProvenance(p);
        if (data.ger.isEmpty())
            m_view->clear();
        else
            m_view->setData(data.ger);
    });
}

PlotView* GerPage::exportedView() const
{
    return m_view;
}

void GerPage::clear()
{
    m_view->clear();
}

void GerPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    Provenance p;
    p.compressor = data.focus.compressor;
    auto* view = figures.make(new GerConsensusView, p);
    if (!data.ger.isEmpty())
        view->setData(data.ger);
    figures.add(QStringLiteral("ger-consensus-%1").arg(BatchFigures::slug(data.focus.compressor)),
                view, 0.62, tr("no per-layer GER stored for %1").arg(data.focus.compressor));
}

} // namespace kvl
