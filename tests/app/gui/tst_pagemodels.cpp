// QAbstractItemModelTester on every item model the pages use, attached before a run is
// opened so that it checks each reset and change as the window drives them: the Rows
// dock's rows, the overlap page's three lists, the compare-runs page's delta table.
#include "guirunfixture.h"
#include "mainwindow.h"
#include "rowspanel.h"
#include "views/accuracydeltamodel.h"
#include "windowpages.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TstPageModels : public QObject
{
    Q_OBJECT
  private slots:
    void modelsStayConsistent()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.kvl"));
        const QString b = dir.filePath(QStringLiteral("b.kvl"));
        guitest::writeRun(a, {0, 1, 2, 3});
        guitest::writeRun(b, {0, 1, 2});
        MainWindow window;
        window.setRunStages(storeRunStages());
        const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
        QAbstractItemModelTester rows(window.rowsPanel()->model(), mode);
        OverlapLists* lists = overlapLists(window);
        QAbstractItemModelTester aOnly(lists->model(OverlapLists::AOnly), mode);
        QAbstractItemModelTester both(lists->model(OverlapLists::Both), mode);
        QAbstractItemModelTester bOnly(lists->model(OverlapLists::BOnly), mode);
        QAbstractItemModelTester delta(runComparePanel(window)->deltaModel(), mode);

        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(a);
        QVERIFY(loaded.wait(5000));
        QSignalSpy rowsIn(&window, &MainWindow::rowsAvailable);
        pageOf<TaxonomyPage>(window)->showRows(
            {QStringLiteral("SnapKV"), 0.75, QStringLiteral("low_mapped_coverage"), 2});
        QVERIFY(rowsIn.wait(5000));
        QVERIFY(window.rowsPanel()->model()->rowCount() > 0);
        const OverlapMatrix& m = pageOf<OverlapPage>(window)->view()->data();
        QVERIFY(m.names.size() >= 2);
        QSignalSpy listed(lists, &OverlapLists::listsAvailable);
        pageOf<OverlapPage>(window)->showPair({m.names[0], m.names[1]});
        QVERIFY(listed.wait(5000));
        QSignalSpy compared(runComparePanel(window), &RunComparePanel::comparisonAvailable);
        window.openRun(b);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!compared.isEmpty(), 5000);
        QVERIFY(runComparePanel(window)->deltaModel()->rowCount() > 0);
        window.closeRun(); // resets every model
        QCOMPARE(window.rowsPanel()->model()->rowCount(), 0);
        QCOMPARE(lists->model(OverlapLists::Both)->rowCount(), 0);
    }
};

QTEST_MAIN(TstPageModels)
#include "tst_pagemodels.moc"
