// Every drill-down path ends with the toolbar, the selection line, the sample inspector and
// the clicked row naming the same configuration and sample: the session owns the focus, and
// a drill-down asks it to move (RunSession::inspectRow) rather than telling one widget.
// Paths: taxonomy bar, chain-break bar, failure-set column (to the Rows dock), overlap cell
// (to its lists below the matrix), the Rows dock itself, and the compare page following.
#include "guirunfixture.h"
#include "mainwindow.h"
#include "rowspanel.h"
#include "windowpages.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {

// Waits for the inspector to show the row, then checks that the four agree.
void checkAgreement(MainWindow& window, const ResultRow& clicked, const char* path)
{
    QSignalSpy detail(pageOf<SamplePage>(window), &SamplePage::detailAvailable);
    if (sampleInspector(window)->detail().sample.key != clicked.result.sampleKey)
        QVERIFY2(detail.wait(5000), path);
    const StoredResult& r = clicked.result;
    const QString config = ConfigChoice{r.compressor, r.ratio}.label();
    const SampleDetail& shown = sampleInspector(window)->detail();
    QCOMPARE(shown.sample.key, r.sampleKey);
    QCOMPARE(ConfigChoice(shown.compressor, shown.ratio).label(), config);
    auto* configs = window.findChild<QComboBox*>(QStringLiteral("FocusConfiguration"));
    auto* samples = window.findChild<QComboBox*>(QStringLiteral("FocusSample"));
    QTRY_COMPARE_WITH_TIMEOUT(configs->currentText(), config, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(samples->currentText(), r.sampleKey, 5000);
    QCOMPARE(window.currentPage(), pages::Sample);
    const QString line = window.selectionTitle();
    QVERIFY2(
        line.contains(QStringLiteral("configuration: %1 · sample: %2").arg(config, r.sampleKey)),
        qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(path), line)));
    // The session's focus, which every other page draws, is the row's.
    QCOMPARE(window.session()->request().sampleKey, r.sampleKey);
    QCOMPARE(window.runData().focus.label(), config);
    // The compare page follows the sample.
    QCOMPARE(comparePanel(window)->sample(), r.sampleKey);
}

// Selects the Rows dock's row `index` once the query delivered it; returns it.
ResultRow pickFromRowsDock(MainWindow& window, QSignalSpy& rows, int index)
{
    if (rows.isEmpty() && !rows.wait(5000))
        return {};
    RowsPanel* panel = window.rowsPanel();
    if (panel->model()->rowCount() <= index)
        return {};
    const ResultRow row = panel->model()->row(index);
    panel->selectRow(index);
    return row;
}

} // namespace

class TstDrillDown : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void everyPathAgrees()
    {
        const QString path = m_dir.filePath(QStringLiteral("drill.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));

        { // Taxonomy bar → Rows dock → inspector.
            QSignalSpy rows(&window, &MainWindow::rowsAvailable);
            pageOf<TaxonomyPage>(window)->showRows(
                {QStringLiteral("SnapKV"), 0.75, QStringLiteral("low_mapped_coverage"), 2});
            const ResultRow row = pickFromRowsDock(window, rows, 1);
            QVERIFY(!row.result.sampleKey.isEmpty());
            checkAgreement(window, row, "taxonomy");
        }
        { // Failure-set column → Rows dock → inspector (another configuration).
            window.showPage(pages::FailureSets);
            FailureSetsView* sets = failureSetsView(window);
            QVERIFY(sets->hasData());
            QSignalSpy rows(&window, &MainWindow::rowsAvailable);
            sets->selectColumn(0);
            const ResultRow row = pickFromRowsDock(window, rows, 0);
            QVERIFY(!row.result.sampleKey.isEmpty());
            checkAgreement(window, row, "failure sets");
        }
        { // Overlap cell → the pair's lists → inspector.
            window.showPage(pages::Overlap);
            const OverlapMatrix& m = pageOf<OverlapPage>(window)->view()->data();
            QVERIFY(m.names.size() >= 2);
            OverlapLists* lists = overlapLists(window);
            QSignalSpy listed(lists, &OverlapLists::listsAvailable);
            pageOf<OverlapPage>(window)->showPair({m.names[0], m.names[1]});
            QVERIFY(listed.wait(5000));
            OverlapLists::List list = OverlapLists::AOnly;
            for (auto l : {OverlapLists::AOnly, OverlapLists::Both, OverlapLists::BOnly})
                if (lists->model(l)->rowCount() > 0) {
                    list = l;
                    break;
                }
            QVERIFY(lists->model(list)->rowCount() > 0);
            const ResultRow row = lists->model(list)->row(0);
            lists->selectRow(list, 0);
            checkAgreement(window, row, "overlap");
        }
        { // The Rows dock again, after the focus moved elsewhere.
            window.session()->setFocusConfiguration(QStringLiteral("TOVA"), 0.5);
            QSignalSpy rows(&window, &MainWindow::rowsAvailable);
            pageOf<TaxonomyPage>(window)->showRows(
                {QStringLiteral("SnapKV"), 0.75, QStringLiteral("low_mapped_coverage"), 2});
            const ResultRow row = pickFromRowsDock(window, rows, 0);
            QVERIFY(!row.result.sampleKey.isEmpty());
            checkAgreement(window, row, "rows dock");
        }
    }

    void chainBreakPathAgrees()
    {
        const QString path = m_dir.filePath(QStringLiteral("chain.kvl"));
        guitest::writeChainRun(path);
        MainWindow window;
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(path);
        QVERIFY(loaded.wait(5000));
        const TaxonomyCounts& breaks = window.runData().chainBreaks;
        QVERIFY(!breaks.bars.isEmpty() && !breaks.signatures.isEmpty());
        QSignalSpy rows(&window, &MainWindow::rowsAvailable);
        // The first bar's first step with a row (TOVA@0.5 broke at link 1 and at the number,
        // guirunfixture.h).
        TaxonomySelection pick;
        for (const auto& bar : breaks.bars)
            for (int i = 0; i < bar.counts.size() && pick.compressor.isEmpty(); ++i)
                if (bar.counts[i] > 0)
                    pick = {bar.compressor, bar.ratio, breaks.signatures[i], bar.counts[i]};
        QVERIFY(!pick.compressor.isEmpty());
        pageOf<ChainBreaksPage>(window)->showRows(pick);
        const ResultRow row = pickFromRowsDock(window, rows, 0);
        QVERIFY2(!row.result.sampleKey.isEmpty(), qPrintable(breaks.signatures.join(',')));
        checkAgreement(window, row, "chain breaks");
    }

  private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TstDrillDown)
#include "tst_drilldown.moc"
