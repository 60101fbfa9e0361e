#pragma once

#include "pagehost.h"
#include "pageregistry.h"
#include "runsessions.h"
#include "sessionstate.h"

#include <QHash>
#include <QMainWindow>

#include <functional>

class QDockWidget;
class QLabel;
class QStackedWidget;

namespace kvl {

class DemoRunner;
class DisplayMenu;
class FileMenu;
class OpenRuns;
class PlotView;
class RowsDock;
class RowsPanel;
class RunPage;
class RunWatcher;
class SelectionBar;
class SessionKeeper;
class SelectionHeader;
class StartPage;
class ViewNavigator;
class ViewOptions;

// The desktop window: a start page without a run; with one, the pages of the registry in
// a navigator grouped by the question they answer, a line over every page naming the
// selection it shows (run, configuration, sample, heads), the selection toolbar, docks
// listing open runs and the rows behind a clicked bar or cell. Each open run has its own
// RunSession (RunSessions), which reads its file on worker threads and re-reads it as a
// sweep writes it; the pages, the toolbar and the window bind to the session of the run
// shown. The window remembers its session in a small JSON file (SessionKeeper).
class MainWindow : public QMainWindow, public PageHost
{
    Q_OBJECT
  public:
    // sessionPath empty = do not load or save a session (tests, screenshots).
    explicit MainWindow(const QString& sessionPath = {}, QWidget* parent = nullptr,
                        PageRegistry registry = PageRegistry::standard());
    ~MainWindow() override;

    // How run files are read (storeRunStages()); without them, opening a run explains that
    // this build cannot read run files. A run the restored session had open is opened
    // once the stages are set.
    void setRunStages(RunStages stages);
    // The run shown and its selection; the pages draw what it delivers.
    RunSession* session() const { return m_sessions->current(); }
    // Every open run's session.
    RunSessions* sessions() const { return m_sessions; }
    const RunViewData& runData() const { return session()->data(); }

    // Draws data made without a file (tests, the view benchmark) as a loaded run.
    void showRun(const RunViewData& data);
    // Loads the run off the GUI thread in stages, then follows it as rows land. A damaged
    // or foreign file gives a message box naming it, and the run shown before stays; so
    // does a row found changed by the checksum check that runs after the overview is
    // drawn (the views are withdrawn).
    void openRun(const QString& path);
    // The same with a focus of its own (empty compressor / sample: the run's own).
    void openRun(const RunRequest& request);
    void closeRun();

    // First five minutes: `kvlens-cli demo`, opened as rows land.
    DemoRunner* demo() const { return m_demo; }
    // A sweep launched from the window (New run, demo) has samples in its file: shown,
    // unless it is the run shown already (the watcher follows that one).
    void openLaunchedRun(const QString& path);

    // The pages, by id, in the registry's order.
    const PageRegistry& registry() const { return m_registry; }
    RunPage* page(const PageId& id) const { return m_pageById.value(id, nullptr); }
    QVector<RunPage*> runPages() const;
    ViewNavigator* navigator() const { return m_navigator; }
    QStackedWidget* pages() const { return m_pages; }
    PageId currentPage() const;
    RunPage* currentRunPage() const;
    // The widget of the page stack that holds `page` (a scroll area around it).
    static QWidget* frameOf(const RunPage* page);
    bool showPage(const PageId& id) override;
    // The view File › Export takes from the current page.
    PlotView* currentView() const;
    // The line over the views: the page and the selection it shows.
    QString selectionTitle() const;
    StartPage* startPage() const { return m_start; }
    bool startPageShown() const;
    RowsPanel* rowsPanel() const;
    SelectionBar* selectionBar() const { return m_selectionBar; }
    RunWatcher* runWatcher() const { return m_watcher; }
    QString lastError() const { return m_lastError; }

    SessionState sessionState() const;
    void applySessionState(const SessionState& state);
    DisplayMenu* displayMenu() const { return m_display; }

    // PageHost
    void showRows(const QString& title, std::function<QVector<ResultRow>()> query) override;
    void showMessage(const QString& text) override;
    const OpenRuns& openRuns() const override { return *m_openRuns; }
    const ViewOptions& viewOptions() const override { return *m_options; }

  signals:
    void runLoaded(const QString& path);
    void runLoadFailed(const QString& path, const QString& message);
    void rowsAvailable(int count);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void createPages();
    void createMenus();
    void createDocks();
    void createStartPage();
    // The window follows the session of the run shown: its own connections, the pages'
    // and the toolbar's move from `previous` to `session`.
    void bindSession(RunSession* session, RunSession* previous);
    void connectSession(RunSession* session);
    // The line the status bar gives a run: rows, missing rows, verification.
    void showRunStatus();
    // An open was refused: a message box naming the file; the run shown before stays.
    void showLoadError(const QString& path, const QString& message);
    // No run is shown: the start page, without the run's toolbar and docks.
    void showStartPage();
    void updateTitle();
    void updateSelectionTitle();
    // The selection bar and the docks only mean something with a run open.
    void setRunChromeVisible(bool visible);

    PageRegistry m_registry;
    RunSessions* m_sessions = nullptr;
    OpenRuns* m_openRuns = nullptr;
    ViewOptions* m_options = nullptr;
    SessionKeeper* m_keeper = nullptr;
    QString m_lastError;

    QStackedWidget* m_stack = nullptr;
    StartPage* m_start = nullptr;
    QWidget* m_runPage = nullptr; // the selection line over the pages
    QStackedWidget* m_pages = nullptr;
    QHash<PageId, RunPage*> m_pageById;
    ViewNavigator* m_navigator = nullptr;
    QDockWidget* m_navigatorDock = nullptr;
    SelectionHeader* m_header = nullptr; // the selection line and the caveat
    SelectionBar* m_selectionBar = nullptr;
    RowsDock* m_rowsDock = nullptr;
    QLabel* m_runLabel = nullptr;
    FileMenu* m_file = nullptr;
    RunWatcher* m_watcher = nullptr;
    DemoRunner* m_demo = nullptr;
    DisplayMenu* m_display = nullptr;
};

} // namespace kvl
