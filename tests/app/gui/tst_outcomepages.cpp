// The two outcome grids as pages of the window, on the hand run of
// tests/app/viewdata/outcomerunfixture.h (values worked out there): each page reads the
// run itself when the overview lands, the suite page's pair chooser recomputes the
// Jaccard panel, and both name the run in their provenance.
#include "mainwindow.h"
#include "outcomepages.h"
#include "outcomerunfixture.h"
#include "views/outcomegridview.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {

// The CSV line of `key` at `ratio`, split into fields.
QStringList csvLine(const QString& csv, const QString& key, const QString& ratio)
{
    for (const QString& line : csv.split(QLatin1Char('\n')))
        if (line.startsWith(key + QLatin1Char(',') + ratio + QLatin1Char(',')))
            return line.split(QLatin1Char(','));
    return {};
}

template <typename P> P* pageOf(const MainWindow& w)
{
    for (RunPage* page : w.runPages())
        if (auto* p = qobject_cast<P*>(page))
            return p;
    return nullptr;
}

} // namespace

class TstOutcomePages : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_run = m_dir.filePath(QStringLiteral("outcomes.kvl"));
        outcometest::writeOutcomeRun(m_run);
    }

    void pagesDrawTheRun()
    {
        MainWindow window;
        window.setRunStages(storeRunStages());
        auto* grid = pageOf<OutcomeGridPage>(window);
        auto* suites = pageOf<SuiteFailuresPage>(window);
        QVERIFY(grid && suites);
        QSignalSpy gridIn(grid, &OutcomeGridPage::gridAvailable);
        QSignalSpy suitesIn(suites, &SuiteFailuresPage::gridAvailable);
        window.openRun(m_run);
        QVERIFY(gridIn.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!suitesIn.isEmpty(), 10000);

        // SnapKV@0.5: scores 1, 0.5, 0, 1, 1, 0.25, 0 → 53.57 %; of the FullCache-correct
        // n0, n1, q0, q2 it fails n1 and q2 → C→W 2 of 4 = 50 %.
        QVERIFY(grid->view()->hasData());
        const QStringList snap =
            csvLine(grid->view()->csv(), QStringLiteral("SnapKV"), QStringLiteral("0.5"));
        QCOMPARE(snap.size(), 9);
        QVERIFY2(std::abs(snap[2].toDouble() - 100.0 * 3.75 / 7.0) < 1e-6, qPrintable(snap[2]));
        QCOMPARE(snap[3], QStringLiteral("7"));
        QVERIFY(std::abs(snap[5].toDouble() - 50.0) < 1e-9);
        QCOMPARE(snap[6], QStringLiteral("2"));
        QCOMPARE(snap[7], QStringLiteral("4"));
        // ThinK@0.75 is unsupported: missing, never 0.
        const QStringList think =
            csvLine(grid->view()->csv(), QStringLiteral("ThinK"), QStringLiteral("0.75"));
        QCOMPARE(think.value(2), QString());
        QVERIFY(!think.value(4).isEmpty());
        QCOMPARE(grid->view()->provenance().run,
                 window.runData().runName); // as every view of the run

        // Suites: SnapKV and TOVA by default; choosing ThinK recomputes the Jaccards.
        QCOMPARE(suites->pair(),
                 (CompressorPair{QStringLiteral("SnapKV"), QStringLiteral("TOVA")}));
        QVERIFY(suites->view()->hasData());
        QVERIFY(suites->view()->csv().contains(QStringLiteral(",SnapKV,TOVA,")));
        suites->pairChooser(1)->setCurrentIndex(
            suites->pairChooser(1)->findText(QStringLiteral("ThinK")));
        QCOMPARE(suites->pair(),
                 (CompressorPair{QStringLiteral("SnapKV"), QStringLiteral("ThinK")}));
        QVERIFY(suites->view()->csv().contains(QStringLiteral(",SnapKV,ThinK,")));
        // niah at 0.5: SnapKV fails n1, ThinK fails none of n0, n1 → Jaccard 0 of 1.
        const QStringList niah =
            csvLine(suites->view()->csv(), QStringLiteral("niah"), QStringLiteral("0.5"));
        QCOMPARE(niah.value(7).toDouble(), 0.0);
        QCOMPARE(niah.value(10), QStringLiteral("1"));
        QCOMPARE(niah.value(11), QStringLiteral("0"));

        // A re-read (a sweep committing rows) keeps the chosen pair.
        QSignalSpy again(suites, &SuiteFailuresPage::gridAvailable);
        window.session()->refresh();
        QVERIFY(again.wait(10000));
        QCOMPARE(suites->pair().b, QStringLiteral("ThinK"));

        window.closeRun();
        QVERIFY(!grid->view()->hasData());
        QVERIFY(!suites->view()->hasData());
        QCOMPARE(suites->pairChooser(0)->count(), 0);
    }

    void syntheticDataWithoutAFileStaysEmpty()
    {
        // showRun without a file (tests, benchmark): nothing to read, nothing drawn.
        MainWindow window;
        RunViewData d;
        d.path = m_dir.filePath(QStringLiteral("not-there.kvl"));
        window.showRun(d);
        QVERIFY(!pageOf<OutcomeGridPage>(window)->view()->hasData());
    }

  private:
    QTemporaryDir m_dir;
    QString m_run;
};

QTEST_MAIN(TstOutcomePages)
#include "tst_outcomepages.moc"
