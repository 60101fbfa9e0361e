#pragma once

#include "pagehost.h"
#include "pageregistry.h"
#include "runsession.h"
#include "sessionstate.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <optional>

class QDockWidget;
class QLabel;
class QStackedWidget;

namespace kvl {

class DemoRunner;
class DisplayMenu;
class NewRunDialog;
class OpenRuns;
class PlotView;
class RowsDock;
class RowsPanel;
class RunPage;
class RunProcess;
class RunWatcher;
class SelectionBar;
class SelectionHeader;
class StartPage;
class ViewNavigator;
class ViewOptions;

// The desktop window: a start page without a run; with one, the pages of the registry in
// a navigator grouped by the question they answer, a line over every page naming the
// selection it shows (run, configuration, sample, heads), the selection toolbar, docks
// listing open runs and the rows behind a clicked bar or cell. The pages draw themselves
// from the RunSession, which reads run files on worker threads and re-reads them as a
// sweep writes them; the window remembers its session in a small JSON file.
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
    // The open run and its selection; the pages draw what it delivers.
    RunSession* session() const { return m_session; }
    const RunViewData& runData() const { return m_session->data(); }

    // Draws data made without a file (tests, the view benchmark) as a loaded run.
    void showRun(const RunViewData& data);
    // Loads the run off the GUI thread in stages, then follows it as rows land. A damaged
    // or foreign file gives a message box naming it; so does a row found changed by the
    // checksum check that runs after the overview is drawn (the views are withdrawn).
    void openRun(const QString& path);
    void closeRun();
    void refreshRun();
    void setFocusConfiguration(const QString& compressor, double ratio);
    void setFocusSample(const QString& sampleKey); // empty = mean over samples

    // First five minutes: `<program> demo --out <demoPath()>`, opened as rows land.
    void startDemo(const QString& program = {});
    void cancelDemo();
    static QString demoPath();
    RunProcess* demoProcess() const;

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
    bool isLoading() const;

    SessionState sessionState() const;
    void applySessionState(const SessionState& state);
    void setTheme(const QString& theme);

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
    void connectSession();
    void openRequest(const RunRequest& request);
    // File › Open run… and the start page's button: a file dialog, then openRun().
    void askForRun();
    void showRunStatus();
    void showLoadError(const QString& path, const QString& message);
    void exportFigure();
    void exportData();
    bool exportAllowed();
    void showNewRunDialog();
    // A sweep launched from the window (New run, demo) has samples in its file.
    void openLaunchedRun(const QString& path);
    void updateTitle();
    void updateSelectionTitle();
    // Restores what a session saved beyond the focus (heads, zoom, overlap ratio) once
    // its run's details are shown.
    void applyPendingRestore();
    // The selection bar and the docks only mean something with a run open.
    void setRunChromeVisible(bool visible);

    QString m_sessionPath;
    PageRegistry m_registry;
    RunSession* m_session = nullptr;
    OpenRuns* m_openRuns = nullptr;
    ViewOptions* m_options = nullptr;
    RunRequest m_sessionRun;   // restored before the stages were set
    SessionState m_remembered; // what the session file said, for what no page owns
    std::optional<SessionState> m_pendingRestore;
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
    NewRunDialog* m_newRun = nullptr;
    RunWatcher* m_watcher = nullptr;
    DemoRunner* m_demo = nullptr;
    DisplayMenu* m_display = nullptr;
};

} // namespace kvl
