#include "runpage.h"

#include "runsession.h"
#include "views/pooledmapview.h"

#include <QFileInfo>
#include <QVBoxLayout>

namespace kvl {

RunPage::RunPage(PageHost& host, QWidget* parent) : QWidget(parent), m_host(host) {}

void RunPage::bind(RunSession* session)
{
    if (m_session == session)
        return;
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    // Heaptrack's way: one signal clears every view.
    connect(session, &RunSession::closed, this, &RunPage::clear);
    connectSession(session);
}

void RunPage::setContent(QWidget* content, int top)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, top, 0, 0);
    layout->addWidget(content);
}

std::pair<int, int> RunPage::zoomOf(const PooledMapView* map)
{
    return map->hasData() && map->isZoomed() ? std::pair{map->visibleBegin(), map->visibleEnd()}
                                             : std::pair{-1, -1};
}

void RunPage::restoreZoom(PooledMapView* map, std::pair<int, int> zoom)
{
    if (zoom.first >= 0 && map->hasData())
        map->setVisibleRange(zoom.first, zoom.second);
}

Provenance RunPage::withRun(Provenance p, const RunViewData& data)
{
    const Provenance base = baseProvenance(data);
    p.run = base.run;
    p.model = base.model;
    return p;
}

Provenance RunPage::baseProvenance(const RunViewData& data)
{
    Provenance p;
    p.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
    p.model = data.provenanceModel();
    return p;
}

} // namespace kvl
