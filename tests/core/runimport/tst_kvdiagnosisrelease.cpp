// The shared copy of the KVDiagnosis release (../shared/data/kvdiagnosis-release: real
// Qwen3-8B results), imported whole and checked against the release's own tables and a
// handful of the paper's figures (paper_artifacts/generated/full_evaluation_results.csv of
// ChosenQC/KVDiagnosis). docs/kvdiagnosis-release.md records the full comparison.
// Skipped where the shared copy is absent (a checkout without ../shared).
#include "runimport/pressnames.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"
#include "store/runreader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>

using namespace kvl;

namespace {
QString releaseRoot()
{
    return QDir::cleanPath(QStringLiteral(KVLENS_SOURCE_DIR "/../shared/data/kvdiagnosis-release"));
}

// The release's tables name datasets for display.
QString suiteOfDisplay(const QString& display)
{
    static const std::map<QString, QString> names = {
        {QStringLiteral("HotpotQA"), QStringLiteral("hotpotqa")},
        {QStringLiteral("Qasper"), QStringLiteral("qasper")},
        {QStringLiteral("RULER-8K"), QStringLiteral("ruler8k")},
        {QStringLiteral("RULER-16K"), QStringLiteral("ruler16k")}};
    const auto it = names.find(display);
    return it == names.end() ? display : it->second;
}

QString pressOf(const QString& method)
{
    const QString name = kvlensPressName(method);
    return name.isEmpty() ? method : name;
}

// A config key as the import writes it, from the release's method and retained budget.
QString cellKey(const QString& method, double budget)
{
    return QStringLiteral("%1@%2").arg(pressOf(method)).arg(1.0 - budget, 0, 'g', 6);
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}
} // namespace

class TestKvDiagnosisRelease : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;
    ImportedRun m_imported;

  private slots:
    void initTestCase()
    {
        if (!QFileInfo(releaseRoot() + QStringLiteral("/data/processed/full_population")).isDir())
            QSKIP(qPrintable(QStringLiteral("no shared copy of the release at %1").arg(releaseRoot())));
        m_imported = importKvDiagnosisRelease({releaseRoot()});
        m_run = m_dir.filePath(QStringLiteral("kvdiagnosis.kvl"));
        writeImportedRun(m_imported, m_run, QStringLiteral("test"));
    }

    // summary.json: sources, planned and unsupported runs, C->W rows per dataset.
    void countsMatchTheReleaseSummary()
    {
        const QJsonObject summary =
            QJsonDocument::fromJson(readSourceFile(releaseRoot() + QStringLiteral(
                                                       "/data/processed/full_population/summary.json")))
                .object();
        const QJsonObject ours = m_imported.details.value(QStringLiteral("datasets")).toObject();
        const QJsonObject theirs = summary.value(QStringLiteral("datasets")).toObject();
        QCOMPARE(ours.keys(), theirs.keys());
        for (const QString& d : theirs.keys())
            for (const char* field : {"sources", "planned_runs", "unsupported_runs", "C_to_W_rows"})
                QCOMPARE(ours.value(d).toObject().value(QLatin1String(field)).toInt(),
                         theirs.value(d).toObject().value(QLatin1String(field)).toInt());
        RunReader reader(m_run);
        QCOMPARE(reader.sampleCount(), qint64(summary.value(QStringLiteral("source_count")).toInt()));
        // Every supported run plus one FullCache row per source.
        QCOMPARE(reader.resultCount(),
                 qint64(summary.value(QStringLiteral("supported_compressed_runs")).toInt() +
                        summary.value(QStringLiteral("source_count")).toInt()));
        // KVLens's signature rules agree with every signature the release gives.
        const QJsonObject check = m_imported.details.value(QStringLiteral("signature_check")).toObject();
        QCOMPARE(check.value(QStringLiteral("rows")).toInt(), 1154);
        QCOMPARE(check.value(QStringLiteral("agree")).toInt(), 1154);
    }

    // full_evaluation_results.csv of the paper: FullCache per dataset, SnapKV per dataset
    // and budget (binary accuracy and task score in percent, C->W rows).
    void paperFigures_data()
    {
        QTest::addColumn<QString>("suite");
        QTest::addColumn<QString>("config");
        QTest::addColumn<double>("accuracy");
        QTest::addColumn<double>("taskScore");
        QTest::addColumn<int>("correctToWrong"); // -1: FullCache
        QTest::newRow("ruler8k FullCache") << "ruler8k" << "FullCache@0" << 88.0 << 97.05757575757576 << -1;
        QTest::newRow("ruler16k FullCache") << "ruler16k" << "FullCache@0" << 86.45454545454545 << 96.80151515151515 << -1;
        QTest::newRow("qasper FullCache") << "qasper" << "FullCache@0" << 29.5 << 29.5 << -1;
        QTest::newRow("hotpotqa FullCache") << "hotpotqa" << "FullCache@0" << 74.0 << 74.0 << -1;
        QTest::newRow("ruler8k SnapKV 0.75") << "ruler8k" << "snapkv@0.25" << 87.18181818181819 << 96.60606060606062 << 24;
        QTest::newRow("ruler8k SnapKV 0.5") << "ruler8k" << "snapkv@0.5" << 79.72727272727272 << 90.78333333333333 << 111;
        QTest::newRow("ruler8k SnapKV 0.25") << "ruler8k" << "snapkv@0.75" << 66.9090909090909 << 82.9030303030303 << 246;
        QTest::newRow("ruler16k SnapKV 0.75") << "ruler16k" << "snapkv@0.25" << 86.0909090909091 << 96.76060606060605 << 13;
        QTest::newRow("ruler16k SnapKV 0.5") << "ruler16k" << "snapkv@0.5" << 84.0909090909091 << 95.26969696969697 << 34;
        QTest::newRow("ruler16k SnapKV 0.25") << "ruler16k" << "snapkv@0.75" << 72.36363636363636 << 86.27121212121213 << 160;
        QTest::newRow("qasper SnapKV 0.75") << "qasper" << "snapkv@0.25" << 31.5 << 31.5 << 1;
        QTest::newRow("qasper SnapKV 0.5") << "qasper" << "snapkv@0.5" << 27.500000000000004 << 27.500000000000004 << 5;
        QTest::newRow("qasper SnapKV 0.25") << "qasper" << "snapkv@0.75" << 27.500000000000004 << 27.500000000000004 << 7;
        QTest::newRow("hotpotqa SnapKV 0.75") << "hotpotqa" << "snapkv@0.25" << 71.5 << 71.5 << 5;
        QTest::newRow("hotpotqa SnapKV 0.5") << "hotpotqa" << "snapkv@0.5" << 69.0 << 69.0 << 10;
        QTest::newRow("hotpotqa SnapKV 0.25") << "hotpotqa" << "snapkv@0.75" << 63.0 << 63.0 << 22;
        QTest::newRow("ruler8k ThinK 0.5") << "ruler8k" << "think@0.5" << 0.0 << 0.0 << 968;
    }

    void paperFigures()
    {
        QFETCH(QString, suite);
        QFETCH(QString, config);
        QFETCH(double, accuracy);
        QFETCH(double, taskScore);
        QFETCH(int, correctToWrong);
        RunReader reader(m_run);
        reader.restrictToSuite(suite);
        bool found = false;
        for (const AccuracyCell& c : reader.accuracy()) {
            if (QStringLiteral("%1@%2").arg(c.compressor).arg(c.ratio, 0, 'g', 6) != config)
                continue;
            found = true;
            QVERIFY2(near(100.0 * c.accuracy, accuracy), qPrintable(QString::number(100.0 * c.accuracy, 'g', 17)));
            QVERIFY(c.meanScore);
            QVERIFY2(near(100.0 * *c.meanScore, taskScore), qPrintable(QString::number(100.0 * *c.meanScore, 'g', 17)));
        }
        QVERIFY(found);
        if (correctToWrong < 0)
            return;
        for (const TransitionCounts& t : reader.transitions())
            if (QStringLiteral("%1@%2").arg(t.compressor).arg(t.ratio, 0, 'g', 6) == config)
                QCOMPARE(t.correctToWrong, qint64(correctToWrong));
    }

    // failure_signatures_by_dataset_method_budget.csv: every cell's C->W rows, and where
    // the copy holds the diagnosed rows (hotpotqa, qasper), every signature count.
    void signatureCountsMatchTheReleaseTable()
    {
        const CsvTable table = parseCsvTable(
            readSourceFile(releaseRoot() +
                           QStringLiteral("/data/summaries/failure_signatures_by_dataset_method_budget.csv")),
            QStringLiteral("failure_signatures_by_dataset_method_budget.csv"));
        QVERIFY(table.rows.size() >= 90);
        std::map<QString, std::unique_ptr<RunReader>> readers;
        int cells = 0, signatureCells = 0;
        for (const QStringList& row : table.rows) {
            const QString suite = row[table.column(QStringLiteral("dataset"))];
            auto& reader = readers[suite];
            if (!reader) {
                reader = std::make_unique<RunReader>(m_run);
                reader->restrictToSuite(suite);
            }
            const QString key = cellKey(row[table.column(QStringLiteral("method_name"))],
                                        row[table.column(QStringLiteral("retained_budget"))].toDouble());
            const qint64 failures = row[table.column(QStringLiteral("failure_rows"))].toLongLong();
            qint64 ours = 0;
            for (const TransitionCounts& t : reader->transitions())
                if (QStringLiteral("%1@%2").arg(t.compressor).arg(t.ratio, 0, 'g', 6) == key)
                    ours = t.correctToWrong;
            QVERIFY2(ours == failures, qPrintable(QStringLiteral("%1 %2: %3 vs %4").arg(suite, key).arg(ours).arg(failures)));
            ++cells;
            if (suite != QLatin1String("hotpotqa") && suite != QLatin1String("qasper"))
                continue; // their diagnosed rows are not in the shared copy
            std::map<QString, qint64> counts;
            for (const SignatureCount& s : reader->signatures())
                if (QStringLiteral("%1@%2").arg(s.compressor).arg(s.ratio, 0, 'g', 6) == key)
                    counts[s.signature] = s.count;
            for (int c = table.column(QStringLiteral("low_mapped_coverage")); c < table.header.size(); ++c)
                QVERIFY2(counts[table.header[c]] == row[c].toLongLong(),
                         qPrintable(QStringLiteral("%1 %2 %3").arg(suite, key, table.header[c])));
            ++signatureCells;
        }
        QCOMPARE(cells, 90);
        // The release lists the cells with at least one C->W row: 46 of RULER, 44 of the QA sets.
        QCOMPARE(signatureCells, 44);
    }

    // matched_method_pair_summary.csv: each pair's failure-set intersection and union.
    void failureOverlapsMatchTheReleaseTable()
    {
        const CsvTable table = parseCsvTable(
            readSourceFile(releaseRoot() + QStringLiteral("/data/summaries/matched_method_pair_summary.csv")),
            QStringLiteral("matched_method_pair_summary.csv"));
        std::map<QString, std::vector<OverlapCell>> overlaps;
        for (const QString& suite : {QStringLiteral("hotpotqa"), QStringLiteral("qasper"),
                                     QStringLiteral("ruler8k"), QStringLiteral("ruler16k")}) {
            RunReader reader(m_run);
            reader.restrictToSuite(suite);
            overlaps[suite] = reader.failureOverlaps();
        }
        int checked = 0;
        for (const QStringList& row : table.rows) {
            const QString suite = suiteOfDisplay(row[table.column(QStringLiteral("dataset"))]);
            const double ratio = 1.0 - row[table.column(QStringLiteral("retained_budget"))].toDouble();
            QString a = pressOf(row[table.column(QStringLiteral("method_left"))]);
            QString b = pressOf(row[table.column(QStringLiteral("method_right"))]);
            if (b < a)
                std::swap(a, b);
            bool found = false;
            for (const OverlapCell& o : overlaps[suite]) {
                if (o.a != a || o.b != b || !near(o.ratio, ratio))
                    continue;
                found = true;
                QCOMPARE(o.both, row[table.column(QStringLiteral("intersection"))].toLongLong());
                QCOMPARE(o.aOnly + o.bOnly + o.both, row[table.column(QStringLiteral("union"))].toLongLong());
            }
            QVERIFY2(found, qPrintable(QStringLiteral("%1 %2 %3 %4").arg(suite, a, b).arg(ratio)));
            ++checked;
        }
        QCOMPARE(checked, 286);
    }
};

QTEST_GUILESS_MAIN(TestKvDiagnosisRelease)
#include "tst_kvdiagnosisrelease.moc"
