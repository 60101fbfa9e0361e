#include "sessionkeeper.h"

#include "common/error.h"
#include "displaymenu.h"
#include "mainwindow.h"
#include "openruns.h"
#include "runpage.h"

#include <QFileInfo>

namespace kvl {

SessionKeeper::SessionKeeper(MainWindow& window, OpenRuns& openRuns, const QString& path)
    : QObject(&window), m_window(window), m_openRuns(openRuns), m_path(path)
{
    // After the window's own binding: the pages draw what arrives before the restore.
    connect(window.sessions(), &RunSessions::currentChanged, this, &SessionKeeper::follow);
    follow(window.session(), nullptr);
}

void SessionKeeper::follow(RunSession* session, RunSession* previous)
{
    if (previous)
        previous->disconnect(this);
    connect(session, &RunSession::summaryAvailable, this, [this, session] {
        // The overlap ratio the run was left at, settled against its ratios before the
        // pages draw the overview.
        if (m_pending && m_pending->currentRun == session->path() &&
            session->selection().overlapRatio < 0)
            session->setOverlapRatio(m_pending->overlapRatio);
    });
    connect(session, &RunSession::detailsAvailable, this, [this, session] {
        if (!m_pending || m_pending->currentRun != session->path())
            return;
        const SessionState s = *m_pending;
        m_pending.reset();
        for (RunPage* page : m_window.runPages())
            page->restoreState(s);
    });
}

void SessionKeeper::load()
{
    if (m_path.isEmpty() || !QFileInfo::exists(m_path))
        return;
    try {
        restore(SessionState::load(m_path));
    } catch (const Error& e) {
        m_window.showMessage(tr("Session not restored: %1").arg(e.message()));
    }
}

void SessionKeeper::save() const
{
    if (m_path.isEmpty())
        return;
    try {
        state().save(m_path);
    } catch (const Error& e) {
        qWarning("%s", qPrintable(e.message()));
    }
}

SessionState SessionKeeper::state() const
{
    SessionState s = m_remembered;
    const RunSession* session = m_window.session();
    s.openRuns = m_openRuns.paths();
    s.currentRun = session->path();
    s.currentPage = m_window.currentPage().toString();
    const RunSelection& selection = session->selection();
    s.heads = selection.heads;
    s.accuracySuite = selection.accuracySuite;
    s.overlapA = selection.overlapA;
    s.overlapB = selection.overlapB;
    if (!selection.signature.isEmpty())
        s.selectedSignature = selection.signature;
    if (!s.currentRun.isEmpty()) {
        // Exactly what the views show now, to be shown again on the next start.
        const ConfigChoice focus = session->data().focus;
        if (!focus.compressor.isEmpty()) {
            s.selectedCompressor = focus.compressor;
            s.selectedRatio = focus.ratio;
        }
        s.selectedSample = session->request().sampleKey;
        s.overlapRatio = selection.overlapRatio;
        for (const RunPage* page : m_window.runPages())
            page->saveState(s);
    }
    m_window.displayMenu()->save(s);
    s.windowGeometry = m_window.saveGeometry();
    s.windowState = m_window.saveState();
    return s;
}

void SessionKeeper::restore(const SessionState& s)
{
    m_remembered = s;
    if (!s.windowGeometry.isEmpty())
        m_window.restoreGeometry(s.windowGeometry);
    if (!s.windowState.isEmpty())
        m_window.restoreState(s.windowState);
    m_window.displayMenu()->restore(s);
    // Kept as chosen while no run can show them; the first run shown takes them over.
    RunSession* session = m_window.session();
    session->setHeads(s.heads);
    session->setAccuracySuite(s.accuracySuite);
    session->setOverlapPair(s.overlapA, s.overlapB);
    session->setSignature(s.selectedSignature);
    if (!m_window.showPage(PageId::fromString(s.currentPage)))
        m_window.showPage(m_window.registry().entries().constFirst().id);
    // Runs are listed; the current one is opened when this build can read run files.
    for (const QString& path : s.openRuns)
        m_openRuns.add(path);
    QString current = s.currentRun;
    if (current.isEmpty() && !s.openRuns.isEmpty())
        current = s.openRuns.constLast();
    if (current.isEmpty() || !QFileInfo::exists(current))
        return;
    // The configuration and sample last looked at, when the run still has them; the
    // overlap ratio, heads and zoom once the run is shown.
    m_pending = s;
    m_pending->currentRun = current;
    m_waiting = true;
    if (m_window.sessions()->canRead())
        openWaitingRun();
}

void SessionKeeper::openWaitingRun()
{
    if (!m_waiting || !m_pending || !m_window.session()->path().isEmpty())
        return;
    m_waiting = false;
    const SessionState& s = *m_pending;
    m_window.openRun(
        RunRequest{s.currentRun, s.selectedCompressor, s.selectedRatio, s.selectedSample});
}

} // namespace kvl
