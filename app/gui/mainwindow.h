#pragma once

#include "runviewdata.h"
#include "sessionstate.h"

#include <QMainWindow>
#include <QVector>

class QAction;
class QActionGroup;
class QLabel;
class QListWidget;
class QTabWidget;

namespace kvl {

class AccuracyRatioView;
class EvictionMapView;
class GerConsensusView;
class HeatmapView;
class NewRunDialog;
class OverlapMatrixView;
class PlotView;
class TaxonomyView;
struct OverlapSelection;
struct TaxonomySelection;

// The desktop window: menus, one tab per view, a dock listing open runs, a
// status bar; remembers its session in a small JSON file.
class MainWindow : public QMainWindow
{
    Q_OBJECT
  public:
    // sessionPath empty = do not load or save a session (tests, screenshots).
    explicit MainWindow(const QString& sessionPath = {}, QWidget* parent = nullptr);

    // How run files are read; without one, opening a run explains that this
    // build cannot read run files.
    void setRunLoader(RunLoader loader) { m_loader = std::move(loader); }

    // Shows a run's data in every view (views with no data show their hint).
    void showRun(const RunViewData& data);
    void openRun(const QString& path);
    void closeRun();

    PlotView* currentView() const;
    QVector<PlotView*> views() const { return m_views; }
    QTabWidget* tabs() const { return m_tabs; }

    SessionState sessionState() const;
    void applySessionState(const SessionState& state);
    void setTheme(const QString& theme);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void createViews();
    void createMenus();
    void createRunsDock();
    void exportFigure();
    void exportData();
    void showNewRunDialog();
    void showAbout();
    void onTaxonomySelection(const TaxonomySelection& selection);
    void onOverlapSelection(const OverlapSelection& selection);
    void updateTitle();

    QString m_sessionPath;
    RunLoader m_loader;
    QStringList m_openRuns;
    QString m_currentRun;
    RunViewData m_data;
    SessionState m_selection; // selection part of the session, kept as the user clicks

    QTabWidget* m_tabs = nullptr;
    QVector<PlotView*> m_views;
    AccuracyRatioView* m_accuracy = nullptr;
    TaxonomyView* m_taxonomy = nullptr;
    OverlapMatrixView* m_overlap = nullptr;
    HeatmapView* m_heatmap = nullptr;
    EvictionMapView* m_eviction = nullptr;
    GerConsensusView* m_ger = nullptr;
    QListWidget* m_runList = nullptr;
    QLabel* m_runLabel = nullptr;
    NewRunDialog* m_newRun = nullptr;
    QActionGroup* m_themeGroup = nullptr;
    QActionGroup* m_colorMapGroup = nullptr;
    QAction* m_logScale = nullptr;
    QAction* m_shares = nullptr;
    QString m_theme = QStringLiteral("light");
};

} // namespace kvl
