// The outcome grids (app/viewdata/outcomegrids.h) of the hand-made run of
// outcomerunfixture.h, every value and count worked out by hand from its table.
#include "outcomegrids.h"
#include "outcomerunfixture.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {
bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}
} // namespace

class TstOutcomeGrids : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;
    RunOutcomes m_outcomes;

  private slots:
    void initTestCase()
    {
        m_run = m_dir.filePath(QStringLiteral("outcomes.kvl"));
        outcometest::writeOutcomeRun(m_run);
        m_outcomes = loadRunOutcomes(m_run);
    }

    void runOrder()
    {
        // The run's order: compressors by name (binary: "TOVA" < "ThinK"), ratios ascending.
        QCOMPARE(m_outcomes.compressors,
                 QStringList(
                     {QStringLiteral("SnapKV"), QStringLiteral("TOVA"), QStringLiteral("ThinK")}));
        QCOMPARE(m_outcomes.ratios, QVector<double>({0.5, 0.75}));
        QCOMPARE(m_outcomes.configurations.size(), std::size_t(6));
    }

    void outcomeGrid_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<double>("score");
        QTest::addColumn<qint64>("scored");
        QTest::addColumn<double>("rate");
        QTest::addColumn<qint64>("failures");
        QTest::addColumn<qint64>("pairs");
        // FullCache-correct samples: n0, n1, q0, q2.
        // SnapKV@0.5: scores 1 .5 0 1 1 .25 0 = 3.75 of 7; C→W n1, q2.
        QTest::newRow("SnapKV 0.5")
            << 0 << 0 << 100 * 3.75 / 7 << qint64(7) << 50.0 << qint64(2) << qint64(4);
        // SnapKV@0.75: 0 0 0 .5 0 1 0 = 1.5 of 7; C→W n0, n1, q0.
        QTest::newRow("SnapKV 0.75")
            << 0 << 1 << 100 * 1.5 / 7 << qint64(7) << 75.0 << qint64(3) << qint64(4);
        // TOVA@0.5: q2 has no score: 1 of 6; C→W n0, q0, q2.
        QTest::newRow("TOVA 0.5") << 1 << 0 << 100 / 6.0 << qint64(6) << 75.0 << qint64(3)
                                  << qint64(4);
        // TOVA@0.75: 3 of 7; C→W n0, n1.
        QTest::newRow("TOVA 0.75")
            << 1 << 1 << 300 / 7.0 << qint64(7) << 50.0 << qint64(2) << qint64(4);
        // ThinK@0.5: rows of niah only (failed elsewhere): 2 of 3; no C→W of n0, n1.
        QTest::newRow("ThinK 0.5")
            << 2 << 0 << 200 / 3.0 << qint64(3) << 0.0 << qint64(0) << qint64(2);
    }
    void outcomeGrid()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(double, score);
        QFETCH(qint64, scored);
        QFETCH(double, rate);
        QFETCH(qint64, failures);
        QFETCH(qint64, pairs);
        const OutcomeGrid grid = kvl::outcomeGrid(m_outcomes);
        QCOMPARE(grid.cells.size(), 6);
        const OutcomeCell& c = grid.at(row, column);
        QCOMPARE(c.missing, CellMissing::None);
        QVERIFY2(near(c.meanScorePercent, score), qPrintable(QString::number(c.meanScorePercent)));
        QCOMPARE(c.scoredRows, scored);
        QVERIFY2(near(c.correctToWrongPercent, rate),
                 qPrintable(QString::number(c.correctToWrongPercent)));
        QCOMPARE(c.correctToWrongRows, failures);
        QCOMPARE(c.fullCacheCorrectPairs, pairs);
    }

    void unsupportedCellIsMissingNotZero()
    {
        const OutcomeGrid grid = kvl::outcomeGrid(m_outcomes);
        const OutcomeCell& c = grid.at(2, 1); // ThinK@0.75
        QCOMPARE(c.missing, CellMissing::Unsupported);
        QVERIFY(std::isnan(c.meanScorePercent));
        QVERIFY(std::isnan(c.correctToWrongPercent));
        QCOMPARE(c.rows, qint64(0));
        QCOMPARE(c.fullCacheCorrectPairs, qint64(0));
        QVERIFY2(c.missingReason.contains(outcometest::kThinkUnsupported),
                 qPrintable(c.missingReason));
        const GridPanels panels = outcomePanels(grid);
        QVERIFY(panels.isValid());
        QVERIFY(std::isnan(panels.left.cells[panels.index(2, 1)].value));
        QVERIFY(panels.right.cells[panels.index(2, 1)].missingReason.startsWith(
            QLatin1String("unsupported")));
    }

    void missingReasons()
    {
        RunOutcomes o = m_outcomes;
        o.missing.clear();
        // Configured without rows, and not configured at all.
        QCOMPARE(kvl::outcomeGrid(o).at(2, 1).missing, CellMissing::NoRows);
        o.configurations.pop_back();
        QCOMPARE(kvl::outcomeGrid(o).at(2, 1).missing, CellMissing::NotInRun);
        o.missing.push_back({QStringLiteral("ThinK"), 0.75, QStringLiteral("crashed"), 7, false});
        const OutcomeCell failed = kvl::outcomeGrid(o).at(2, 1);
        QCOMPARE(failed.missing, CellMissing::Failed);
        QVERIFY(failed.missingReason.contains(QLatin1String("crashed")));
    }

    void defaultPair()
    {
        QCOMPARE(defaultFailurePair(m_outcomes.compressors),
                 (CompressorPair{QStringLiteral("SnapKV"), QStringLiteral("TOVA")}));
        QCOMPARE(defaultFailurePair(
                     {QStringLiteral("tova"), QStringLiteral("adakv"), QStringLiteral("snapkv")}),
                 (CompressorPair{QStringLiteral("snapkv"), QStringLiteral("tova")}));
        QCOMPARE(defaultFailurePair(
                     {QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("snapkv")}),
                 (CompressorPair{QStringLiteral("b"), QStringLiteral("a")}));
        QVERIFY(!defaultFailurePair({QStringLiteral("a")}).isValid());
    }

    void suiteGrid_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<double>("meanRate"); // NaN: missing
        QTest::addColumn<int>("rated");
        QTest::addColumn<qint64>("failures");
        QTest::addColumn<qint64>("pairs");
        QTest::addColumn<double>("jaccard"); // NaN: missing
        QTest::addColumn<qint64>("a");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<qint64>("both");
        const double nan = std::nan("");
        // math: no FullCache-correct sample, no C→W row.
        QTest::newRow("math 0.5") << 0 << 0 << nan << 0 << qint64(0) << qint64(0) << nan
                                  << qint64(0) << qint64(0) << qint64(0);
        QTest::newRow("math 0.75") << 0 << 1 << nan << 0 << qint64(0) << qint64(0) << nan
                                   << qint64(0) << qint64(0) << qint64(0);
        // niah 0.5: SnapKV {n1} 50 %, TOVA {n0} 50 %, ThinK {} 0 % of n0, n1.
        QTest::newRow("niah 0.5") << 1 << 0 << 100 / 3.0 << 3 << qint64(2) << qint64(6) << 0.0
                                  << qint64(1) << qint64(1) << qint64(0);
        // niah 0.75: both {n0, n1}; ThinK has no row.
        QTest::newRow("niah 0.75") << 1 << 1 << 100.0 << 2 << qint64(4) << qint64(4) << 1.0
                                   << qint64(2) << qint64(2) << qint64(2);
        // qa 0.5: SnapKV {q2} 50 %, TOVA {q0, q2} 100 % of q0, q2.
        QTest::newRow("qa 0.5") << 2 << 0 << 75.0 << 2 << qint64(3) << qint64(4) << 0.5 << qint64(1)
                                << qint64(2) << qint64(1);
        // qa 0.75: SnapKV {q0} 50 %, TOVA {} 0 %.
        QTest::newRow("qa 0.75") << 2 << 1 << 25.0 << 2 << qint64(1) << qint64(4) << 0.0
                                 << qint64(1) << qint64(0) << qint64(0);
    }
    void suiteGrid()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(double, meanRate);
        QFETCH(int, rated);
        QFETCH(qint64, failures);
        QFETCH(qint64, pairs);
        QFETCH(double, jaccard);
        QFETCH(qint64, a);
        QFETCH(qint64, b);
        QFETCH(qint64, both);
        const SuiteFailureGrid grid = suiteFailureGrid(m_outcomes);
        QCOMPARE(grid.suites, QStringList({QStringLiteral("math"), QStringLiteral("niah"),
                                           QStringLiteral("qa")}));
        QCOMPARE(grid.pair, (CompressorPair{QStringLiteral("SnapKV"), QStringLiteral("TOVA")}));
        const SuiteFailureCell& c = grid.at(row, column);
        if (std::isnan(meanRate)) {
            QVERIFY(std::isnan(c.meanCorrectToWrongPercent));
            QCOMPARE(c.rateMissing, QStringLiteral("no FullCache-correct pairs"));
        } else {
            QVERIFY2(near(c.meanCorrectToWrongPercent, meanRate),
                     qPrintable(QString::number(c.meanCorrectToWrongPercent)));
            QVERIFY(c.rateMissing.isEmpty());
        }
        QCOMPARE(c.compressorsRated, rated);
        QCOMPARE(c.correctToWrongRows, failures);
        QCOMPARE(c.fullCacheCorrectPairs, pairs);
        if (std::isnan(jaccard)) {
            QVERIFY(std::isnan(c.jaccard));
            QCOMPARE(c.jaccardMissing,
                     QStringLiteral("neither SnapKV nor TOVA fails a sample here"));
        } else {
            QVERIFY2(near(c.jaccard, jaccard), qPrintable(QString::number(c.jaccard)));
        }
        QCOMPARE(c.aFailures, a);
        QCOMPARE(c.bFailures, b);
        QCOMPARE(c.bothFailures, both);
    }

    // A pair with a compressor that has no rows in a suite: no Jaccard there, saying why.
    void pairWithoutRows()
    {
        const SuiteFailureGrid grid =
            suiteFailureGrid(m_outcomes, {QStringLiteral("SnapKV"), QStringLiteral("ThinK")});
        const SuiteFailureCell& qa = grid.at(2, 0);
        QVERIFY(std::isnan(qa.jaccard));
        QCOMPARE(qa.jaccardMissing, QStringLiteral("ThinK has no rows here"));
        QCOMPARE(qa.aFailures, qint64(1));
        // niah 0.5: SnapKV {n1}, ThinK {}: 0 of 1.
        QCOMPARE(grid.at(1, 0).jaccard, 0.0);
        QVERIFY(suiteFailurePanels(grid).right.title.contains(QLatin1String("SnapKV vs ThinK")));
    }

    void panels()
    {
        const GridPanels outcomes = outcomePanels(kvl::outcomeGrid(m_outcomes));
        QVERIFY(outcomes.isValid());
        QCOMPARE(outcomes.rows, m_outcomes.compressors);
        QCOMPARE(outcomes.left.maximum, 100.0);
        QCOMPARE(outcomes.right.cells[outcomes.index(1, 0)].counts, QVector<qint64>({3, 4}));
        QCOMPARE(outcomes.left.cells[outcomes.index(1, 0)].counts, QVector<qint64>({6}));
        const GridPanels suites = suiteFailurePanels(suiteFailureGrid(m_outcomes));
        QVERIFY(suites.isValid());
        QCOMPARE(suites.right.maximum, 1.0);
        QCOMPARE(suites.right.decimals, 2);
        QCOMPARE(suites.right.title, QStringLiteral("Failure-set Jaccard: SnapKV vs TOVA"));
        QCOMPARE(suites.left.cells[suites.index(2, 0)].counts, QVector<qint64>({2, 3, 4}));
    }

    // A run with FullCache rows only: nothing to tabulate.
    void fullCacheOnly()
    {
        const QString path = m_dir.filePath(QStringLiteral("full.kvl"));
        {
            RunWriter w(path);
            w.setRunInfo(test::runInfo());
            w.addConfig(test::config(kFullCacheCompressor, 0.0));
            SampleRecord rec;
            rec.sample.key = QStringLiteral("s0");
            ResultRecord r;
            r.configKey = ConfigRecord::makeKey(kFullCacheCompressor, 0.0);
            rec.results.push_back(r);
            w.writeSample(rec);
        }
        const RunOutcomes o = loadRunOutcomes(path);
        QVERIFY(kvl::outcomeGrid(o).isEmpty());
        QVERIFY(suiteFailureGrid(o).isEmpty());
        QVERIFY(outcomePanels(kvl::outcomeGrid(o)).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstOutcomeGrids)
#include "tst_outcomegrids.moc"
