#include "mainwindow.h"

#include "common/error.h"
#include "comparepanel.h"
#include "detailhints.h"
#include "latestrequest.h"
#include "newrundialog.h"
#include "overlaplists.h"
#include "retrievalmappage.h"
#include "rowqueries.h"
#include "rowspanel.h"
#include "runcomparepanel.h"
#include "runprocess.h"
#include "runwatcher.h"
#include "sampleinspector.h"
#include "startpage.h"
#include "viewnavigator.h"
#include "views/accuracyratioview.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/gerconsensusview.h"
#include "views/headgridview.h"
#include "views/headselector.h"
#include "views/heatmapview.h"
#include "views/overlapmatrixview.h"
#include "views/ratiocurvesview.h"
#include "views/retrievalmapview.h"
#include "views/signaturenames.h"
#include "views/taxonomyview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace kvl {

namespace {

QPalette darkApplicationPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2D, 0x31), base(0x1E, 0x1F, 0x22), text(0xE6, 0xE6, 0xE6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x3D, 0x9A, 0xE0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x8A, 0x8A, 0x8A));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x8A, 0x8A, 0x8A));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x8A, 0x8A, 0x8A));
    return p;
}

} // namespace

MainWindow::MainWindow(const QString& sessionPath, QWidget* parent)
    : QMainWindow(parent), m_sessionPath(sessionPath), m_session(new RunSession(this)),
      m_rowsRequest(new LatestRequest(this)), m_sampleRequest(new LatestRequest(this)),
      m_watcher(new RunWatcher(this)), m_demo(new RunProcess(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    createViews();
    createStartPage();
    createSelectionBar();
    createRunsDock();
    createRowsDock();
    createMenus();
    setRunChromeVisible(false);
    m_runLabel = new QLabel;
    m_runProgress = new QProgressBar;
    m_runProgress->setMaximumWidth(220);
    m_runProgress->hide();
    m_runCancel = new QToolButton;
    m_runCancel->setText(tr("Cancel"));
    m_runCancel->setToolTip(tr("Stop the run; finished samples stay in the run file"));
    m_runCancel->hide();
    connect(m_runCancel, &QToolButton::clicked, this, &MainWindow::cancelDemo);
    statusBar()->addPermanentWidget(m_runProgress);
    statusBar()->addPermanentWidget(m_runCancel);
    statusBar()->addPermanentWidget(m_runLabel);
    connect(m_watcher, &RunWatcher::changed, this, [this](const QString& path) {
        if (path == m_currentRun)
            m_session->refresh();
    });
    connect(m_session, &RunSession::summaryAvailable, this, [this](const RunViewData& data) {
        showSummary(data);
        m_watcher->watch(data.path);
        showRunStatus();
    });
    connect(m_session, &RunSession::overviewAvailable, this,
            [this](const RunViewData& data, bool refresh) {
                showAggregates(data);
                if (refresh && m_rowsQuery)
                    runRowsQuery(m_rowsTitle, m_rowsQuery);
            });
    connect(m_session, &RunSession::detailsAvailable, this, &MainWindow::showDetails);
    connect(m_session, &RunSession::loaded, this,
            [this](const RunViewData& data) { emit runLoaded(data.path); });
    connect(m_session, &RunSession::verificationAvailable, this, &MainWindow::showRunStatus);
    connect(m_session, &RunSession::verificationFailed, this, &MainWindow::onVerificationFailed);
    connect(m_session, &RunSession::loadFailed, this,
            [this](const QString& path, const QString& message, bool refresh) {
                if (!refresh) {
                    showLoadError(path, message);
                    return;
                }
                // A sweep mid-write can be caught between states; the next poll retries.
                statusBar()->showMessage(tr("Refresh failed: %1").arg(message));
            });
    connect(m_demo, &RunProcess::progressChanged, this, &MainWindow::showDemoProgress);
    connect(m_demo, &RunProcess::finished, this, &MainWindow::onDemoFinished);
    connect(m_demo, &RunProcess::failedToStart, this, [this](const QString& message) {
        m_start->setRunning(false);
        m_start->setMessage(message);
        m_runProgress->hide();
        m_runCancel->hide();
    });
    updateTitle();
    statusBar()->showMessage(tr("Open a run file (File › Open run…) or start a new run."));
    resize(1280, 800);

    if (!m_sessionPath.isEmpty() && QFileInfo::exists(m_sessionPath)) {
        try {
            applySessionState(SessionState::load(m_sessionPath));
        } catch (const Error& e) {
            statusBar()->showMessage(tr("Session not restored: %1").arg(e.message()));
        }
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    m_pages = new QStackedWidget;
    m_navigator = new ViewNavigator;
    m_accuracy = new AccuracyRatioView;
    m_accuracyTitle = m_accuracy->title();
    m_taxonomy = new TaxonomyView;
    m_chainBreaks = new TaxonomyView(
        tr("Where multihop C→W rows leave the gold chain"),
        tr("No chain breaks in this run.\nMultihop answers write the chain out (Hotel = "
           "Sierra = Kilo = 7); for the rows FullCache answers and a compressor fails, this "
           "view shows at which step the written chain went wrong."),
        QStringLiteral("break"));
    m_chainBreaks->setObjectName(QStringLiteral("ChainBreaks"));
    m_overlap = new OverlapMatrixView;
    m_overlapLists = new OverlapLists;
    m_failureSets = new FailureSetsView;
    m_heatmap = new HeatmapView;
    m_referenceHeatmap = new HeatmapView;
    m_referenceHeatmap->setObjectName(QStringLiteral("ReferenceHeatmap"));
    m_referenceHeatmap->setEmptyHint(tr("No FullCache attention stored for this sample."));
    // FullCache and the compressed map zoom together on one colour scale.
    m_referenceHeatmap->setScalePartner(m_heatmap);
    m_eviction = new EvictionMapView;
    m_ger = new GerConsensusView;
    m_spanKeep = new RatioCurvesView(
        tr("Instruction span keep rate vs compression ratio"),
        tr("No instruction spans in this run.\nRuns of the instructions suite (or samples with "
           "instruction spans) show how much of each instruction survives, by its order in the "
           "prompt."));
    m_leakage = new RatioCurvesView(
        tr("System-prompt leakage vs compression ratio"),
        tr("No leakage measured in this run.\nRuns of the instructions suite measure how often "
           "the answer leaks the system prompt."));
    m_interventions = new RatioCurvesView(
        tr("Intervention repair rate: attention boost vs sham"),
        tr("No interventions in this run.\nRuns with interventions boost the attention on the "
           "evidence of low-EAR rows, and on random entries as a sham."));
    m_retrievalRecall = new RatioCurvesView(
        tr("Evidence recall of retrieval vs compression ratio"),
        tr("No offloading in this run.\nRuns of the offloading presses (shadowkv, quest, yakv) "
           "show how much of the evidence each decoding step retrieved, per method."));
    m_retrievalRecall->setObjectName(QStringLiteral("RetrievalRecall"));
    m_offloadScore = new RatioCurvesView(
        tr("Task score by landmark kind and chunk size"),
        tr("No offloading in this run.\nRuns of the offloading presses show the task score per "
           "landmark kind (colour) and chunk size (line style) against the ratio."));
    m_offloadScore->setObjectName(QStringLiteral("OffloadScore"));
    m_decodingEvidence = new RatioCurvesView(
        tr("Evidence kept while decoding, after each compression"),
        tr("No compression during decoding in this run.\nRuns of the decode-time presses "
           "(decoding, compression_ratio_decoding, prefill_decoding, cam) show how much of the "
           "evidence the cache still holds after each compression of the answer."));
    m_decodingEvidence->setObjectName(QStringLiteral("DecodingEvidence"));
    m_retrievalMap = new RetrievalMapPage;
    connect(m_retrievalMap, &RetrievalMapPage::rowShown, this, &MainWindow::updateSelectionTitle);
    m_compare = new ComparePanel;
    m_runCompare = new RunComparePanel;
    m_inspector = new SampleInspector;

    // Accuracy over every suite, or one: a chooser above it when the run has several.
    auto* accuracyPage = new QWidget;
    auto* accuracyLayout = new QVBoxLayout(accuracyPage);
    accuracyLayout->setContentsMargins(0, 4, 0, 0);
    m_accuracySuiteRow = new QWidget;
    auto* suiteRow = new QHBoxLayout(m_accuracySuiteRow);
    suiteRow->setContentsMargins(0, 0, 0, 0);
    m_accuracySuiteCombo = new QComboBox;
    m_accuracySuiteCombo->setObjectName(QStringLiteral("AccuracySuite"));
    suiteRow->addWidget(new QLabel(tr("Suite:")));
    suiteRow->addWidget(m_accuracySuiteCombo);
    suiteRow->addStretch();
    m_accuracySuiteRow->hide();
    accuracyLayout->addWidget(m_accuracySuiteRow);
    accuracyLayout->addWidget(m_accuracy, 1);
    connect(m_accuracySuiteCombo, &QComboBox::currentIndexChanged, this,
            [this](int i) { setAccuracySuite(m_accuracySuiteCombo->itemData(i).toString()); });

    // The overlap matrix is per ratio: a chooser above it.
    auto* overlapPage = new QWidget;
    auto* overlapLayout = new QVBoxLayout(overlapPage);
    overlapLayout->setContentsMargins(0, 4, 0, 0);
    auto* ratioRow = new QHBoxLayout;
    m_overlapRatioCombo = new QComboBox;
    ratioRow->addWidget(new QLabel(tr("Ratio:")));
    ratioRow->addWidget(m_overlapRatioCombo);
    ratioRow->addStretch();
    overlapLayout->addLayout(ratioRow);
    // The matrix above, the clicked pair's failures as three lists below it.
    auto* overlapSplit = new QSplitter(Qt::Vertical);
    overlapSplit->addWidget(m_overlap);
    overlapSplit->addWidget(m_overlapLists);
    overlapSplit->setStretchFactor(0, 3);
    overlapSplit->setStretchFactor(1, 2);
    overlapLayout->addWidget(overlapSplit, 1);
    // Failure sets (UpSet) at the same ratio, on their own page with their own chooser.
    auto* setsPage = new QWidget;
    auto* setsLayout = new QVBoxLayout(setsPage);
    setsLayout->setContentsMargins(0, 4, 0, 0);
    auto* setsRatioRow = new QHBoxLayout;
    m_failureSetsRatioCombo = new QComboBox;
    setsRatioRow->addWidget(new QLabel(tr("Ratio:")));
    setsRatioRow->addWidget(m_failureSetsRatioCombo);
    setsRatioRow->addStretch();
    setsLayout->addLayout(setsRatioRow);
    setsLayout->addWidget(m_failureSets, 1);
    for (QComboBox* combo : {m_overlapRatioCombo, m_failureSetsRatioCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, [this](int i) {
            if (i >= 0 && i < m_data.overlapRatios.size())
                setOverlapRatio(m_data.overlapRatios[i]);
        });
    connect(m_overlapLists, &OverlapLists::rowSelected, this, &MainWindow::inspectRow);

    // FullCache above the compressed configuration: the evidence column bright in
    // one and evicted in the other.
    // A layer × kv-head selector above them picks the rows of both.
    auto* attentionSplit = new QSplitter(Qt::Vertical);
    attentionSplit->addWidget(m_referenceHeatmap);
    attentionSplit->addWidget(m_heatmap);
    auto* attentionPage = new QWidget;
    auto* attentionLayout = new QVBoxLayout(attentionPage);
    attentionLayout->setContentsMargins(0, 4, 0, 0);
    m_heads = new HeadSelector;
    attentionLayout->addWidget(m_heads);
    attentionLayout->addWidget(attentionSplit, 1);
    connect(m_heads, &HeadSelector::selectionChanged, m_heatmap, &HeatmapView::setHeadSelection);
    connect(m_heads, &HeadSelector::selectionChanged, this, [this](const HeadSelection& heads) {
        m_selection.heads = heads;
        updateSelectionTitle();
        updateHeadGrid();
    });
    // Every layer × kv-head as a grid of small panels; a click on one shows that head.
    m_headGrid = new HeadGridView;
    m_headGrid->setObjectName(QStringLiteral("HeadGrid"));
    m_headGrid->hide();
    attentionSplit->addWidget(m_headGrid);
    connect(m_headGrid, &HeadGridView::headSelected, this, [this](int layer, int head) {
        m_heads->setSelection({HeadSelection::Mode::OneHead, layer, head});
    });

    // The views by the question a researcher brings (research/WORKFLOWS.md), not one
    // tab each: thirteen tabs overflow a 1280 px window.
    m_navigator->addGroup(tr("Overview"), tr("How accurate is each compressor at each ratio?"));
    addPage(QStringLiteral("accuracy"), accuracyPage, tr("Accuracy"));
    m_navigator->addGroup(tr("Failures"), tr("Why do compressed rows fail, and do compressors "
                                             "fail on the same samples?"));
    addPage(QStringLiteral("taxonomy"), m_taxonomy, tr("Taxonomy"));
    addPage(QStringLiteral("chain-breaks"), m_chainBreaks, tr("Chain breaks"));
    addPage(QStringLiteral("overlap"), overlapPage, tr("Failure overlap"));
    addPage(QStringLiteral("failure-sets"), setsPage, tr("Failure sets"));
    m_navigator->addGroup(tr("Attention"), tr("Where does the question look, and does boosting "
                                              "the attention on the evidence repair a failure?"));
    addPage(QStringLiteral("attention"), attentionPage, tr("Question attention"));
    addPage(QStringLiteral("interventions"), m_interventions, tr("Interventions"));
    m_navigator->addGroup(tr("Instructions"),
                          tr("Do the system prompt and the instructions survive compression?"));
    addPage(QStringLiteral("span-keep"), m_spanKeep, tr("Span keep"));
    addPage(QStringLiteral("leakage"), m_leakage, tr("Leakage"));
    m_navigator->addGroup(tr("Routing"), tr("Which entries survive in which layers and heads, "
                                            "and where is the cliff?"));
    addPage(QStringLiteral("eviction"), m_eviction, tr("Eviction map"));
    addPage(QStringLiteral("ger"), m_ger, tr("GER & consensus"));
    m_navigator->addGroup(tr("Samples"), tr("What did the model see and answer, and how do two "
                                            "configurations or two runs compare?"));
    addPage(QStringLiteral("sample"), m_inspector, tr("Sample"));
    // Samples side by side, and two open runs over their matched samples.
    addPage(QStringLiteral("compare-samples"), m_compare, tr("Compare samples"));
    addPage(QStringLiteral("compare-runs"), m_runCompare, tr("Compare runs"));
    m_navigator->addGroup(tr("Decoding"),
                          tr("While the answer is decoded, does the cache keep (decode-time "
                             "compression) or retrieve (offloading) the evidence each step "
                             "needs?"));
    // The decoding curves on one page, as tabs: the list shows every page without scrolling,
    // so each row it gains is height the docks below lose. Export takes the tab shown.
    auto* offloadCurves = new QTabWidget;
    offloadCurves->setObjectName(QStringLiteral("OffloadCurves"));
    offloadCurves->setDocumentMode(true);
    offloadCurves->addTab(m_retrievalRecall, tr("Evidence recall"));
    offloadCurves->addTab(m_offloadScore, tr("Score by landmark and chunk"));
    offloadCurves->addTab(m_decodingEvidence, tr("Evidence kept while compressing"));
    addPage(QStringLiteral("offload-curves"), offloadCurves, tr("Decoding curves"));
    addPage(QStringLiteral("retrieval-map"), m_retrievalMap, tr("Retrieval map"));
    connect(offloadCurves, &QTabWidget::currentChanged, this, [this, offloadCurves](int i) {
        m_pageViews.insert(offloadCurves, qobject_cast<PlotView*>(offloadCurves->widget(i)));
    });
    connect(m_navigator, &ViewNavigator::pageChanged, this, [this](const QString& id) {
        m_pages->setCurrentWidget(m_pageById.value(id));
        updateSelectionTitle();
    });
    m_views = {m_accuracy, m_taxonomy, m_chainBreaks, m_overlap,
               m_heatmap,  m_eviction, m_ger,         m_failureSets};
    for (PlotView* v : m_views)
        m_pageViews.insert(v, v);
    for (PlotView* v : {static_cast<PlotView*>(m_spanKeep), static_cast<PlotView*>(m_leakage),
                        static_cast<PlotView*>(m_interventions)})
        m_pageViews.insert(v, v);
    m_pageViews.insert(offloadCurves, m_retrievalRecall);
    m_pageViews.insert(m_retrievalMap, m_retrievalMap->view());
    m_pageViews.insert(accuracyPage, m_accuracy);
    m_pageViews.insert(overlapPage, m_overlap);
    m_pageViews.insert(setsPage, m_failureSets);
    m_pageViews.insert(attentionPage, m_heatmap);
    // Compare samples: A's map for the CSV; the figure takes all three panels.
    m_pageViews.insert(m_compare, m_compare->heatmap(1));
    // The selection line over the pages: which run, configuration, sample and heads the
    // view shows, so a screenshot or a glance never leaves it to memory.
    m_selectionTitle = new QLabel;
    m_selectionTitle->setObjectName(QStringLiteral("SelectionTitle"));
    m_selectionTitle->setWordWrap(true);
    m_selectionTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selectionTitle->setContentsMargins(6, 3, 6, 3);
    m_runPage = new QWidget;
    auto* runLayout = new QVBoxLayout(m_runPage);
    runLayout->setContentsMargins(0, 0, 0, 0);
    runLayout->setSpacing(0);
    runLayout->addWidget(m_selectionTitle);
    runLayout->addWidget(m_pages, 1);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_runPage);
    setCentralWidget(m_stack);

    // The navigator on the left, above the list of open runs: one narrow column.
    m_navigatorDock = new QDockWidget(tr("Views"), this);
    m_navigatorDock->setObjectName(QStringLiteral("ViewsDock"));
    // Not closable: without it the views would be reachable through the menu only.
    m_navigatorDock->setFeatures(QDockWidget::DockWidgetMovable);
    m_navigatorDock->setWidget(m_navigator);
    addDockWidget(Qt::LeftDockWidgetArea, m_navigatorDock);

    connect(m_taxonomy, &TaxonomyView::selectionChanged, this, &MainWindow::onTaxonomySelection);
    connect(m_chainBreaks, &TaxonomyView::selectionChanged, this,
            &MainWindow::onChainBreakSelection);
    connect(m_overlap, &OverlapMatrixView::pairSelected, this, &MainWindow::onOverlapSelection);
    connect(m_failureSets, &FailureSetsView::intersectionSelected, this,
            [this](double ratio, const QStringList& members, const QStringList& others) {
                if (m_currentRun.isEmpty() || !m_session->canRead())
                    return;
                const QString path = m_currentRun;
                statusBar()->showMessage(m_failureSets->describe(m_failureSets->selectedColumn()));
                runRowsQuery(tr("Failures at ratio %1: %2 only")
                                 .arg(ratio)
                                 .arg(members.join(QStringLiteral(" & "))),
                             [path, ratio, members, others] {
                                 return intersectionRows(path, ratio, members, others);
                             });
            });
    connect(m_accuracy, &AccuracyRatioView::configurationSelected, this,
            [this](const QString& compressor, double ratio) {
                m_selection.selectedCompressor = compressor;
                m_selection.selectedRatio = ratio;
                statusBar()->showMessage(tr("Selected %1 at ratio %2").arg(compressor).arg(ratio));
                setFocusConfiguration(compressor, ratio);
            });
}

void MainWindow::addPage(const QString& id, QWidget* page, const QString& title)
{
    m_pages->addWidget(page);
    m_pageById.insert(id, page);
    m_navigator->addPage(id, title);
}

QString MainWindow::currentPage() const
{
    return m_navigator->currentPage();
}

bool MainWindow::showPage(const QString& id)
{
    return m_navigator->setCurrentPage(id);
}

void MainWindow::createRunsDock()
{
    auto* dock = new QDockWidget(tr("Runs"), this);
    dock->setObjectName(QStringLiteral("RunsDock"));
    m_runList = new QListWidget;
    m_runList->setToolTip(tr("Open run files; double-click to show one"));
    dock->setWidget(m_runList);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {180}, Qt::Horizontal);
    connect(m_runList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openRun(item->data(Qt::UserRole).toString()); });
}

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

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Every page by its group; the first nine on Ctrl+1…9 in the navigator's order.
    const QStringList ids = m_navigator->pageIds();
    QString group;
    for (int i = 0; i < ids.size(); ++i) {
        if (m_navigator->groupTitle(ids[i]) != group) {
            group = m_navigator->groupTitle(ids[i]);
            view->addSection(group);
        }
        QString label = m_navigator->pageTitle(ids[i]);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        const QString id = ids[i];
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
    QMenu* theme = view->addMenu(tr("&Theme"));
    m_themeGroup = new QActionGroup(this);
    for (const auto& [name, label] : {std::pair{QStringLiteral("light"), tr("Light")},
                                      std::pair{QStringLiteral("dark"), tr("Dark")}}) {
        QAction* a = theme->addAction(label, this, [this, name] { setTheme(name); });
        a->setCheckable(true);
        a->setData(name);
        a->setChecked(name == m_theme);
        m_themeGroup->addAction(a);
    }
    QMenu* colorMap = view->addMenu(tr("Heatmap &colour map"));
    m_colorMapGroup = new QActionGroup(this);
    for (const auto& [map, label] : {std::pair{ColorMap::Viridis, tr("Viridis")},
                                     std::pair{ColorMap::Cividis, tr("Cividis")}}) {
        QAction* a = colorMap->addAction(label, this, [this, map] {
            m_heatmap->setColorMap(map);
            m_referenceHeatmap->setColorMap(map);
            m_headGrid->setColorMap(map);
        });
        a->setCheckable(true);
        a->setData(colorMapName(map));
        a->setChecked(map == m_heatmap->colorMap());
        m_colorMapGroup->addAction(a);
    }
    m_logScale = view->addAction(tr("Heatmap &logarithmic scale"), this,
                                 [this](bool on) { m_heatmap->setLogScale(on); });
    m_logScale->setCheckable(true);
    QAction* sharedScale = view->addAction(
        tr("Heatmaps: one colour sca&le for FullCache and compressed"), this, [this](bool on) {
            m_heatmap->setSharedScale(on);
            m_inspector->heatmap()->setSharedScale(on);
            m_compare->heatmap(0)->setSharedScale(on); // and its two linked panels
        });
    sharedScale->setCheckable(true);
    sharedScale->setChecked(true);
    m_shares = view->addAction(tr("Taxonomy and chain breaks as &shares"), this, [this](bool on) {
        m_taxonomy->setNormalized(on);
        m_chainBreaks->setNormalized(on);
    });
    m_shares->setCheckable(true);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        if (dock != m_navigatorDock)
            view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About KVLens"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

PlotView* MainWindow::currentView() const
{
    PlotView* view = m_pageViews.value(m_pages->currentWidget(), nullptr);
    // The head grid stands in for the two heatmaps while it is shown.
    return view == m_heatmap && !m_headGrid->isHidden() ? m_headGrid : view;
}

void MainWindow::updateHeadGrid()
{
    const bool grid = m_heads->selection().mode == HeadSelection::Mode::EveryHead;
    m_headGrid->setVisible(grid);
    m_heatmap->setVisible(!grid);
    m_referenceHeatmap->setVisible(!grid);
    if (!grid)
        return;
    m_headGrid->setProvenance(m_heatmap->provenance());
    m_headGrid->setData(m_heatmap->source());
    if (!m_heatmap->hasData()) // says why, as the heatmap it stands in for
        m_headGrid->setEmptyHint(m_heatmap->emptyHint());
}

void MainWindow::showRun(const RunViewData& data)
{
    showSummary(data);
    showAggregates(data);
    showDetails(data);
}

void MainWindow::showSummary(const RunViewData& data)
{
    m_data = data;
    Provenance base;
    base.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
    base.model = data.provenanceModel();
    for (PlotView* v : m_views)
        if (v != m_heatmap && v != m_eviction && v != m_ger)
            v->setProvenance(base);
    setAccuracySuite(m_selection.accuracySuite);
    if (data.path != m_currentRun)
        m_overlapRatio = m_pendingRestore && m_pendingRestore->currentRun == data.path
                             ? m_pendingRestore->overlapRatio
                             : -1.0;
    m_currentRun = data.path;
    if (!data.path.isEmpty() && !m_openRuns.contains(data.path))
        addRunToList(data.path);
    if (!data.path.isEmpty())
        m_runConfigs.insert(data.path, data.configs);
    updateChoosers();
    // The compare panel's preferred pair follows the focus: set with the details.
    // Each view says what it shows, and what is missing and why.
    describeRunState(data, findChildren<PlotView*>());
    describeDetailViews(data, m_heatmap, m_referenceHeatmap, m_eviction);
    m_stack->setCurrentWidget(m_runPage);
    setRunChromeVisible(true);
    updateTitle();
}

void MainWindow::showAggregates(const RunViewData& data)
{
    m_data = data;
    Provenance base;
    base.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
    base.model = data.model;
    m_taxonomy->setData(data.taxonomy);
    m_chainBreaks->setData(data.chainBreaks);
    // setData with an empty value would draw nothing yet leave the view "with data".
    auto show = [](auto* view, const auto& value) {
        if (value.isEmpty())
            view->clear();
        else
            view->setData(value);
    };
    show(m_spanKeep, data.spanKeep);
    show(m_leakage, data.leakage);
    show(m_interventions, data.interventions);
    for (PlotView* v : {static_cast<PlotView*>(m_spanKeep), static_cast<PlotView*>(m_leakage),
                        static_cast<PlotView*>(m_interventions)})
        v->setProvenance(base);
    show(m_retrievalRecall, data.offload.recall);
    show(m_offloadScore, data.offload.score);
    show(m_decodingEvidence, data.decodingEvidence);
    m_retrievalRecall->setProvenance(base);
    m_offloadScore->setProvenance(base);
    m_decodingEvidence->setProvenance(base);
    m_retrievalMap->setRun(data.path, data.offload.rows, base);
    showOverlapAndSets(data);
    updateChoosers(); // the overlap ratios
    describeRunState(data, findChildren<PlotView*>());
    describeDetailViews(data, m_heatmap, m_referenceHeatmap, m_eviction);
}

void MainWindow::showOverlapAndSets(const RunViewData& data)
{
    // Keep the overlap ratio the user chose when the run is re-read.
    const int kept = int(data.overlapRatios.indexOf(m_overlapRatio));
    if (kept >= 0)
        m_overlap->setData(data.overlaps[kept]);
    else {
        m_overlap->setData(data.overlap);
        m_overlapRatio = data.overlapRatios.value(data.overlapIndex, -1.0);
    }
    const FailureSets sets =
        data.failureSets.value(kept >= 0 ? kept : data.overlapIndex, FailureSets{});
    if (sets.isEmpty())
        m_failureSets->clear();
    else
        m_failureSets->setData(sets);
    // Restore a saved overlap selection when the pair exists in this run.
    const int a = int(data.overlap.names.indexOf(m_selection.overlapA));
    const int b = int(data.overlap.names.indexOf(m_selection.overlapB));
    if (a >= 0 && b >= 0)
        m_overlap->selectPair(a, b);
}

void MainWindow::showDetails(const RunViewData& data)
{
    m_data = data;
    Provenance base;
    base.run = data.runName.isEmpty() ? QFileInfo(data.path).fileName() : data.runName;
    base.model = data.model;
    auto withBase = [&base](Provenance p) {
        p.run = base.run;
        p.model = base.model;
        return p;
    };
    m_heatmap->setProvenance(withBase(data.heatmapProvenance));
    m_referenceHeatmap->setProvenance(withBase(data.referenceProvenance));
    m_eviction->setProvenance(withBase(data.evictionProvenance));
    // GER and consensus are drawn for the focus compressor (every ratio of it).
    Provenance ger = base;
    ger.compressor = data.focus.compressor;
    m_ger->setProvenance(ger);
    auto show = [](auto* view, const auto& value) {
        if (value.isEmpty())
            view->clear();
        else
            view->setData(value);
    };
    show(m_heatmap, data.heatmap);
    show(m_referenceHeatmap, data.referenceHeatmap);
    updateHeadGrid();
    show(m_eviction, data.eviction);
    show(m_ger, data.ger);
    showOverlapAndSets(data);
    updateChoosers();
    updateCompareChoices();
    m_compare->setSample(data.sampleKey, m_currentRun);
    describeDetailViews(data, m_heatmap, m_referenceHeatmap, m_eviction);
    const Heatmap& shape = data.referenceHeatmap.isEmpty() ? data.heatmap : data.referenceHeatmap;
    m_heads->setShape(shape.rows, shape.perHead.isEmpty() ? 0 : shape.kvHeads);
    applyPendingRestore();
    updateTitle();
}

void MainWindow::applyPendingRestore()
{
    if (!m_pendingRestore || m_pendingRestore->currentRun != m_currentRun)
        return;
    const SessionState s = *m_pendingRestore;
    m_pendingRestore.reset();
    m_heads->setSelection(s.heads);
    // Zoom last: the maps hold this sample's positions now.
    if (s.attentionZoom.first >= 0 && m_heatmap->hasData())
        m_heatmap->setVisibleRange(s.attentionZoom.first, s.attentionZoom.second);
    if (s.evictionZoom.first >= 0 && m_eviction->hasData())
        m_eviction->setVisibleRange(s.evictionZoom.first, s.evictionZoom.second);
}

void MainWindow::openRun(const QString& path)
{
    // The same run again keeps its focus.
    openRequest(path == m_session->path() ? m_session->request() : RunRequest{path, {}, -1.0, {}});
}

void MainWindow::openRequest(const RunRequest& request)
{
    if (m_session->canRead())
        statusBar()->showMessage(tr("Opening %1…").arg(request.path));
    m_session->open(request);
}

void MainWindow::closeRun()
{
    if (m_currentRun.isEmpty())
        return;
    m_openRuns.removeAll(m_currentRun);
    for (int i = m_runList->count() - 1; i >= 0; --i)
        if (m_runList->item(i)->data(Qt::UserRole).toString() == m_currentRun)
            delete m_runList->takeItem(i);
    m_runConfigs.remove(m_currentRun);
    m_currentRun.clear();
    m_session->close();
    m_data = {};
    m_rowsRequest->cancel();
    m_sampleRequest->cancel();
    m_watcher->stop();
    for (PlotView* v : m_views)
        v->clear();
    m_referenceHeatmap->clear();
    m_headGrid->clear();
    m_spanKeep->clear();
    m_leakage->clear();
    m_interventions->clear();
    m_retrievalRecall->clear();
    m_offloadScore->clear();
    m_decodingEvidence->clear();
    m_retrievalMap->clear();
    describeRunState({}, findChildren<PlotView*>());
    m_rows->clear();
    m_overlapLists->clear();
    m_rowsQuery = {};
    m_inspector->clear();
    statusBar()->setToolTip({}); // the closed run's missing rows (showRunStatus)
    updateChoosers();
    updateCompareChoices();
    m_stack->setCurrentWidget(m_start);
    setRunChromeVisible(false);
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString run =
        m_data.runName.isEmpty() ? QFileInfo(m_currentRun).fileName() : m_data.runName;
    setWindowTitle(run.isEmpty() ? tr("KVLens") : tr("%1 — KVLens").arg(run));
    m_runLabel->setText(run.isEmpty()            ? tr("No run open")
                        : m_data.model.isEmpty() ? run
                                                 : tr("%1 · model %2").arg(run, m_data.model));
    updateSelectionTitle();
}

QString MainWindow::selectionTitle() const
{
    const QString id = currentPage();
    QStringList parts;
    parts << tr("%1 › %2").arg(m_navigator->groupTitle(id), m_navigator->pageTitle(id));
    if (m_currentRun.isEmpty())
        return parts.first();
    parts << tr("run: %1").arg(QFileInfo(m_currentRun).fileName());
    // The inspector and the retrieval map show the row they were given, whatever the
    // toolbar's selection.
    const SampleDetail& inspected = m_inspector->detail();
    const bool inspector = id == QLatin1String("sample") && !inspected.sample.key.isEmpty();
    const std::optional<RetrievalRowChoice> mapRow =
        id == QLatin1String("retrieval-map") ? m_retrievalMap->shownRow() : std::nullopt;
    const ConfigChoice config = inspector ? ConfigChoice{inspected.compressor, inspected.ratio}
                                : mapRow  ? ConfigChoice{mapRow->compressor, mapRow->ratio}
                                          : m_data.focus;
    if (!config.compressor.isEmpty())
        parts << tr("configuration: %1").arg(config.label());
    // The attention maps are always of one sample; the other views average unless
    // one is chosen.
    const QString sample = inspector                          ? inspected.sample.key
                           : mapRow                           ? mapRow->sampleKey
                           : id == QLatin1String("attention") ? m_data.sampleKey
                           : id == QLatin1String("compare-samples")
                               ? m_compare->sample()
                               : m_session->request().sampleKey;
    // With "All samples" in the toolbar the attention page still draws one sample: say
    // which, and why, rather than contradict the toolbar.
    const bool attentionOfFirst = id == QLatin1String("attention") && !sample.isEmpty() &&
                                  m_session->request().sampleKey.isEmpty();
    parts << (sample.isEmpty() ? tr("sample: all (mean)")
              : attentionOfFirst
                  ? tr("sample: %1 (attention maps are drawn one sample at a time: the first; "
                       "pick another in the Sample box)")
                        .arg(sample)
                  : tr("sample: %1").arg(sample));
    parts << tr("heads: %1").arg(m_heads->selection().describe());
    return parts.join(QStringLiteral(" · "));
}

void MainWindow::updateSelectionTitle()
{
    if (!m_selectionTitle)
        return;
    const QString text = selectionTitle();
    // The page in bold, the selection after it.
    const qsizetype cut = text.indexOf(QStringLiteral(" · "));
    m_selectionTitle->setText(
        cut < 0 ? QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped())
                : QStringLiteral("<b>%1</b>%2")
                      .arg(text.left(cut).toHtmlEscaped(), text.mid(cut).toHtmlEscaped()));
}

bool MainWindow::exportAllowed()
{
    // Figures and data leave the app with provenance: never from rows not yet verified.
    if (m_currentRun.isEmpty() || m_session->isVerified())
        return true;
    statusBar()->showMessage(tr("The run's rows are still being checked; export once the "
                                "check is done."));
    return false;
}

void MainWindow::exportFigure()
{
    if (!exportAllowed())
        return;
    PlotView* view = currentView();
    // Paired heatmaps (FullCache and compressed) export as one figure.
    QVector<const PlotView*> pair;
    Qt::Orientation orientation = Qt::Vertical;
    if (view == m_heatmap) {
        pair = {m_referenceHeatmap, m_heatmap};
    } else if (m_pages->currentWidget() == m_inspector) {
        pair = {m_inspector->referenceHeatmap(), m_inspector->heatmap()};
        orientation = Qt::Horizontal;
        view = m_inspector->heatmap();
    } else if (m_pages->currentWidget() == m_compare) {
        // Reference, A and B stacked as on screen, on their one colour scale.
        pair = {m_compare->heatmap(0), m_compare->heatmap(1), m_compare->heatmap(2)};
    }
    bool hasData = view && view->hasData();
    for (const PlotView* v : pair)
        hasData |= v->hasData();
    if (!hasData) {
        statusBar()->showMessage(tr("Nothing to export: this view holds no data."));
        return;
    }
    QString selectedFilter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figure"), view->title(), tr("PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"),
        &selectedFilter);
    if (path.isEmpty())
        return;
    QString file = path;
    if (QFileInfo(file).suffix().isEmpty())
        file += selectedFilter.startsWith(QLatin1String("SVG"))   ? QStringLiteral(".svg")
                : selectedFilter.startsWith(QLatin1String("PNG")) ? QStringLiteral(".png")
                                                                  : QStringLiteral(".pdf");
    try {
        if (pair.isEmpty())
            view->exportFigure(file);
        else
            PlotView::exportFigures(pair, file, orientation);
        statusBar()->showMessage(tr("Saved %1").arg(file));
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Export figure"), e.message());
    }
}

void MainWindow::exportData()
{
    if (!exportAllowed())
        return;
    PlotView* view = currentView();
    if (!view || !view->hasData()) {
        statusBar()->showMessage(tr("Nothing to export: this view holds no data."));
        return;
    }
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export data"), view->title(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    try {
        view->exportCsv(path);
        statusBar()->showMessage(tr("Saved %1").arg(path));
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Export data"), e.message());
    }
}

void MainWindow::showNewRunDialog()
{
    if (!m_newRun) {
        m_newRun = new NewRunDialog(this);
        connect(m_newRun, &NewRunDialog::runFinished, this, [this](const QString& path, bool ok) {
            statusBar()->showMessage(ok ? tr("Run finished: %1").arg(path)
                                        : tr("Run stopped: %1").arg(path));
            if (QFileInfo::exists(path) && m_session->canRead())
                openRun(path);
        });
        // The views fill in as rows land, not only when the sweep is over.
        connect(m_newRun->process(), &RunProcess::progressChanged, this, &MainWindow::followNewRun);
    }
    m_newRun->show();
    m_newRun->raise();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About KVLens"),
        tr("<h3>KVLens %1</h3><p>Visual analysis of KV-cache compression in long-context "
           "language models: why a compressed model fails, not only that it fails.</p>"
           "<p>Runs happen in a separate <tt>kvlens-cli</tt> process; this window only reads "
           "run files and draws.</p>")
            .arg(QApplication::applicationVersion()));
}

void MainWindow::onTaxonomySelection(const TaxonomySelection& s)
{
    m_selection.selectedCompressor = s.compressor;
    m_selection.selectedRatio = s.ratio;
    m_selection.selectedSignature = s.signature;
    statusBar()->showMessage(tr("Selected %1 C→W rows of %2 at ratio %3 with signature %4")
                                 .arg(s.count)
                                 .arg(s.compressor)
                                 .arg(s.ratio)
                                 .arg(s.signature));
    showTaxonomyRows(s);
}

void MainWindow::onChainBreakSelection(const TaxonomySelection& s)
{
    m_selection.selectedCompressor = s.compressor;
    m_selection.selectedRatio = s.ratio;
    statusBar()->showMessage(tr("Selected %1 multihop C→W rows of %2 at ratio %3: %4")
                                 .arg(s.count)
                                 .arg(s.compressor)
                                 .arg(s.ratio)
                                 .arg(signatureDisplayName(s.signature)));
    showChainBreakRows(s);
}

void MainWindow::onOverlapSelection(const OverlapSelection& s)
{
    m_selection.overlapA = s.a;
    m_selection.overlapB = s.b;
    statusBar()->showMessage(m_overlap->describe(int(m_overlap->data().names.indexOf(s.a)),
                                                 int(m_overlap->data().names.indexOf(s.b))));
    showOverlapRows(s);
}

void MainWindow::setTheme(const QString& theme)
{
    m_theme = themeName(themeFromName(theme));
    if (m_theme == QLatin1String("dark")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkApplicationPalette());
    } else {
        QApplication::setPalette(QApplication::style()->standardPalette());
    }
    for (PlotView* v : findChildren<PlotView*>())
        v->setTheme(themeFromName(m_theme));
    if (m_themeGroup)
        for (QAction* a : m_themeGroup->actions())
            a->setChecked(a->data().toString() == m_theme);
}

SessionState MainWindow::sessionState() const
{
    SessionState s = m_selection;
    s.openRuns = m_openRuns;
    s.currentRun = m_currentRun;
    s.currentPage = currentPage();
    if (!m_currentRun.isEmpty()) {
        // Exactly what the views show now, to be shown again on the next start.
        if (!m_data.focus.compressor.isEmpty()) {
            s.selectedCompressor = m_data.focus.compressor;
            s.selectedRatio = m_data.focus.ratio;
        }
        s.selectedSample = m_session->request().sampleKey;
        s.overlapRatio = m_overlapRatio;
        auto zoom = [](const PooledMapView* map) {
            return map->hasData() && map->isZoomed()
                       ? std::pair{map->visibleBegin(), map->visibleEnd()}
                       : std::pair{-1, -1};
        };
        s.attentionZoom = zoom(m_heatmap);
        s.evictionZoom = zoom(m_eviction);
    }
    s.theme = m_theme;
    s.heatmapColorMap = colorMapName(m_heatmap->colorMap());
    s.heatmapLogScale = m_heatmap->logScale();
    s.taxonomyShares = m_taxonomy->normalized();
    s.windowGeometry = saveGeometry();
    s.windowState = saveState();
    return s;
}

void MainWindow::applySessionState(const SessionState& s)
{
    m_selection = s;
    if (!s.windowGeometry.isEmpty())
        restoreGeometry(s.windowGeometry);
    if (!s.windowState.isEmpty())
        restoreState(s.windowState);
    setTheme(s.theme);
    m_heatmap->setColorMap(colorMapFromName(s.heatmapColorMap));
    for (QAction* a : m_colorMapGroup->actions())
        a->setChecked(a->data().toString() == colorMapName(m_heatmap->colorMap()));
    m_heatmap->setLogScale(s.heatmapLogScale);
    m_logScale->setChecked(s.heatmapLogScale);
    m_taxonomy->setNormalized(s.taxonomyShares);
    m_chainBreaks->setNormalized(s.taxonomyShares);
    m_shares->setChecked(s.taxonomyShares);
    if (!showPage(s.currentPage))
        showPage(m_navigator->pageIds().constFirst());
    // Runs are listed; the current one is opened when this build can read run files.
    for (const QString& path : s.openRuns)
        if (!m_openRuns.contains(path))
            addRunToList(path);
    QString current = s.currentRun;
    if (current.isEmpty() && !s.openRuns.isEmpty())
        current = s.openRuns.constLast();
    if (!current.isEmpty() && QFileInfo::exists(current)) {
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
}

void MainWindow::setRunStages(RunStages stages)
{
    m_session->setStages(std::move(stages));
    if (m_session->canRead() && !m_sessionRun.path.isEmpty() && m_currentRun.isEmpty()) {
        const RunRequest request = m_sessionRun;
        m_sessionRun = {};
        openRequest(request);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // A run still going in the New run dialog is terminated by RunProcess's
    // destructor when the window goes; its finished samples stay in the run file.
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
