// import-run's formats on hand-made sources: the KVDiagnosis release's layout
// (tests/data/runimport/kvdiagnosis, made by make_kvdiagnosis_fixture.py) and plain result
// rows (tests/data/runimport/rows), each row worked out by hand; every bad input the
// issue names; the written run read back, whole and per suite.
#include "common/error.h"
#include "runimport/pressnames.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"
#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/runreport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

using namespace kvl;

namespace {
const QString kData = QStringLiteral(KVLENS_TEST_DATA "/runimport");

const SampleRecord& sampleNamed(const ImportedRun& run, const QString& key)
{
    for (const SampleRecord& s : run.samples)
        if (s.sample.key == key)
            return s;
    throw Error(QStringLiteral("no sample %1").arg(key));
}

const ResultRecord& rowOf(const SampleRecord& s, const QString& configKey)
{
    for (const ResultRecord& r : s.results)
        if (r.configKey == configKey)
            return r;
    throw Error(QStringLiteral("no row %1 in %2").arg(configKey, s.sample.key));
}

bool hasRow(const SampleRecord& s, const QString& configKey)
{
    return std::any_of(s.results.begin(), s.results.end(),
                       [&](const ResultRecord& r) { return r.configKey == configKey; });
}

// Copies a folder tree (the fixture release) so a test can damage one file.
void copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    const QDir src(from);
    for (const QFileInfo& fi : src.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = QDir(to).filePath(fi.fileName());
        if (fi.isDir())
            copyTree(fi.filePath(), target);
        else
            QVERIFY(QFile::copy(fi.filePath(), target));
    }
}

QString errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.message();
    }
    return QString();
}

void verifyNames(const QString& message, const QStringList& needles)
{
    QVERIFY2(!message.isEmpty(), "no error");
    for (const QString& n : needles)
        QVERIFY2(message.contains(n), qPrintable(QStringLiteral("'%1' lacks '%2'").arg(message, n)));
}
} // namespace

class TestRunImport : public QObject
{
    Q_OBJECT

  private slots:
    void formatsAreListed()
    {
        QStringList names;
        for (const RunImportFormat& f : runImportFormats())
            names << QLatin1String(f.name);
        QCOMPARE(names, (QStringList{"kvdiagnosis", "kvpress", "rows"}));
        QVERIFY(findRunImportFormat(QStringLiteral("rows")));
        QVERIFY(!findRunImportFormat(QStringLiteral("csv")));
    }

    void pressNames_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("kvlens");
        // KVDiagnosis's eight methods and kvpress registry keys.
        QTest::newRow("SnapKVPress") << "SnapKVPress" << "snapkv";
        QTest::newRow("StreamingLLMPress") << "StreamingLLMPress" << "streamingllm";
        QTest::newRow("ChunkKVPress_Knorm") << "ChunkKVPress_Knorm" << "chunkkv";
        QTest::newRow("QuantizedCache") << "QuantizedCache" << "quantized";
        QTest::newRow("ThinKPress") << "ThinKPress" << "think";
        QTest::newRow("AdaKVPress") << "AdaKVPress" << "adakv";
        QTest::newRow("streaming_llm") << "streaming_llm" << "streamingllm";
        QTest::newRow("observed_attention") << "observed_attention" << "observed";
        QTest::newRow("unknown") << "my_press" << "";
    }

    void pressNames()
    {
        QFETCH(QString, source);
        QFETCH(QString, kvlens);
        QCOMPARE(kvlensPressName(source), kvlens);
    }

    void kvdiagnosisRows()
    {
        const ImportedRun run = importKvDiagnosisRelease({kData + QStringLiteral("/kvdiagnosis")});
        QCOMPARE(run.format, QStringLiteral("kvdiagnosis"));
        QCOMPARE(run.modelId, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(run.modelRevision, QStringLiteral("b968826d9c46dd6066d109eabc6255188de91218"));
        QStringList keys;
        for (const ConfigRecord& c : run.configs)
            keys << c.key;
        // Method names become KVLens's press names; the ratio is the fraction removed.
        QCOMPARE(keys, (QStringList{"FullCache@0", "snapkv@0.25", "snapkv@0.75", "think@0.25",
                                    "think@0.75"}));
        QCOMPARE(run.configs[2].params.value(QStringLiteral("source_name")).toString(),
                 QStringLiteral("SnapKVPress"));
        QCOMPARE(run.configs[2].params.value(QStringLiteral("retained_budget")).toDouble(), 0.25);
        QCOMPARE(run.samples.size(), size_t(3));

        const SampleRecord& h0 = sampleNamed(run, QStringLiteral("hotpotqa::hotpotqa_000000"));
        QCOMPARE(h0.sample.suite, QStringLiteral("hotpotqa"));
        QCOMPARE(h0.sample.sourceId, QStringLiteral("hotpotqa_000000"));
        QCOMPARE(h0.sample.contextLen, 1200);
        QCOMPARE(h0.sample.gold, QStringLiteral("Paris"));
        QCOMPARE(h0.results.size(), size_t(4)); // FullCache, snapkv x2, think@0.25
        QCOMPARE(h0.results.front().configKey, QStringLiteral("FullCache@0"));
        QVERIFY(h0.results.front().correct);
        QCOMPARE(h0.results.front().score, std::optional<double>(1.0));
        QVERIFY(!h0.results.front().transition);

        const ResultRecord& kept = rowOf(h0, QStringLiteral("snapkv@0.25"));
        QCOMPARE(kept.transition, std::optional(Transition::CorrectToCorrect));
        QCOMPARE(kept.metrics.deltaNll, std::optional<double>(0.01));
        QCOMPARE(kept.metrics.gpr, std::optional<double>(0.99));
        QVERIFY(!kept.metrics.ecovSlot); // only diagnosed rows carry coverage
        QVERIFY(!kept.signature);

        // The diagnosed C->W row: its diagnostics and the release's signature joined.
        const ResultRecord& failed = rowOf(h0, QStringLiteral("snapkv@0.75"));
        QCOMPARE(failed.transition, std::optional(Transition::CorrectToWrong));
        QCOMPARE(failed.answer, QStringLiteral("Lyon"));
        QCOMPARE(failed.metrics.ecovSlot, std::optional<double>(0.3));
        QCOMPARE(failed.metrics.errSlot, std::optional<double>(0.2));
        QCOMPARE(failed.metrics.deltaNll, std::optional<double>(2.5));
        QVERIFY(!failed.metrics.kl); // null stays missing, never 0
        QVERIFY(!failed.metrics.ear);
        QCOMPARE(failed.metrics.coverageType, std::optional(CoverageType::MeasuredTokenCoverage));
        QCOMPARE(failed.signature, std::optional(Signature::LowMappedCoverage));
        QCOMPARE(failed.extra.value(QStringLiteral("primitive_flags")).toArray().size(), 1);

        // A supported run with nulls keeps them null.
        const ResultRecord& think = rowOf(h0, QStringLiteral("think@0.25"));
        QVERIFY(!think.metrics.deltaNll);
        QVERIFY(!think.metrics.gpr);
        // The unsupported cell is recorded as such, with the release's reason, and has no row.
        QVERIFY(!hasRow(h0, QStringLiteral("think@0.75")));
        QVERIFY(h0.sample.meta.value(kUnsupportedConfigs)
                    .toObject()
                    .value(QStringLiteral("think@0.75"))
                    .toString()
                    .contains(QLatin1String("N/A: ThinKPress")));

        const SampleRecord& h1 = sampleNamed(run, QStringLiteral("hotpotqa::hotpotqa_000001"));
        QCOMPARE(rowOf(h1, QStringLiteral("snapkv@0.25")).transition,
                 std::optional(Transition::WrongToCorrect));
        QCOMPARE(rowOf(h1, QStringLiteral("snapkv@0.75")).transition,
                 std::optional(Transition::WrongToWrong));

        // Several reference answers stay a list.
        const SampleRecord& n0 = sampleNamed(run, QStringLiteral("ruler8k::niah_multivalue_000000"));
        QCOMPARE(n0.sample.gold, QStringLiteral("[\"1234\",\"5678\"]"));
        const ResultRecord& undiagnosed = rowOf(n0, QStringLiteral("snapkv@0.75"));
        QCOMPARE(undiagnosed.transition, std::optional(Transition::CorrectToWrong));
        QVERIFY(!undiagnosed.signature); // ruler8k's diagnostics are not in the source
        QCOMPARE(undiagnosed.metrics.deltaNll, std::optional<double>(1.2));

        // What the copy lacks is said; KVLens's rules agree with the release's signature.
        QCOMPARE(run.missing.size(), 1);
        QVERIFY2(run.missing[0].contains(QLatin1String("ruler8k")) &&
                     run.missing[0].contains(QLatin1String("1 C->W")),
                 qPrintable(run.missing[0]));
        const QJsonObject check = run.details.value(QStringLiteral("signature_check")).toObject();
        QCOMPARE(check.value(QStringLiteral("rows")).toInt(), 1);
        QCOMPARE(check.value(QStringLiteral("agree")).toInt(), 1);

        // Provenance: every file read, with its SHA-256 and records.
        QCOMPARE(run.sources.size(), size_t(4));
        for (const ImportedSource& s : run.sources) {
            QFile f(s.path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(s.path));
            QCOMPARE(s.sha256, QString::fromLatin1(QCryptographicHash::hash(
                                                       f.readAll(), QCryptographicHash::Sha256)
                                                       .toHex()));
        }
        QCOMPARE(run.sources.front().records, qint64(3)); // fullcache.jsonl.gz
    }

    void kvdiagnosisWrittenRun()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("release.kvl"));
        writeImportedRun(importKvDiagnosisRelease({kData + QStringLiteral("/kvdiagnosis")}), out,
                         QStringLiteral("test"));
        QVERIFY(!QFile::exists(out + QStringLiteral(".importing")));
        RunReader reader(out);
        QCOMPARE(reader.sampleCount(), qint64(3));
        QCOMPARE(reader.resultCount(), qint64(10));
        QCOMPARE(reader.runInfo().modelName, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(reader.runInfo().status, QStringLiteral("finished"));
        QCOMPARE(reader.verifyRowChecksums().verified, qint64(10));
        const QJsonObject imported =
            runReportJson(reader).value(QStringLiteral("run")).toObject().value(QStringLiteral("imported")).toObject();
        QCOMPARE(imported.value(QStringLiteral("format")).toString(), QStringLiteral("kvdiagnosis"));
        QCOMPARE(imported.value(QStringLiteral("sources")).toArray().size(), 4);

        // Unsupported cells are counted apart from failures.
        const std::vector<MissingCell> missing = reader.missingRows();
        QCOMPARE(missing.size(), size_t(1));
        QCOMPARE(missing[0].compressor, QStringLiteral("think"));
        QCOMPARE(missing[0].ratio, 0.75);
        QCOMPARE(missing[0].samples, qint64(3));
        QVERIFY(missing[0].unsupported);

        // Stored C->W row: the signature is the release's, the nulls null.
        ResultFilter filter;
        filter.transition = Transition::CorrectToWrong;
        filter.suite = QStringLiteral("hotpotqa");
        const std::vector<StoredResult> rows = reader.results(filter);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].record.signature, std::optional(Signature::LowMappedCoverage));
        QVERIFY(!rows[0].record.metrics.kl);

        // Diagnostic profile of snapkv @ 0.75's two C->W rows: the means skip missing values.
        bool sawProfile = false;
        for (const DiagnosticProfileCell& c : reader.diagnosticProfiles()) {
            if (c.compressor != QLatin1String("snapkv") || c.ratio != 0.75)
                continue;
            sawProfile = true;
            QCOMPARE(c.failureRows, qint64(2));
            const std::vector<const char*>& columns = diagnosticProfileColumns();
            const auto mean = [&](const char* name) {
                return c.means[size_t(std::find_if(columns.begin(), columns.end(), [&](const char* n) {
                                          return qstrcmp(n, name) == 0;
                                      }) - columns.begin())];
            };
            QCOMPARE(mean("ECov_slot").n, qint64(1));
            QCOMPARE(mean("ECov_slot").value, std::optional<double>(0.3));
            QCOMPARE(mean("delta_NLL").n, qint64(2));
            QVERIFY(std::abs(*mean("delta_NLL").value - 1.85) < 1e-12);
            QCOMPARE(mean("KL").n, qint64(0));
            QVERIFY(!mean("KL").value);
        }
        QVERIFY(sawProfile);

        // report --suite: every table over one dataset.
        reader.restrictToSuite(QStringLiteral("hotpotqa"));
        QCOMPARE(reader.sampleCount(), qint64(2));
        QCOMPARE(reader.resultCount(), qint64(7));
        bool sawSnap = false;
        for (const AccuracyCell& c : reader.accuracy()) {
            QCOMPARE(c.suite, QStringLiteral("hotpotqa"));
            if (c.compressor == QLatin1String("snapkv") && c.ratio == 0.25) {
                sawSnap = true;
                QCOMPARE(c.n, qint64(2));
                QCOMPARE(c.correct, qint64(2));
                QCOMPARE(c.meanScore, std::optional<double>(1.0));
            }
        }
        QVERIFY(sawSnap);
        QCOMPARE(reader.missingRows().front().samples, qint64(2));
        QCOMPARE(runReportJson(reader).value(QStringLiteral("run")).toObject().value(QStringLiteral("suite")).toString(),
                 QStringLiteral("hotpotqa"));

        RunReader other(out);
        verifyNames(errorOf([&] { other.restrictToSuite(QStringLiteral("qasper")); }),
                    {QStringLiteral("qasper"), QStringLiteral("hotpotqa, ruler8k")});
    }

    void kvdiagnosisBadInput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("find");    // replaced once in the file's JSONL text
        QTest::addColumn<QString>("replace"); // "<truncate>": cut the gzip in half
        QTest::addColumn<QStringList>("needles");
        const QString hotpot = QStringLiteral("data/processed/full_population/compressed_runs/hotpotqa.jsonl.gz");
        QTest::newRow("row for a sample FullCache lacks")
            << hotpot << QStringLiteral("\"fullcache_key\": \"hotpotqa::hotpotqa_000001\"")
            << QStringLiteral("\"fullcache_key\": \"hotpotqa::nope\"")
            << QStringList{hotpot + QStringLiteral(":line 5"), QStringLiteral("hotpotqa::nope"),
                           QStringLiteral("FullCache")};
        QTest::newRow("ratio outside [0, 1)")
            << hotpot << QStringLiteral("\"compression_ratio\": 0.25, ")
            << QStringLiteral("\"compression_ratio\": 1.25, ")
            << QStringList{QStringLiteral(":line 1"), QStringLiteral("1.25")};
        QTest::newRow("missing field")
            << hotpot << QStringLiteral("\"compressed_correct\": true")
            << QStringLiteral("\"compressed_correctness\": true")
            << QStringList{QStringLiteral(":line 1"), QStringLiteral("'compressed_correct'")};
        QTest::newRow("duplicate key")
            << hotpot << QStringLiteral("<first line>") << QStringLiteral("<append>")
            << QStringList{QStringLiteral(":line 8"), QStringLiteral("duplicate"),
                           QStringLiteral("line 1")};
        QTest::newRow("transition against correctness")
            << hotpot << QStringLiteral("\"outcome_transition\": \"W->W\"")
            << QStringLiteral("\"outcome_transition\": \"W->C\"")
            << QStringList{QStringLiteral(":line 6"), QStringLiteral("contradicts")};
        QTest::newRow("not JSON")
            << QStringLiteral("data/processed/full_population/fullcache.jsonl.gz")
            << QStringLiteral("{") << QStringLiteral("[")
            << QStringList{QStringLiteral("fullcache.jsonl.gz:line 1"), QStringLiteral("not JSON")};
        QTest::newRow("gzip that does not inflate")
            << QStringLiteral("data/processed/full_population/fullcache.jsonl.gz") << QString()
            << QStringLiteral("<truncate>")
            << QStringList{QStringLiteral("fullcache.jsonl.gz"), QStringLiteral("does not inflate")};
        QTest::newRow("diagnosed row without its run")
            << QStringLiteral("data/processed/selected_failures/hotpotqa.jsonl")
            << QStringLiteral("\"method_name\": \"SnapKVPress\"")
            << QStringLiteral("\"method_name\": \"TOVAPress\"")
            << QStringList{QStringLiteral("hotpotqa.jsonl:line 1"), QStringLiteral("without its run")};
    }

    void kvdiagnosisBadInput()
    {
        QFETCH(QString, file);
        QFETCH(QString, find);
        QFETCH(QString, replace);
        QFETCH(QStringList, needles);
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("release"));
        copyTree(kData + QStringLiteral("/kvdiagnosis"), root);
        const QString path = QDir(root).filePath(file);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray raw = f.readAll();
        f.close();
        QByteArray bytes;
        if (replace == QLatin1String("<truncate>")) {
            bytes = raw.left(raw.size() / 2);
        } else {
            // Written back plain: the reader inflates only what starts with gzip's magic.
            QString text = QString::fromUtf8(readSourceFile(path));
            if (replace == QLatin1String("<append>"))
                text += text.section(QLatin1Char('\n'), 0, 0) + QLatin1Char('\n');
            else {
                const qsizetype at = text.indexOf(find);
                QVERIFY2(at >= 0, qPrintable(find));
                text.replace(at, find.size(), replace);
            }
            bytes = text.toUtf8();
        }
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        verifyNames(errorOf([&] { importKvDiagnosisRelease({root}); }), needles);
    }

    void kvdiagnosisNeedsARelease()
    {
        QTemporaryDir dir;
        verifyNames(errorOf([&] { importKvDiagnosisRelease({dir.path()}); }),
                    {dir.path(), QStringLiteral("fullcache.jsonl.gz")});
        verifyNames(errorOf([&] { importKvDiagnosisRelease({}); }), {QStringLiteral("one")});
    }

    void rowsFromCsvAndJsonl()
    {
        const ImportedRun run = importResultRows(
            {kData + QStringLiteral("/rows/rows.csv"), kData + QStringLiteral("/rows/rows.jsonl")});
        QStringList keys;
        for (const ConfigRecord& c : run.configs)
            keys << c.key;
        QCOMPARE(keys, (QStringList{"FullCache@0", "knorm@0.25", "my_press@0.5", "snapkv@0.25",
                                    "snapkv@0.5"}));
        QCOMPARE(run.samples.size(), size_t(4));
        QCOMPARE(run.modelId, QStringLiteral("org/tiny")); // the JSONL names it, the CSV does not
        QCOMPARE(run.sources.size(), size_t(2));
        QCOMPARE(run.sources[0].records, qint64(8));

        const SampleRecord& q1 = sampleNamed(run, QStringLiteral("qa::q1"));
        QCOMPARE(q1.sample.gold, QStringLiteral("Paris"));
        const ResultRecord& snap = rowOf(q1, QStringLiteral("snapkv@0.5"));
        QCOMPARE(snap.answer, QStringLiteral("Lyon, or \"Paris\""));
        QCOMPARE(snap.transition, std::optional(Transition::CorrectToWrong));
        QCOMPARE(snap.metrics.ecovSlot, std::optional<double>(0.3));
        // No signature given: KVLens's rules classify the diagnosed C->W row.
        QCOMPARE(snap.signature, std::optional(Signature::LowMappedCoverage));
        QCOMPARE(snap.extra.value(QStringLiteral("seed")).toString(), QStringLiteral("7"));
        QCOMPARE(rowOf(q1, QStringLiteral("my_press@0.5")).transition,
                 std::optional(Transition::CorrectToCorrect));

        const SampleRecord& q2 = sampleNamed(run, QStringLiteral("qa::q2"));
        QCOMPARE(rowOf(q2, QStringLiteral("FullCache@0")).answer, QStringLiteral("two\nlines"));
        // A given signature is kept as given.
        QCOMPARE(rowOf(q2, QStringLiteral("snapkv@0.5")).signature, std::optional(Signature::Ambiguous));
        QCOMPARE(rowOf(sampleNamed(run, QStringLiteral("qa::q3")), QStringLiteral("snapkv@0.5")).transition,
                 std::optional(Transition::WrongToCorrect));

        const SampleRecord& n1 = sampleNamed(run, QStringLiteral("ruler/4096::n1"));
        const ResultRecord& knorm = rowOf(n1, QStringLiteral("knorm@0.25"));
        QVERIFY(!knorm.metrics.deltaNll); // NaN is a missing value
        QCOMPARE(knorm.metrics.gpr, std::optional<double>(0.5));
        QCOMPARE(knorm.score, std::optional<double>(0.5));
        // Its one diagnostic fires no rule: ambiguous, as a KVLens run would say.
        QCOMPARE(knorm.signature, std::optional(Signature::Ambiguous));
        QCOMPARE(run.details.value(QStringLiteral("signatures_computed")).toInt(), 2);
        // A C->W row without any diagnostic gets no signature: nothing to classify.
        const ResultRecord& bare = rowOf(n1, QStringLiteral("snapkv@0.25"));
        QCOMPARE(bare.transition, std::optional(Transition::CorrectToWrong));
        QVERIFY(!bare.signature);
        QVERIFY(!bare.score);
        QCOMPARE(run.details.value(QStringLiteral("signatures_given")).toInt(), 1);
    }

    void rowsBadInput_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QStringList>("needles");
        const QByteArray head = "sample_id,compressor,ratio,correct,answer,signature\n";
        const QByteArray full = "a,FullCache,0,1,x,\n";
        QTest::newRow("row without its key")
            << QByteArray("compressor,ratio,correct\nFullCache,0,1\n")
            << QStringList{QStringLiteral(":line 2"), QStringLiteral("'sample_id'")};
        QTest::newRow("ratio outside [0, 1)") << head + full + "a,snapkv,1.2,1,x,\n"
                                              << QStringList{QStringLiteral(":line 3"), QStringLiteral("outside [0, 1)")};
        QTest::newRow("negative ratio") << head + full + "a,snapkv,-0.1,1,x,\n"
                                        << QStringList{QStringLiteral(":line 3"), QStringLiteral("outside")};
        QTest::newRow("ratio not a number") << head + full + "a,snapkv,half,1,x,\n"
                                            << QStringList{QStringLiteral(":line 3"), QStringLiteral("'ratio'")};
        QTest::newRow("duplicate key")
            << head + full + "a,snapkv,0.5,1,x,\na,SnapKVPress,0.5,0,x,\n"
            << QStringList{QStringLiteral(":line 4"), QStringLiteral("duplicate"), QStringLiteral("line 3")};
        QTest::newRow("rows for a sample FullCache lacks")
            << head + full + "b,snapkv,0.5,1,y,\n"
            << QStringList{QStringLiteral(":line 3"), QStringLiteral("'b'"), QStringLiteral("FullCache")};
        QTest::newRow("correct not a truth value") << head + full + "a,snapkv,0.5,maybe,x,\n"
                                                   << QStringList{QStringLiteral(":line 3"), QStringLiteral("'correct'")};
        QTest::newRow("unknown signature") << head + full + "a,snapkv,0.5,0,x,blue\n"
                                           << QStringList{QStringLiteral(":line 3"), QStringLiteral("'signature'"), QStringLiteral("blue")};
        QTest::newRow("two gold answers") << head + full + "a,snapkv,0.5,0,z,\n"
                                          << QStringList{QStringLiteral(":line 3"), QStringLiteral("'answer'"), QStringLiteral("line 2")};
        QTest::newRow("FullCache with a ratio") << head + "a,FullCache,0.5,1,x,\n"
                                                << QStringList{QStringLiteral(":line 2"), QStringLiteral("FullCache")};
        QTest::newRow("two models")
            << QByteArray("sample_id,compressor,ratio,correct,model\na,FullCache,0,1,m1\n"
                          "a,snapkv,0.5,1,m2\n")
            << QStringList{QStringLiteral(":line 3"), QStringLiteral("'model'"), QStringLiteral("m1")};
        QTest::newRow("short record") << head + full + "a,snapkv,0.5\n"
                                      << QStringList{QStringLiteral(":line 3"), QStringLiteral("fields")};
        QTest::newRow("unclosed quote") << head + full + "a,snapkv,0.5,1,\"x,\n"
                                        << QStringList{QStringLiteral(":line 3"), QStringLiteral("quoted")};
    }

    void rowsBadInput()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QStringList, needles);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rows.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(csv);
        f.close();
        needles.prepend(path);
        verifyNames(errorOf([&] { importResultRows({path}); }), needles);
    }

    void writeLeavesNothingHalfWritten()
    {
        const ImportedRun run = importResultRows({kData + QStringLiteral("/rows/rows.csv")});
        QTemporaryDir dir;
        // An existing file is refused and left as it was.
        const QString existing = dir.filePath(QStringLiteral("old.kvl"));
        QFile f(existing);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep");
        f.close();
        verifyNames(errorOf([&] { writeImportedRun(run, existing, QStringLiteral("t")); }),
                    {existing, QStringLiteral("exists")});
        QCOMPARE(readSourceFile(existing), QByteArray("keep"));
        // A folder that is not there: an error, no file.
        const QString nowhere = dir.filePath(QStringLiteral("no/such/run.kvl"));
        verifyNames(errorOf([&] { writeImportedRun(run, nowhere, QStringLiteral("t")); }), {nowhere});
        QVERIFY(!QFile::exists(nowhere));
        // A run the store refuses half way (a row under an unregistered configuration):
        // neither the file nor its temporary remains.
        ImportedRun broken = run;
        broken.samples.back().results.back().configKey = QStringLiteral("ghost@0.5");
        const QString out = dir.filePath(QStringLiteral("broken.kvl"));
        verifyNames(errorOf([&] { writeImportedRun(broken, out, QStringLiteral("t")); }),
                    {QStringLiteral("ghost@0.5")});
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(out + QStringLiteral(".importing")));
    }
};

QTEST_GUILESS_MAIN(TestRunImport)
#include "tst_runimport.moc"
