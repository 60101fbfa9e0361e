#pragma once

#include "resultrowsmodel.h"
#include "runsession.h"
#include "runviewdata.h"
#include "sessionstate.h"

#include <QHash>
#include <QMainWindow>
#include <QVector>

#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QStackedWidget;
class QTimer;
class QDockWidget;
class QToolBar;
class QToolButton;

namespace kvl {

class AccuracyRatioView;
class ComparePanel;
class RunComparePanel;
class EvictionMapView;
class FailureSetsView;
class GerConsensusView;
class HeadSelector;
class HeadGridView;
class HeatmapView;
class LatestRequest;
class NewRunDialog;
class OverlapLists;
class OverlapMatrixView;
class PlotView;
class RatioCurvesView;
class RetrievalMapPage;
class RowsPanel;
class RunProcess;
class RunWatcher;
class SampleInspector;
class StartPage;
class TaxonomyView;
class ViewNavigator;
struct OverlapSelection;
struct RunProgress;
struct TaxonomySelection;

// The desktop window: a start page without a run; with one, menus, a navigator of
// the views grouped by the question they answer, a line over every view naming the
// selection it shows (run, configuration, sample, layer/head), a selection toolbar,
// docks listing open runs and the rows behind a clicked bar or cell, a sample
// inspector and side-by-side comparisons. Run files are read on worker threads and re-read as a
// sweep writes them; the window remembers its session in a small JSON file.
class MainWindow : public QMainWindow
{
    Q_OBJECT
  public:
    // sessionPath empty = do not load or save a session (tests, screenshots).
    explicit MainWindow(const QString& sessionPath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // How run files are read, stage by stage (storeRunStages(); called on worker threads);
    // without them, opening a run explains that this build cannot read run files.
    // A run the restored session had open is opened once the stages are set.
    void setRunStages(RunStages stages);
    // The open run and its selection; the window draws what it delivers.
    RunSession* session() const { return m_session; }

    // Shows a run's data in every view (views with no data show their hint): the
    // overview's views, then the focus details'.
    void showRun(const RunViewData& data);
    // Loads the run off the GUI thread in stages (runLoaded once the overview and the
    // details are shown, or runLoadFailed), then follows it as rows land. A damaged or
    // foreign file gives a message box naming it; so does a row found changed by the
    // checksum check that runs after the overview is drawn (the views are withdrawn).
    void openRun(const QString& path);
    void closeRun();
    // Re-reads the current run (overview, then details) with the current selection.
    void refreshRun();

    // Selection shared by the detail views; each reloads the run's details only.
    void setFocusConfiguration(const QString& compressor, double ratio);
    void setFocusSample(const QString& sampleKey); // empty = mean over samples
    void setOverlapRatio(double ratio);
    // The accuracy view over one suite of the run; empty (or a suite the run lacks):
    // every suite.
    void setAccuracySuite(const QString& suite);

    // Drill-down: the rows behind a taxonomy segment or an overlap cell, and one row's sample.
    void showTaxonomyRows(const TaxonomySelection& selection);
    void showChainBreakRows(const TaxonomySelection& selection);
    void showOverlapRows(const OverlapSelection& selection);
    void inspectRow(const ResultRow& row);

    // First five minutes: `<program> demo --out <demoPath()>`, opened as rows land.
    void startDemo(const QString& program = {});
    void cancelDemo();
    static QString demoPath();
    RunProcess* demoProcess() const { return m_demo; }

    PlotView* currentView() const;
    QVector<PlotView*> views() const { return m_views; }
    // The pages, by id (ViewNavigator::pageIds(): "accuracy", "taxonomy", ..., "sample").
    ViewNavigator* navigator() const { return m_navigator; }
    QStackedWidget* pages() const { return m_pages; }
    QWidget* page(const QString& id) const { return m_pageById.value(id, nullptr); }
    QString currentPage() const;
    // False for an id the window does not have.
    bool showPage(const QString& id);
    // The line over the views: the page and the selection it shows.
    QString selectionTitle() const;
    HeadSelector* headSelector() const { return m_heads; }
    // Every layer × kv-head as small multiples, shown in place of the two heatmaps.
    HeadGridView* headGrid() const { return m_headGrid; }
    StartPage* startPage() const { return m_start; }
    bool startPageShown() const;
    RowsPanel* rowsPanel() const { return m_rows; }
    SampleInspector* sampleInspector() const { return m_inspector; }
    ComparePanel* comparePanel() const { return m_compare; }
    RunComparePanel* runComparePanel() const { return m_runCompare; }
    OverlapLists* overlapLists() const { return m_overlapLists; }
    FailureSetsView* failureSetsView() const { return m_failureSets; }
    HeatmapView* referenceHeatmap() const { return m_referenceHeatmap; }
    RunWatcher* runWatcher() const { return m_watcher; }
    const RunViewData& runData() const { return m_data; }
    QString lastError() const { return m_lastError; }
    bool isLoading() const;

    SessionState sessionState() const;
    void applySessionState(const SessionState& state);
    void setTheme(const QString& theme);

  signals:
    void runLoaded(const QString& path);
    void runLoadFailed(const QString& path, const QString& message);
    void rowsAvailable(int count);
    void sampleDetailAvailable(const QString& sampleKey);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void createViews();
    void createMenus();
    void createRunsDock();
    void createRowsDock();
    void createSelectionBar();
    void createStartPage();
    void openRequest(const RunRequest& request);
    // The run's stages as RunSession delivers them: the summary (first page, choosers),
    // the other aggregates, the focus details.
    void showSummary(const RunViewData& data);
    void showAggregates(const RunViewData& data);
    void showDetails(const RunViewData& data);
    // The overlap and failure-set views at the ratio kept by the user, else the focus's.
    void showOverlapAndSets(const RunViewData& data);
    void showRunStatus();
    void onVerificationFailed(const QString& path, const QString& message);
    void showLoadError(const QString& path, const QString& message);
    void updateChoosers();
    void updateCompareChoices();
    void runRowsQuery(const QString& title, std::function<QVector<ResultRow>()> query);
    void showDemoProgress(const RunProgress& progress);
    void onDemoFinished(bool ok, int exitCode, bool cancelled);
    void followNewRun();
    void pollDemoFile();
    void exportFigure();
    bool exportAllowed();
    void exportData();
    void showNewRunDialog();
    void showAbout();
    void onTaxonomySelection(const TaxonomySelection& selection);
    void onChainBreakSelection(const TaxonomySelection& selection);
    void onOverlapSelection(const OverlapSelection& selection);
    void updateTitle();
    void updateSelectionTitle();
    // Shows the head grid when the selector asks for every layer × kv-head.
    void updateHeadGrid();
    void addPage(const QString& id, QWidget* page, const QString& title);
    // Restores what a session saved beyond the configuration and sample (overlap ratio,
    // heads, zoom) once its run is shown.
    void applyPendingRestore();
    void addRunToList(const QString& path);
    // The selection bar and the rows panel only mean something with a run open.
    void setRunChromeVisible(bool visible);

    QString m_sessionPath;
    QStringList m_openRuns;
    QString m_currentRun;
    RunViewData m_data; // as last drawn (the session's, overview then details)
    RunSession* m_session = nullptr;
    RunRequest m_sessionRun;  // restored before the stages were set
    SessionState m_selection; // selection part of the session, kept as the user clicks
    double m_overlapRatio = -1.0;
    QString m_lastError;
    std::function<QVector<ResultRow>()> m_rowsQuery; // re-run when the run file grows
    QString m_rowsTitle;
    // Configurations of every run loaded in this window, for the compare panel.
    QHash<QString, QVector<ConfigChoice>> m_runConfigs;

    QStackedWidget* m_stack = nullptr;
    StartPage* m_start = nullptr;
    QWidget* m_runPage = nullptr; // the selection line over the pages
    QStackedWidget* m_pages = nullptr;
    ViewNavigator* m_navigator = nullptr;
    QDockWidget* m_navigatorDock = nullptr;
    QLabel* m_selectionTitle = nullptr;
    QHash<QString, QWidget*> m_pageById;
    QVector<PlotView*> m_views;
    QHash<QWidget*, PlotView*> m_pageViews; // page → the view it exports
    HeadSelector* m_heads = nullptr;
    HeadGridView* m_headGrid = nullptr;
    // A restored session's selection, applied when its run is first shown.
    std::optional<SessionState> m_pendingRestore;
    AccuracyRatioView* m_accuracy = nullptr;
    TaxonomyView* m_taxonomy = nullptr;
    TaxonomyView* m_chainBreaks = nullptr;
    OverlapMatrixView* m_overlap = nullptr;
    OverlapLists* m_overlapLists = nullptr; // the selected pair's failures side by side
    FailureSetsView* m_failureSets = nullptr;
    HeatmapView* m_heatmap = nullptr;
    HeatmapView* m_referenceHeatmap = nullptr;
    EvictionMapView* m_eviction = nullptr;
    GerConsensusView* m_ger = nullptr;
    RatioCurvesView* m_spanKeep = nullptr;
    RatioCurvesView* m_leakage = nullptr;
    RatioCurvesView* m_interventions = nullptr;
    // Offloading (issue 19): retrieval recall and task score vs ratio, the retrieval map.
    RatioCurvesView* m_retrievalRecall = nullptr;
    RatioCurvesView* m_offloadScore = nullptr;
    RatioCurvesView* m_decodingEvidence = nullptr;
    RetrievalMapPage* m_retrievalMap = nullptr;
    ComparePanel* m_compare = nullptr;
    RunComparePanel* m_runCompare = nullptr;
    SampleInspector* m_inspector = nullptr;
    RowsPanel* m_rows = nullptr;
    QToolBar* m_selectionBar = nullptr;
    QDockWidget* m_rowsDock = nullptr;
    QComboBox* m_overlapRatioCombo = nullptr;
    QComboBox* m_failureSetsRatioCombo = nullptr; // the same ratio, on the failure-sets page
    QComboBox* m_accuracySuiteCombo = nullptr;
    QWidget* m_accuracySuiteRow = nullptr; // shown when the run has several suites
    QString m_accuracyTitle;               // the view's own; " · <suite>" added for one suite
    QComboBox* m_configCombo = nullptr;
    QComboBox* m_sampleCombo = nullptr;
    QListWidget* m_runList = nullptr;
    QLabel* m_runLabel = nullptr;
    QProgressBar* m_runProgress = nullptr;
    QToolButton* m_runCancel = nullptr;
    NewRunDialog* m_newRun = nullptr;
    LatestRequest* m_rowsRequest = nullptr;
    LatestRequest* m_sampleRequest = nullptr;
    RunWatcher* m_watcher = nullptr;
    RunProcess* m_demo = nullptr;
    bool m_demoOpened = false;
    QTimer* m_demoPoll = nullptr; // opens the demo's file once samples land in it
    QActionGroup* m_themeGroup = nullptr;
    QActionGroup* m_colorMapGroup = nullptr;
    QAction* m_logScale = nullptr;
    QAction* m_shares = nullptr;
    QString m_theme = QStringLiteral("light");
};

} // namespace kvl
