// MainWindow's menus (the View and Help menus are classes of their own) and what the
// window remembers between sessions: theme, display options, the page shown, open runs
// and the selection of the current one.
#include "mainwindow.h"

#include "apptheme.h"
#include "displaymenu.h"
#include "helpmenu.h"
#include "openruns.h"
#include "runpage.h"
#include "viewnavigator.h"
#include "viewmenu.h"
#include "viewoptions.h"
#include "views/plotview.h"

#include <QFileInfo>
#include <QMenuBar>

namespace kvl {

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New run…"), QKeySequence::New, this, &MainWindow::showNewRunDialog);
    file->addAction(tr("&Open run…"), QKeySequence::Open, this, &MainWindow::askForRun);
    file->addAction(tr("&Close run"), QKeySequence::Close, this, &MainWindow::closeRun);
    file->addSeparator();
    file->addAction(tr("Export &figure…"), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportFigure);
    file->addAction(tr("Export &data…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    &MainWindow::exportData);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    auto* view = new ViewMenu(this, m_registry, m_navigator, m_navigatorDock, m_options);
    connect(view, &ViewMenu::pageRequested, this, &MainWindow::showPage);
    m_display = view->display();
    connect(m_display, &DisplayMenu::themeChanged, this, [this](const QString& theme) {
        for (PlotView* v : findChildren<PlotView*>())
            v->setTheme(themeFromName(theme));
    });
    HelpMenu::addTo(this);
}

void MainWindow::setTheme(const QString& theme)
{
    m_display->setTheme(theme);
}

SessionState MainWindow::sessionState() const
{
    SessionState s = m_remembered;
    s.openRuns = m_openRuns->paths();
    s.currentRun = m_session->path();
    s.currentPage = currentPage().toString();
    const RunSelection& selection = m_session->selection();
    s.heads = selection.heads;
    s.accuracySuite = selection.accuracySuite;
    s.overlapA = selection.overlapA;
    s.overlapB = selection.overlapB;
    if (!selection.signature.isEmpty())
        s.selectedSignature = selection.signature;
    if (!s.currentRun.isEmpty()) {
        // Exactly what the views show now, to be shown again on the next start.
        const ConfigChoice focus = m_session->data().focus;
        if (!focus.compressor.isEmpty()) {
            s.selectedCompressor = focus.compressor;
            s.selectedRatio = focus.ratio;
        }
        s.selectedSample = m_session->request().sampleKey;
        s.overlapRatio = selection.overlapRatio;
        for (const RunPage* page : runPages())
            page->saveState(s);
    }
    m_display->save(s);
    s.windowGeometry = saveGeometry();
    s.windowState = saveState();
    return s;
}

void MainWindow::applySessionState(const SessionState& s)
{
    m_remembered = s;
    if (!s.windowGeometry.isEmpty())
        restoreGeometry(s.windowGeometry);
    if (!s.windowState.isEmpty())
        restoreState(s.windowState);
    m_display->restore(s);
    m_session->setHeads(s.heads); // kept as chosen while no run can show them
    m_session->setAccuracySuite(s.accuracySuite);
    m_session->setOverlapPair(s.overlapA, s.overlapB);
    m_session->setSignature(s.selectedSignature);
    if (!showPage(PageId::fromString(s.currentPage)))
        showPage(m_registry.entries().constFirst().id);
    // Runs are listed; the current one is opened when this build can read run files.
    for (const QString& path : s.openRuns)
        m_openRuns->add(path);
    QString current = s.currentRun;
    if (current.isEmpty() && !s.openRuns.isEmpty())
        current = s.openRuns.constLast();
    if (current.isEmpty() || !QFileInfo::exists(current))
        return;
    // The configuration and sample last looked at, when the run still has them; the
    // overlap ratio, heads and zoom once the run is shown (applyPendingRestore).
    m_sessionRun = RunRequest{current, s.selectedCompressor, s.selectedRatio, s.selectedSample};
    m_pendingRestore = s;
    m_pendingRestore->currentRun = current;
    if (m_session->canRead()) {
        const RunRequest request = m_sessionRun;
        m_sessionRun = {};
        openRequest(request);
    }
}

void MainWindow::applyPendingRestore()
{
    if (!m_pendingRestore || m_pendingRestore->currentRun != m_session->path())
        return;
    const SessionState s = *m_pendingRestore;
    m_pendingRestore.reset();
    for (RunPage* page : runPages())
        page->restoreState(s);
}

} // namespace kvl
