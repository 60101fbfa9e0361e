// MainWindow, the run side: loading off the GUI thread, live refresh, the shared
// selection, drill-down into rows and samples, and the demo of the start page.
#include "mainwindow.h"

#include "common/error.h"
#include "comparepanel.h"
#include "latestrequest.h"
#include "missingrowstext.h"
#include "newrundialog.h"
#include "overlaplists.h"
#include "rowqueries.h"
#include "rowspanel.h"
#include "runcomparepanel.h"
#include "runprocess.h"
#include "runwatcher.h"
#include "sampledetail.h"
#include "sampleinspector.h"
#include "startpage.h"
#include "store/runreader.h"
#include "views/accuracyratioview.h"
#include "views/failuresetsview.h"
#include "views/overlapmatrixview.h"
#include "views/signaturenames.h"
#include "views/taxonomydata.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <cmath>

namespace kvl {

namespace {

bool sameRatio(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}

} // namespace

void MainWindow::createStartPage()
{
    m_start = new StartPage;
    m_stack->addWidget(m_start);
    m_stack->setCurrentWidget(m_start);
    connect(m_start, &StartPage::openRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open run"), {},
                                                          tr("KVLens runs (*.kvl);;All files (*)"));
        if (!path.isEmpty())
            openRun(path);
    });
    connect(m_start, &StartPage::demoRequested, this, [this] { startDemo(); });
    connect(m_start, &StartPage::cancelRequested, this, &MainWindow::cancelDemo);
}

void MainWindow::createSelectionBar()
{
    QToolBar* bar = addToolBar(tr("Selection"));
    m_selectionBar = bar;
    bar->setObjectName(QStringLiteral("SelectionBar"));
    bar->setMovable(false);
    m_configCombo = new QComboBox;
    m_configCombo->setObjectName(QStringLiteral("FocusConfiguration"));
    m_configCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_configCombo->setToolTip(tr("Configuration of the attention, eviction map and GER views"));
    m_sampleCombo = new QComboBox;
    m_sampleCombo->setObjectName(QStringLiteral("FocusSample"));
    m_sampleCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sampleCombo->setToolTip(tr("Sample of the attention and compare views; the eviction map "
                                 "averages over all samples unless one is chosen"));
    bar->addWidget(new QLabel(tr(" Configuration: ")));
    bar->addWidget(m_configCombo);
    bar->addWidget(new QLabel(tr("  Sample: ")));
    bar->addWidget(m_sampleCombo);
    connect(m_configCombo, &QComboBox::activated, this, [this](int i) {
        if (i >= 0 && i < m_data.configs.size())
            setFocusConfiguration(m_data.configs[i].compressor, m_data.configs[i].ratio);
    });
    connect(m_sampleCombo, &QComboBox::activated, this, [this](int i) {
        setFocusSample(i <= 0 ? QString() : m_sampleCombo->itemData(i).toString());
    });
}

void MainWindow::createRowsDock()
{
    auto* dock = new QDockWidget(tr("Rows"), this);
    m_rowsDock = dock;
    dock->setObjectName(QStringLiteral("RowsDock"));
    m_rows = new RowsPanel;
    dock->setWidget(m_rows);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {240}, Qt::Vertical);
    connect(m_rows, &RowsPanel::rowSelected, this, &MainWindow::inspectRow);
}

void MainWindow::addRunToList(const QString& path)
{
    m_openRuns << path;
    auto* item = new QListWidgetItem(QFileInfo(path).fileName(), m_runList);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
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

void MainWindow::refreshRun()
{
    m_session->refresh();
}

void MainWindow::showRunStatus()
{
    const RunViewData& data = m_session->data();
    if (data.path.isEmpty())
        return;
    QString rows =
        tr("%n sample(s), %1 rows", nullptr, int(data.sampleCount)).arg(data.resultCount);
    // Rows of a schema-2 file carry no checksum: say they were read unverified.
    if (!m_session->isVerified())
        rows += tr(" (checking the rows' checksums…)");
    else if (data.uncheckedRows > 0)
        rows += tr(" (%1 written before checksums, not verified)").arg(data.uncheckedRows);
    const MissingRowsText missing = MissingRowsText::of(data.missing);
    rows += missing.summary;
    QStringList tip;
    if (!missing.detail.isEmpty())
        tip << missing.detail;
    // An imported run says where it came from, and what its source lacked (a release copy
    // without some diagnostics): its taxonomy stands on the rows that have them.
    if (!data.importedFrom.isEmpty()) {
        rows += tr(" · imported from %1").arg(data.importedFrom);
        if (!data.importMissing.isEmpty())
            rows += tr(", %n part(s) not in the source", nullptr, int(data.importMissing.size()));
        for (const QString& m : data.importMissing)
            tip << tr("Not in the source: %1").arg(m);
    }
    statusBar()->setToolTip(tip.join(QLatin1Char('\n')));
    const bool running = data.status == QLatin1String("running");
    statusBar()->showMessage(
        running && data.sampleCount == 0
            ? tr("%1: no sample finished; the file says 'running' (a run cancelled "
                 "before its first sample stays so)")
                  .arg(data.path)
        : running ? tr("%1: %2, still running").arg(data.path, rows)
                  : tr("%1: %2").arg(data.path, rows));
}

void MainWindow::onVerificationFailed(const QString& path, const QString& message)
{
    // What was drawn came from a file with a changed row: withdraw all of it, then refuse
    // the file as an open that failed does.
    if (path == m_currentRun)
        closeRun();
    showLoadError(path, message);
}

void MainWindow::showLoadError(const QString& path, const QString& message)
{
    m_lastError = message;
    statusBar()->showMessage(message);
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

void MainWindow::updateChoosers()
{
    {
        const QSignalBlocker block(m_configCombo);
        m_configCombo->clear();
        for (const ConfigChoice& c : m_data.configs)
            m_configCombo->addItem(c.label());
        m_configCombo->setCurrentIndex(int(m_data.configs.indexOf(m_data.focus)));
    }
    {
        const QSignalBlocker block(m_sampleCombo);
        m_sampleCombo->clear();
        if (!m_data.sampleKeys.isEmpty())
            m_sampleCombo->addItem(tr("All samples (mean)"));
        for (const QString& key : m_data.sampleKeys)
            m_sampleCombo->addItem(key, key);
        const QString asked = m_session->request().sampleKey;
        const int i =
            m_data.evictionAveraged || asked.isEmpty() ? 0 : m_sampleCombo->findData(asked);
        m_sampleCombo->setCurrentIndex(m_data.sampleKeys.isEmpty() ? -1 : std::max(0, i));
    }
    for (QComboBox* combo : {m_overlapRatioCombo, m_failureSetsRatioCombo}) {
        const QSignalBlocker block(combo);
        combo->clear();
        for (double r : m_data.overlapRatios)
            combo->addItem(QString::number(r));
        combo->setCurrentIndex(int(m_data.overlapRatios.indexOf(m_overlapRatio)));
    }
    {
        const QSignalBlocker block(m_accuracySuiteCombo);
        m_accuracySuiteCombo->clear();
        m_accuracySuiteCombo->addItem(tr("All suites"), QString());
        for (const QString& suite : m_data.suites)
            m_accuracySuiteCombo->addItem(suite, suite);
        m_accuracySuiteCombo->setCurrentIndex(
            std::max(0, m_accuracySuiteCombo->findData(m_selection.accuracySuite)));
        m_accuracySuiteRow->setVisible(m_data.suites.size() > 1);
    }
}

void MainWindow::updateCompareChoices()
{
    QVector<CompareChoice> choices;
    // The current run first, then the other open runs (to compare two models' runs).
    QStringList runs = m_openRuns;
    if (runs.removeAll(m_currentRun) > 0)
        runs.prepend(m_currentRun);
    const bool several = m_runConfigs.size() > 1;
    for (const QString& path : runs)
        for (const ConfigChoice& c : m_runConfigs.value(path))
            choices << CompareChoice{path, several ? QFileInfo(path).completeBaseName() : QString(),
                                     c};
    // A = the focus configuration, B = another compressor at the same ratio.
    CompareChoice a, b;
    for (const CompareChoice& c : choices) {
        if (c.path != m_currentRun)
            continue;
        if (c.config == m_data.focus)
            a = c;
        else if (b.path.isEmpty() && c.config.compressor != m_data.focus.compressor &&
                 c.config.compressor != QLatin1String("FullCache") &&
                 sameRatio(c.config.ratio, m_data.focus.ratio))
            b = c;
    }
    m_compare->setPreferred(a, b);
    m_compare->setChoices(choices);
    m_runCompare->setRuns(m_openRuns, m_currentRun);
}

void MainWindow::setFocusConfiguration(const QString& compressor, double ratio)
{
    if (m_session->path().isEmpty() || !m_session->canRead())
        return;
    m_selection.selectedCompressor = compressor;
    m_selection.selectedRatio = ratio;
    m_session->setFocusConfiguration(compressor, ratio);
}

void MainWindow::setFocusSample(const QString& sampleKey)
{
    m_session->setFocusSample(sampleKey);
}

void MainWindow::setOverlapRatio(double ratio)
{
    for (int i = 0; i < m_data.overlapRatios.size(); ++i)
        if (sameRatio(m_data.overlapRatios[i], ratio)) {
            m_overlapRatio = m_data.overlapRatios[i];
            m_overlap->setData(m_data.overlaps[i]);
            if (i < m_data.failureSets.size())
                m_failureSets->setData(m_data.failureSets[i]);
            m_overlapLists->clear(); // the pair listed was at the other ratio
            for (QComboBox* combo : {m_overlapRatioCombo, m_failureSetsRatioCombo}) {
                const QSignalBlocker block(combo);
                combo->setCurrentIndex(i);
            }
        }
}

void MainWindow::setAccuracySuite(const QString& suite)
{
    // Remembered as asked, so the next run with that suite opens on it too.
    m_selection.accuracySuite = suite;
    const qsizetype i = suite.isEmpty() ? -1 : m_data.suites.indexOf(suite);
    m_accuracy->setTitle(i >= 0 ? QStringLiteral("%1 · %2").arg(m_accuracyTitle, suite)
                                : m_accuracyTitle);
    m_accuracy->setData(i >= 0 ? m_data.suiteAccuracy[i] : m_data.accuracy);
    Provenance p = m_accuracy->provenance();
    p.note = i >= 0 ? QStringLiteral("suite: %1").arg(suite) : QString();
    m_accuracy->setProvenance(p);
    const QSignalBlocker block(m_accuracySuiteCombo);
    m_accuracySuiteCombo->setCurrentIndex(
        std::max(0, m_accuracySuiteCombo->findData(i >= 0 ? suite : QString())));
}

void MainWindow::runRowsQuery(const QString& title, std::function<QVector<ResultRow>()> query)
{
    m_rowsTitle = title;
    m_rowsQuery = query;
    m_rows->setBusy(title);
    if (auto* dock = qobject_cast<QDockWidget*>(m_rows->parentWidget()))
        dock->show();
    m_rowsRequest->run<QVector<ResultRow>>(
        query,
        [this, title](const QVector<ResultRow>& rows) {
            m_rows->setRows(tr("%1: %n row(s)", nullptr, int(rows.size())).arg(title), rows);
            emit rowsAvailable(int(rows.size()));
        },
        [this](const QString& message) { m_rows->setRows(message, {}); });
}

void MainWindow::showTaxonomyRows(const TaxonomySelection& s)
{
    if (m_currentRun.isEmpty() || !m_session->canRead())
        return;
    const QString path = m_currentRun;
    const QString title =
        tr("%1 · %2 (C→W)")
            .arg(ConfigChoice{s.compressor, s.ratio}.label(), signatureDisplayName(s.signature));
    runRowsQuery(title,
                 [path, s] { return taxonomyRows(path, s.compressor, s.ratio, s.signature); });
}

void MainWindow::showChainBreakRows(const TaxonomySelection& s)
{
    if (m_currentRun.isEmpty() || !m_session->canRead())
        return;
    const QString path = m_currentRun;
    const QString title =
        tr("%1 · chain broken at: %2 (C→W)")
            .arg(ConfigChoice{s.compressor, s.ratio}.label(), signatureDisplayName(s.signature));
    runRowsQuery(title,
                 [path, s] { return chainBreakRows(path, s.compressor, s.ratio, s.signature); });
}

void MainWindow::showOverlapRows(const OverlapSelection& s)
{
    if (m_currentRun.isEmpty() || !m_session->canRead() || m_overlapRatio < 0)
        return;
    const QString path = m_currentRun;
    const double ratio = m_overlapRatio;
    const QString title = tr("Failures at ratio %1: %2 vs %3").arg(ratio).arg(s.a, s.b);
    runRowsQuery(title, [path, ratio, s] { return overlapRows(path, ratio, s.a, s.b); });
    m_overlapLists->showPair(path, ratio, s.a, s.b);
}

void MainWindow::inspectRow(const ResultRow& row)
{
    if (m_currentRun.isEmpty())
        return;
    const QString path = m_currentRun;
    const StoredResult r = row.result;
    m_inspector->setBusy(r.sampleKey);
    showPage(QStringLiteral("sample"));
    // A drill-down picks the row's configuration and sample for every view, so the
    // toolbar, the selection line and the other pages agree with the inspector.
    const ConfigChoice rowConfig{r.compressor, r.ratio};
    if (m_data.configs.contains(rowConfig) && !(rowConfig == m_data.focus))
        setFocusConfiguration(r.compressor, r.ratio);
    if (m_session->request().sampleKey != r.sampleKey)
        setFocusSample(r.sampleKey);
    m_compare->setSample(r.sampleKey, path);
    m_sampleRequest->run<SampleDetail>(
        [path, r] { return loadSampleDetail(path, r.sampleKey, r.compressor, r.ratio); },
        [this](const SampleDetail& d) {
            m_inspector->setDetail(d);
            updateSelectionTitle();
            emit sampleDetailAvailable(d.sample.key);
        },
        [this](const QString& message) { m_inspector->setBusy(message); });
}

QString MainWindow::demoPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/demo.kvl");
}

void MainWindow::startDemo(const QString& program)
{
    if (m_demo->isRunning())
        return;
    const QString out = demoPath();
    QDir().mkpath(QFileInfo(out).absolutePath());
    m_demoOpened = false;
    m_start->setRunning(true);
    m_runProgress->setRange(0, 0);
    m_runProgress->show();
    m_runCancel->show();
    m_demo->start(program.isEmpty() ? NewRunDialog::findCli() : program,
                  {QStringLiteral("demo"), QStringLiteral("--out"), out});
    // Progress lines are the fast path; the file itself is the fallback, for a
    // child that reports no progress on stdout.
    if (!m_demoPoll) {
        m_demoPoll = new QTimer(this);
        m_demoPoll->setInterval(1000);
        connect(m_demoPoll, &QTimer::timeout, this, &MainWindow::pollDemoFile);
    }
    m_demoPoll->start();
}

void MainWindow::pollDemoFile()
{
    if (m_demoOpened || !m_demo->isRunning() || !m_session->canRead()) {
        m_demoPoll->stop();
        return;
    }
    if (!QFileInfo::exists(demoPath()))
        return;
    qint64 samples = 0;
    try {
        samples = RunReader(demoPath()).sampleCount();
    } catch (const Error&) {
        return; // still being created
    }
    if (samples <= 0)
        return;
    m_start->setMessage(tr("Demo: %n sample(s) finished", nullptr, int(samples)));
    m_demoOpened = true;
    m_demoPoll->stop();
    openRun(demoPath());
}

void MainWindow::cancelDemo()
{
    if (m_demo->isRunning())
        m_demo->cancel();
}

void MainWindow::showDemoProgress(const RunProgress& p)
{
    QString text = tr("Demo: %1 of %2 samples").arg(p.done).arg(p.total);
    if (!std::isnan(p.etaS))
        text += tr(", about %1 s left").arg(qRound(p.etaS));
    m_start->setProgress(p.done, p.total, text);
    if (p.total > 0) {
        m_runProgress->setRange(0, p.total);
        m_runProgress->setValue(p.done);
    }
    m_runProgress->setFormat(QStringLiteral("%1/%2").arg(p.done).arg(p.total));
    // Land on the overview as soon as the first samples are in; the watcher
    // refreshes the views as the rest land.
    if (!m_demoOpened && p.done > 0 && QFileInfo::exists(demoPath()) && m_session->canRead()) {
        m_demoOpened = true;
        openRun(demoPath());
    }
}

void MainWindow::onDemoFinished(bool ok, int exitCode, bool cancelled)
{
    m_start->setRunning(false);
    m_runProgress->hide();
    m_runCancel->hide();
    if (m_demoPoll)
        m_demoPoll->stop();
    QString message = ok          ? tr("Demo finished.")
                      : cancelled ? tr("Demo cancelled; finished samples are kept.")
                                  : tr("Demo failed (exit code %1).").arg(exitCode);
    if (!ok && !cancelled && !m_demo->stderrText().trimmed().isEmpty())
        message +=
            QLatin1Char('\n') + m_demo->stderrText().trimmed().section(QLatin1Char('\n'), -3);
    m_start->setMessage(message);
    statusBar()->showMessage(message);
    if (QFileInfo::exists(demoPath()) && m_session->canRead()) {
        if (m_currentRun == demoPath())
            refreshRun();
        else if (ok)
            openRun(demoPath());
    }
}

void MainWindow::followNewRun()
{
    const QString path = m_newRun ? m_newRun->outputPath() : QString();
    if (!path.isEmpty() && m_session->canRead() && QFileInfo::exists(path) &&
        QFileInfo(path).absoluteFilePath() != QFileInfo(m_currentRun).absoluteFilePath())
        openRun(path);
}

} // namespace kvl
