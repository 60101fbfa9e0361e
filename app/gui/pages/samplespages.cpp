#include "samplespages.h"

#include "comparepanel.h"
#include "latestrequest.h"
#include "openruns.h"
#include "pagehost.h"
#include "runcomparepanel.h"
#include "runsession.h"
#include "sampledetail.h"
#include "sampleinspector.h"
#include "sessionstate.h"
#include "storepolicy.h"
#include "viewoptions.h"
#include "views/heatmapview.h"

#include <QFileInfo>

namespace kvl {

SamplePage::SamplePage(PageHost& host)
    : RunPage(host), m_inspector(new SampleInspector), m_request(new LatestRequest(this))
{
    setContent(m_inspector);
    connect(&host.viewOptions(), &ViewOptions::sharedScaleChanged, m_inspector->heatmap(),
            &HeatmapView::setSharedScale);
}

void SamplePage::connectSession(RunSession* session)
{
    connect(session, &RunSession::rowInspected, this, &SamplePage::inspect);
    connect(session, &RunSession::summaryAvailable, this, [this](const RunViewData& data) {
        // Empty for a run KVLens made itself.
        m_inspector->setIdleHint(notReleasedText(data.importedFrom, data.notReleased));
    });
}

void SamplePage::inspect(const ResultRow& row)
{
    host().showPage(id());
    load(row.result.sampleKey, row.result.compressor, row.result.ratio);
}

void SamplePage::load(const QString& sampleKey, const QString& compressor, double ratio)
{
    const QString path = session()->path();
    m_inspector->setBusy(sampleKey);
    m_request->run<SampleDetail>(
        [path, sampleKey, compressor, ratio] {
            return loadSampleDetail(path, sampleKey, compressor, ratio);
        },
        [this](const SampleDetail& d) {
            m_inspector->setDetail(d);
            emit shownSelectionChanged();
            emit detailAvailable(d.sample.key);
        },
        [this](const QString& message) { m_inspector->setBusy(message); });
}

void SamplePage::saveState(SessionState& state) const
{
    const SampleDetail& d = m_inspector->detail();
    state.inspectedSample = d.sample.key;
    state.inspectedCompressor = d.sample.key.isEmpty() ? QString() : d.compressor;
    state.inspectedRatio = d.sample.key.isEmpty() ? -1.0 : d.ratio;
}

void SamplePage::restoreState(const SessionState& state)
{
    if (!state.inspectedSample.isEmpty() && !session()->path().isEmpty())
        load(state.inspectedSample, state.inspectedCompressor, state.inspectedRatio);
}

PlotView* SamplePage::exportedView() const
{
    return m_inspector->heatmap();
}

PageFigure SamplePage::figure() const
{
    return {{m_inspector->referenceHeatmap(), m_inspector->heatmap()}, Qt::Horizontal};
}

ShownSelection SamplePage::shownSelection(const ShownSelection& focus) const
{
    // The row it was given, whatever the toolbar's selection.
    const SampleDetail& d = m_inspector->detail();
    if (d.sample.key.isEmpty())
        return focus;
    return {ConfigChoice{d.compressor, d.ratio}, d.sample.key, false};
}

void SamplePage::clear()
{
    m_request->cancel();
    m_inspector->clear();
}

CompareSamplesPage::CompareSamplesPage(PageHost& host) : RunPage(host), m_panel(new ComparePanel)
{
    setContent(m_panel);
    // The reference's scale option reaches its two linked panels.
    connect(&host.viewOptions(), &ViewOptions::sharedScaleChanged, m_panel->heatmap(0),
            &HeatmapView::setSharedScale);
}

void CompareSamplesPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::detailsAvailable, this, [this](const RunViewData& data) {
        updateChoices();
        m_panel->setIdleHint(notReleasedText(data.importedFrom, data.notReleased));
        m_panel->setSample(data.sampleKey, this->session()->path());
    });
    connect(session, &RunSession::rowInspected, this, [this](const ResultRow& row) {
        m_panel->setSample(row.result.sampleKey, this->session()->path());
    });
    // The other open runs' configurations are offered as they were when this run's focus
    // was last read: the preferred pair is chosen against the focus, which the details bring.
}

void CompareSamplesPage::updateChoices()
{
    const OpenRuns& runs = host().openRuns();
    const QString current = session()->path();
    const ConfigChoice focus = session()->data().focus;
    // The current run first, then the other open runs (to compare two models' runs).
    QStringList paths = runs.paths();
    if (paths.removeAll(current) > 0)
        paths.prepend(current);
    const bool several = runs.loadedCount() > 1;
    QVector<CompareChoice> choices;
    QHash<QString, QStringList> samples;
    for (const QString& path : paths) {
        samples.insert(path, runs.sampleKeys(path));
        for (const ConfigChoice& c : runs.configs(path))
            choices << CompareChoice{path, several ? QFileInfo(path).completeBaseName() : QString(),
                                     c};
    }
    // A = the focus configuration, B = another compressor at the same ratio.
    CompareChoice a, b;
    for (const CompareChoice& c : choices) {
        if (c.path != current)
            continue;
        if (c.config == focus)
            a = c;
        else if (b.path.isEmpty() && c.config.compressor != focus.compressor &&
                 c.config.compressor != kFullCacheCompressor &&
                 sameRatio(c.config.ratio, focus.ratio))
            b = c;
    }
    m_panel->setPreferred(a, b);
    m_panel->setChoices(choices, samples);
}

PlotView* CompareSamplesPage::exportedView() const
{
    return m_panel->heatmap(1);
}

PageFigure CompareSamplesPage::figure() const
{
    // Reference, A and B stacked as on screen, on their one colour scale.
    return {{m_panel->heatmap(0), m_panel->heatmap(1), m_panel->heatmap(2)}, Qt::Vertical};
}

ShownSelection CompareSamplesPage::shownSelection(const ShownSelection& focus) const
{
    ShownSelection shown = focus;
    shown.sample = m_panel->sample();
    return shown;
}

void CompareSamplesPage::clear()
{
    updateChoices();
}

CompareRunsPage::CompareRunsPage(PageHost& host) : RunPage(host), m_panel(new RunComparePanel)
{
    setContent(m_panel);
}

void CompareRunsPage::connectSession(RunSession* session)
{
    auto update = [this] { m_panel->setRuns(host().openRuns().paths(), this->session()->path()); };
    connect(session, &RunSession::detailsAvailable, this, update);
    connect(session, &RunSession::closed, this, update);
}

} // namespace kvl
