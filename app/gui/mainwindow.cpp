#include "mainwindow.h"

#include "apptheme.h"
#include "demorunner.h"
#include "detailhints.h"
#include "displaymenu.h"
#include "filemenu.h"
#include "helpmenu.h"
#include "littletodiagnose.h"
#include "openrunerror.h"
#include "openruns.h"
#include "rowsdock.h"
#include "rowspanel.h"
#include "runlistdock.h"
#include "runpage.h"
#include "runstatusline.h"
#include "runwatcher.h"
#include "selectionbar.h"
#include "selectionheader.h"
#include "selectionline.h"
#include "sessionkeeper.h"
#include "startpage.h"
#include "viewmenu.h"
#include "viewnavigator.h"
#include "viewoptions.h"
#include "views/plotview.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace kvl {

MainWindow::MainWindow(const QString& sessionPath, QWidget* parent, PageRegistry registry)
    : QMainWindow(parent), m_registry(std::move(registry)), m_sessions(new RunSessions(this)),
      m_openRuns(new OpenRuns(this)), m_options(new ViewOptions(this)),
      m_watcher(new RunWatcher(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_stack = new QStackedWidget;
    setCentralWidget(m_stack);
    createPages();
    createStartPage();
    m_selectionBar = new SelectionBar(this);
    addToolBar(m_selectionBar);
    createDocks();
    createMenus();
    setRunChromeVisible(false);
    m_demo = new DemoRunner(m_start, statusBar(), m_sessions, this);
    connect(m_demo, &DemoRunner::openRequested, this, &MainWindow::openLaunchedRun);
    connect(m_demo, &DemoRunner::refreshRequested, this, [this] { session()->refresh(); });
    connect(m_demo, &DemoRunner::message, this, &MainWindow::showMessage);
    m_runLabel = new QLabel;
    statusBar()->addPermanentWidget(m_runLabel);
    connect(m_sessions, &RunSessions::currentChanged, this, &MainWindow::bindSession);
    bindSession(session(), nullptr);
    connect(m_watcher, &RunWatcher::changed, this, [this](const QString& path) {
        if (path == session()->path())
            session()->refresh();
    });
    showMessage(tr("Open a run file (File › Open run…) or start a new run."));
    resize(1280, 800);
    m_keeper = new SessionKeeper(*this, *m_openRuns, sessionPath);
    m_keeper->load();
}

MainWindow::~MainWindow() = default;

void MainWindow::bindSession(RunSession* session, RunSession* previous)
{
    if (previous)
        previous->disconnect(this);
    // The window's hints first: describeRunState resets the hints a page then sets.
    connectSession(session);
    for (RunPage* page : runPages())
        page->bind(session);
    m_selectionBar->bind(session);
    // After the pages drew the details.
    connect(session, &RunSession::detailsAvailable, this, &MainWindow::updateTitle);
    updateTitle();
}

void MainWindow::connectSession(RunSession* session)
{
    auto describe = [this](const RunViewData& data) {
        describeRunState(data, findChildren<PlotView*>());
    };
    connect(session, &RunSession::summaryAvailable, this, describe);
    connect(session, &RunSession::overviewAvailable, this, describe);
    connect(session, &RunSession::closed, this, [describe] { describe({}); });
    connect(session, &RunSession::summaryAvailable, this, [this](const RunViewData& data) {
        m_openRuns->setLoaded(data.path, data.configs, data.sampleKeys);
        m_rowsDock->showSource(data.path);
        m_watcher->watch(data.path);
        showRunStatus();
        m_stack->setCurrentWidget(m_runPage);
        setRunChromeVisible(true);
        updateTitle();
    });
    connect(session, &RunSession::overviewAvailable, this,
            [this](const RunViewData&, bool refresh) {
                if (refresh)
                    m_rowsDock->refresh();
            });
    connect(session, &RunSession::headsChanged, this, &MainWindow::updateSelectionTitle);
    connect(session, &RunSession::loaded, this,
            [this](const RunViewData& data) { emit runLoaded(data.path); });
    connect(session, &RunSession::verificationAvailable, this, &MainWindow::showRunStatus);
    connect(session, &RunSession::verificationFailed, this,
            [this](const QString& path, const QString& message) {
                // What was drawn came from a file with a changed row: withdraw all of it,
                // then refuse the file as an open that failed does.
                if (path == this->session()->path())
                    closeRun();
                showLoadError(path, message);
            });
    connect(session, &RunSession::loadFailed, this,
            [this](const QString& path, const QString& message, bool refresh) {
                if (refresh) {
                    // A sweep mid-write can be caught between states; the next poll retries.
                    showMessage(tr("Refresh failed: %1").arg(message));
                    return;
                }
                // Refused: back to the run shown before, or to the start page.
                m_sessions->discard(path);
                if (this->session()->path().isEmpty())
                    showStartPage();
                showLoadError(path, message);
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

void MainWindow::createMenus()
{
    m_file = new FileMenu(*this);
    auto* view = new ViewMenu(this, m_registry, m_navigator, m_navigatorDock, m_options);
    connect(view, &ViewMenu::pageRequested, this, &MainWindow::showPage);
    m_display = view->display();
    connect(m_display, &DisplayMenu::themeChanged, this, [this](const QString& theme) {
        for (PlotView* v : findChildren<PlotView*>())
            v->setTheme(themeFromName(theme));
    });
    HelpMenu::addTo(this);
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
    connect(runs, &RunListDock::runActivated, this, [this](const QString& path) { openRun(path); });

    m_rowsDock = new RowsDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_rowsDock);
    resizeDocks({m_rowsDock}, {240}, Qt::Vertical);
    connect(m_rowsDock->panel(), &RowsPanel::rowSelected, this,
            [this](const ResultRow& row) { session()->inspectRow(row); });
    connect(m_rowsDock, &RowsDock::rowsAvailable, this, &MainWindow::rowsAvailable);
}

void MainWindow::createStartPage()
{
    m_start = new StartPage;
    m_stack->addWidget(m_start);
    m_stack->setCurrentWidget(m_start);
    connect(m_start, &StartPage::openRequested, this, [this] { m_file->askForRun(); });
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

void MainWindow::showRun(const RunViewData& data)
{
    m_sessions->present(data);
}

void MainWindow::openRun(const QString& path)
{
    // Shown before: it comes back with its focus (RunSession::open).
    openRun(RunRequest{path, {}, -1.0, {}});
}

void MainWindow::openRun(const RunRequest& request)
{
    if (m_sessions->canRead())
        showMessage(tr("Opening %1…").arg(request.path));
    m_sessions->open(request);
}

void MainWindow::closeRun()
{
    const QString path = session()->path();
    if (path.isEmpty())
        return;
    m_openRuns->remove(path);
    m_rowsDock->clear();
    m_sessions->closeCurrent(); // every page clears itself
    showStartPage();
}

void MainWindow::showStartPage()
{
    m_watcher->stop();
    statusBar()->setToolTip({}); // the closed run's missing rows (showRunStatus)
    m_stack->setCurrentWidget(m_start);
    setRunChromeVisible(false);
    updateTitle();
}

void MainWindow::showRows(const QString& title, std::function<QVector<ResultRow>()> query)
{
    m_rowsDock->showRows(session()->path(), title, std::move(query));
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
    if (session()->path().isEmpty())
        return;
    const RunStatusLine line = runStatusLine(session()->data(), session()->isVerified());
    statusBar()->setToolTip(line.toolTip);
    showMessage(line.text);
}

void MainWindow::showLoadError(const QString& path, const QString& message)
{
    m_lastError = message;
    showMessage(message);
    showOpenRunError(this, path, message);
    emit runLoadFailed(path, message);
}

void MainWindow::updateTitle()
{
    const RunViewData& data = session()->data();
    const QString run =
        data.runName.isEmpty() ? QFileInfo(session()->path()).fileName() : data.runName;
    setWindowTitle(run.isEmpty() ? tr("KVLens") : tr("%1 — KVLens").arg(run));
    m_runLabel->setText(run.isEmpty()          ? tr("No run open")
                        : data.model.isEmpty() ? run
                                               : tr("%1 · model %2").arg(run, data.model));
    updateSelectionTitle();
}

QString MainWindow::selectionTitle() const
{
    return selectionLine(*m_navigator, *session(), currentRunPage());
}

void MainWindow::updateSelectionTitle()
{
    // Over the Failures pages: whether FullCache leaves anything to diagnose.
    const PageEntry* entry = m_registry.find(currentPage());
    m_header->setLines(selectionTitle(), entry && entry->group == PageGroup::Failures
                                             ? littleToDiagnose(session()->data())
                                             : QString());
}

void MainWindow::openLaunchedRun(const QString& path)
{
    if (m_sessions->canRead() &&
        QFileInfo(path).absoluteFilePath() != QFileInfo(session()->path()).absoluteFilePath())
        openRun(path);
}

void MainWindow::setRunStages(RunStages stages)
{
    m_sessions->setStages(stages);
    m_keeper->openWaitingRun();
}

SessionState MainWindow::sessionState() const
{
    return m_keeper->state();
}

void MainWindow::applySessionState(const SessionState& state)
{
    m_keeper->restore(state);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // A run still going in the New run dialog is terminated by RunProcess's destructor
    // when the window goes; its finished samples stay in the run file.
    m_keeper->save();
    event->accept();
}

} // namespace kvl
