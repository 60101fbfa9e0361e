#include "mainwindow.h"

#include "common/error.h"
#include "demorunner.h"
#include "detailhints.h"
#include "littletodiagnose.h"
#include "newrundialog.h"
#include "openruns.h"
#include "pageexport.h"
#include "rowsdock.h"
#include "rowspanel.h"
#include "runlauncher.h"
#include "runlistdock.h"
#include "runpage.h"
#include "runstatusline.h"
#include "runwatcher.h"
#include "selectionbar.h"
#include "selectionheader.h"
#include "selectionline.h"
#include "startpage.h"
#include "viewnavigator.h"
#include "viewoptions.h"
#include "views/plotview.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace kvl {

MainWindow::MainWindow(const QString& sessionPath, QWidget* parent, PageRegistry registry)
    : QMainWindow(parent), m_sessionPath(sessionPath), m_registry(std::move(registry)),
      m_session(new RunSession(this)), m_openRuns(new OpenRuns(this)),
      m_options(new ViewOptions(this)), m_watcher(new RunWatcher(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_stack = new QStackedWidget;
    setCentralWidget(m_stack);
    // The window's hints first: describeRunState resets the hints a page then sets.
    connectSession();
    createPages();
    createStartPage();
    m_selectionBar = new SelectionBar(m_session, this);
    addToolBar(m_selectionBar);
    createDocks();
    createMenus();
    setRunChromeVisible(false);
    m_demo = new DemoRunner(m_start, statusBar(), m_session, this);
    connect(m_demo, &DemoRunner::openRequested, this, &MainWindow::openLaunchedRun);
    connect(m_demo, &DemoRunner::refreshRequested, this, &MainWindow::refreshRun);
    connect(m_demo, &DemoRunner::message, this, &MainWindow::showMessage);
    m_runLabel = new QLabel;
    statusBar()->addPermanentWidget(m_runLabel);
    connect(m_watcher, &RunWatcher::changed, this, [this](const QString& path) {
        if (path == m_session->path())
            m_session->refresh();
    });
    updateTitle();
    showMessage(tr("Open a run file (File › Open run…) or start a new run."));
    resize(1280, 800);

    if (!m_sessionPath.isEmpty() && QFileInfo::exists(m_sessionPath)) {
        try {
            applySessionState(SessionState::load(m_sessionPath));
        } catch (const Error& e) {
            showMessage(tr("Session not restored: %1").arg(e.message()));
        }
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::connectSession()
{
    auto describe = [this](const RunViewData& data) {
        describeRunState(data, findChildren<PlotView*>());
    };
    connect(m_session, &RunSession::summaryAvailable, this, describe);
    connect(m_session, &RunSession::overviewAvailable, this, describe);
    connect(m_session, &RunSession::closed, this, [describe] { describe({}); });
    connect(m_session, &RunSession::summaryAvailable, this, [this](const RunViewData& data) {
        // A restored run opens at the overlap ratio it was left at, before the pages draw.
        if (m_pendingRestore && m_pendingRestore->currentRun == data.path &&
            m_session->selection().overlapRatio < 0)
            m_session->setOverlapRatio(m_pendingRestore->overlapRatio);
        m_openRuns->setLoaded(data.path, data.configs, data.sampleKeys);
        m_watcher->watch(data.path);
        showRunStatus();
        m_stack->setCurrentWidget(m_runPage);
        setRunChromeVisible(true);
        updateTitle();
    });
    connect(m_session, &RunSession::overviewAvailable, this,
            [this](const RunViewData&, bool refresh) {
                if (refresh)
                    m_rowsDock->refresh();
            });
    connect(m_session, &RunSession::headsChanged, this, &MainWindow::updateSelectionTitle);
    connect(m_session, &RunSession::loaded, this,
            [this](const RunViewData& data) { emit runLoaded(data.path); });
    connect(m_session, &RunSession::verificationAvailable, this, &MainWindow::showRunStatus);
    connect(m_session, &RunSession::verificationFailed, this,
            [this](const QString& path, const QString& message) {
                // What was drawn came from a file with a changed row: withdraw all of it,
                // then refuse the file as an open that failed does.
                if (path == m_session->path())
                    closeRun();
                showLoadError(path, message);
            });
    connect(m_session, &RunSession::loadFailed, this,
            [this](const QString& path, const QString& message, bool refresh) {
                if (!refresh) {
                    showLoadError(path, message);
                    return;
                }
                // A sweep mid-write can be caught between states; the next poll retries.
                showMessage(tr("Refresh failed: %1").arg(message));
            });
}

void MainWindow::createPages()
{
    m_pages = new QStackedWidget;
    m_navigator = new ViewNavigator;
    std::optional<PageGroup> group;
    for (const PageEntry& entry : m_registry.entries()) {
        if (group != entry.group) {
            group = entry.group;
            m_navigator->addGroup(pageGroupTitle(entry.group), pageGroupQuestion(entry.group));
        }
        RunPage* page = entry.create(*this);
        page->setId(entry.id);
        page->bind(m_session);
        connect(page, &RunPage::shownSelectionChanged, this, &MainWindow::updateSelectionTitle);
        // A page taller than the window scrolls rather than growing the window past a
        // laptop screen (a 1280 x 720 window shows every page).
        auto* frame = new QScrollArea;
        frame->setWidget(page);
        frame->setWidgetResizable(true);
        frame->setFrameShape(QFrame::NoFrame);
        m_pages->addWidget(frame);
        m_pageById.insert(entry.id, page);
        m_navigator->addPage(entry.id.toString(), entry.title);
    }
    // After the pages drew the details: a restore applies to what they show.
    connect(m_session, &RunSession::detailsAvailable, this, [this] {
        applyPendingRestore();
        updateTitle();
    });
    connect(m_navigator, &ViewNavigator::pageChanged, this, [this](const QString& id) {
        if (RunPage* page = this->page(PageId::fromString(id)))
            m_pages->setCurrentWidget(frameOf(page));
        updateSelectionTitle();
    });
    m_header = new SelectionHeader;
    m_runPage = new QWidget;
    auto* runLayout = new QVBoxLayout(m_runPage);
    runLayout->setContentsMargins(0, 0, 0, 0);
    runLayout->setSpacing(0);
    runLayout->addWidget(m_header);
    runLayout->addWidget(m_pages, 1);
    m_stack->addWidget(m_runPage);
}

QVector<RunPage*> MainWindow::runPages() const
{
    QVector<RunPage*> out;
    for (const PageEntry& entry : m_registry.entries())
        out << m_pageById.value(entry.id);
    return out;
}

RunPage* MainWindow::currentRunPage() const
{
    return page(currentPage());
}

QWidget* MainWindow::frameOf(const RunPage* page)
{
    // The scroll area the page sits in (its viewport's parent).
    QWidget* viewport = page ? page->parentWidget() : nullptr;
    return viewport ? viewport->parentWidget() : nullptr;
}

PageId MainWindow::currentPage() const
{
    return PageId::fromString(m_navigator->currentPage());
}

bool MainWindow::showPage(const PageId& id)
{
    return m_navigator->setCurrentPage(id.toString());
}

PlotView* MainWindow::currentView() const
{
    const RunPage* page = currentRunPage();
    return page ? page->exportedView() : nullptr;
}

void MainWindow::createDocks()
{
    // The navigator on the left, above the list of open runs: one narrow column, the full
    // height of the window, so that the Rows dock below the pages does not stack under it
    // (stacked, the two asked for more than a 720-pixel screen).
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_navigatorDock = new QDockWidget(tr("Views"), this);
    m_navigatorDock->setObjectName(QStringLiteral("ViewsDock"));
    // Not closable: without it the views would be reachable through the menu only.
    m_navigatorDock->setFeatures(QDockWidget::DockWidgetMovable);
    m_navigatorDock->setWidget(m_navigator);
    addDockWidget(Qt::LeftDockWidgetArea, m_navigatorDock);

    auto* runs = new RunListDock(*m_openRuns, this);
    addDockWidget(Qt::LeftDockWidgetArea, runs);
    resizeDocks({runs}, {180}, Qt::Horizontal);
    connect(runs, &RunListDock::runActivated, this, &MainWindow::openRun);

    m_rowsDock = new RowsDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_rowsDock);
    resizeDocks({m_rowsDock}, {240}, Qt::Vertical);
    connect(m_rowsDock->panel(), &RowsPanel::rowSelected, m_session, &RunSession::inspectRow);
    connect(m_rowsDock, &RowsDock::rowsAvailable, this, &MainWindow::rowsAvailable);
}

void MainWindow::createStartPage()
{
    m_start = new StartPage;
    m_stack->addWidget(m_start);
    m_stack->setCurrentWidget(m_start);
    connect(m_start, &StartPage::openRequested, this, &MainWindow::askForRun);
}

void MainWindow::askForRun()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open run"), {},
                                                      tr("KVLens runs (*.kvl);;All files (*)"));
    if (!path.isEmpty())
        openRun(path);
}

void MainWindow::setRunChromeVisible(bool visible)
{
    m_selectionBar->setVisible(visible);
    m_navigatorDock->setVisible(visible);
    m_rowsDock->setVisible(visible);
}

bool MainWindow::startPageShown() const
{
    return m_stack->currentWidget() == m_start;
}

bool MainWindow::isLoading() const
{
    return m_session->isLoading();
}

void MainWindow::showRun(const RunViewData& data)
{
    m_session->present(data);
}

void MainWindow::openRun(const QString& path)
{
    // The same run again keeps its focus.
    openRequest(path == m_session->path() ? m_session->request() : RunRequest{path, {}, -1.0, {}});
}

void MainWindow::openRequest(const RunRequest& request)
{
    if (m_session->canRead())
        showMessage(tr("Opening %1…").arg(request.path));
    m_session->open(request);
}

void MainWindow::refreshRun()
{
    m_session->refresh();
}

void MainWindow::setFocusConfiguration(const QString& compressor, double ratio)
{
    m_session->setFocusConfiguration(compressor, ratio);
}

void MainWindow::setFocusSample(const QString& sampleKey)
{
    m_session->setFocusSample(sampleKey);
}

void MainWindow::closeRun()
{
    const QString path = m_session->path();
    if (path.isEmpty())
        return;
    m_openRuns->remove(path);
    m_watcher->stop();
    m_rowsDock->clear();
    m_session->close();          // every page clears itself
    statusBar()->setToolTip({}); // the closed run's missing rows (showRunStatus)
    m_stack->setCurrentWidget(m_start);
    setRunChromeVisible(false);
    updateTitle();
}

void MainWindow::showRows(const QString& title, std::function<QVector<ResultRow>()> query)
{
    m_rowsDock->showRows(title, std::move(query));
}

RowsPanel* MainWindow::rowsPanel() const
{
    return m_rowsDock->panel();
}

void MainWindow::showMessage(const QString& text)
{
    statusBar()->showMessage(text);
}

void MainWindow::showRunStatus()
{
    if (m_session->path().isEmpty())
        return;
    const RunStatusLine line = runStatusLine(m_session->data(), m_session->isVerified());
    statusBar()->setToolTip(line.toolTip);
    showMessage(line.text);
}

void MainWindow::showLoadError(const QString& path, const QString& message)
{
    m_lastError = message;
    showMessage(message);
    // Not exec(): a modal loop here would stall the live refresh and the demo.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Open run"),
                                tr("Could not open %1").arg(QFileInfo(path).fileName()),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("OpenRunError"));
    box->setInformativeText(message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit runLoadFailed(path, message);
}

void MainWindow::updateTitle()
{
    const RunViewData& data = m_session->data();
    const QString run =
        data.runName.isEmpty() ? QFileInfo(m_session->path()).fileName() : data.runName;
    setWindowTitle(run.isEmpty() ? tr("KVLens") : tr("%1 — KVLens").arg(run));
    m_runLabel->setText(run.isEmpty()          ? tr("No run open")
                        : data.model.isEmpty() ? run
                                               : tr("%1 · model %2").arg(run, data.model));
    updateSelectionTitle();
}

QString MainWindow::selectionTitle() const
{
    return selectionLine(*m_navigator, *m_session, currentRunPage());
}

void MainWindow::updateSelectionTitle()
{
    if (!m_header)
        return;
    // Over the Failures pages: whether FullCache leaves anything to diagnose.
    const PageEntry* entry = m_registry.find(currentPage());
    m_header->setLines(selectionTitle(), entry && entry->group == PageGroup::Failures
                                             ? littleToDiagnose(m_session->data())
                                             : QString());
}

bool MainWindow::exportAllowed()
{
    // Figures and data leave the app with provenance: never from rows not yet verified.
    if (m_session->path().isEmpty() || m_session->isVerified())
        return true;
    showMessage(tr("The run's rows are still being checked; export once the check is done."));
    return false;
}

void MainWindow::exportFigure()
{
    if (!exportAllowed())
        return;
    const QString message = exportPageFigure(this, currentRunPage());
    if (!message.isEmpty())
        showMessage(message);
}

void MainWindow::exportData()
{
    if (!exportAllowed())
        return;
    const QString message = exportPageData(this, currentRunPage());
    if (!message.isEmpty())
        showMessage(message);
}

void MainWindow::showNewRunDialog()
{
    if (!m_newRun) {
        m_newRun = new NewRunDialog(this);
        connect(m_newRun, &NewRunDialog::runFinished, this, [this](const QString& path, bool ok) {
            showMessage(ok ? tr("Run finished: %1").arg(path) : tr("Run stopped: %1").arg(path));
            if (QFileInfo::exists(path) && m_session->canRead())
                openRun(path);
        });
        // The views fill in as rows land, not only when the sweep is over.
        connect(m_newRun->launcher(), &RunLauncher::runFileReady, this,
                &MainWindow::openLaunchedRun);
    }
    m_newRun->show();
    m_newRun->raise();
}

void MainWindow::openLaunchedRun(const QString& path)
{
    // A run already shown is followed by the watcher; another one is opened.
    if (m_session->canRead() &&
        QFileInfo(path).absoluteFilePath() != QFileInfo(m_session->path()).absoluteFilePath())
        openRun(path);
}

QString MainWindow::demoPath()
{
    return DemoRunner::path();
}

RunProcess* MainWindow::demoProcess() const
{
    return m_demo->process();
}

void MainWindow::startDemo(const QString& program)
{
    m_demo->start(program);
}

void MainWindow::cancelDemo()
{
    m_demo->cancel();
}

void MainWindow::setRunStages(RunStages stages)
{
    m_session->setStages(std::move(stages));
    if (m_session->canRead() && !m_sessionRun.path.isEmpty() && m_session->path().isEmpty()) {
        const RunRequest request = m_sessionRun;
        m_sessionRun = {};
        openRequest(request);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // A run still going in the New run dialog is terminated by RunProcess's destructor
    // when the window goes; its finished samples stay in the run file.
    if (!m_sessionPath.isEmpty()) {
        try {
            sessionState().save(m_sessionPath);
        } catch (const Error& e) {
            qWarning("%s", qPrintable(e.message()));
        }
    }
    event->accept();
}

} // namespace kvl
