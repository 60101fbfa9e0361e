// MainWindow's menus and what the window remembers between sessions: theme, display
// options, the page shown, open runs and the selection of the current one.
#include "mainwindow.h"

#include "apptheme.h"
#include "displaymenu.h"
#include "openruns.h"
#include "runpage.h"
#include "viewnavigator.h"
#include "viewoptions.h"
#include "views/glossary.h"
#include "views/plotview.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>

namespace kvl {

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New run…"), QKeySequence::New, this, &MainWindow::showNewRunDialog);
    file->addAction(tr("&Open run…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open run"), {},
                                                          tr("KVLens runs (*.kvl);;All files (*)"));
        if (!path.isEmpty())
            openRun(path);
    });
    file->addAction(tr("&Close run"), QKeySequence::Close, this, &MainWindow::closeRun);
    file->addSeparator();
    file->addAction(tr("Export &figure…"), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportFigure);
    file->addAction(tr("Export &data…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    &MainWindow::exportData);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    createViewMenu();
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About KVLens"), this, [this] {
        QMessageBox::about(
            this, tr("About KVLens"),
            tr("<h3>KVLens %1</h3><p>Visual analysis of KV-cache compression in long-context "
               "language models: why a compressed model fails, not only that it fails.</p>"
               "<p>Runs happen in a separate <tt>kvlens-cli</tt> process; this window only "
               "reads run files and draws.</p>")
                .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("&Glossary"), this, [this] {
        // Every metric and signature the views name, with its definition.
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("Glossary"), glossaryHtml(),
                                    QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("Glossary"));
        box->setTextFormat(Qt::RichText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Every page of the registry by its group; the first nine on Ctrl+1…9.
    std::optional<PageGroup> group;
    for (int i = 0; i < m_registry.entries().size(); ++i) {
        const PageEntry& entry = m_registry.entries()[i];
        if (group != entry.group) {
            group = entry.group;
            view->addSection(pageGroupTitle(entry.group));
        }
        QString label = entry.title;
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        const PageId id = entry.id;
        view->addAction(label,
                        i < 9 ? QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)) : QKeySequence(),
                        this, [this, id] { showPage(id); });
    }
    view->addSeparator();
    view->addAction(tr("&Next view"), QKeySequence(tr("Ctrl+PgDown")), this,
                    [this] { m_navigator->stepPage(1); });
    view->addAction(tr("&Previous view"), QKeySequence(tr("Ctrl+PgUp")), this,
                    [this] { m_navigator->stepPage(-1); });
    view->addAction(tr("Go to the &views list"), QKeySequence(tr("Ctrl+0")), this, [this] {
        m_navigatorDock->show();
        m_navigator->setFocus(Qt::ShortcutFocusReason);
    });
    view->addSeparator();
    m_display = new DisplayMenu(view, m_options, this);
    connect(m_display, &DisplayMenu::themeChanged, this, [this](const QString& theme) {
        for (PlotView* v : findChildren<PlotView*>())
            v->setTheme(themeFromName(theme));
    });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        if (dock != m_navigatorDock)
            view->addAction(dock->toggleViewAction());
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
