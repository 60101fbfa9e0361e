// `import-run --format kvpress`: result folders of NVIDIA kvpress's evaluation/evaluate.py
// (tests/data/runimport/kvpress/results: RULER 4096 under no_press, snapkv 0.25 and
// 0.50; needle_in_haystack at 4096 tokens under no_press and knorm 0.50) as a run, the
// scoring rules kvpress's calculate_metrics.py use, the YAML reader, and every bad input.
#include "common/error.h"
#include "runimport/kvpressscoring.h"
#include "runimport/kvpressyaml.h"
#include "runimport/runimportformats.h"
#include "runimport/sourcefiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {
const QString kResults = QStringLiteral(KVLENS_TEST_DATA "/runimport/kvpress/results");
const QString kFull = QStringLiteral("ruler__4096__Qwen--Qwen3-8B__no_press__0.00");
const QString kSnap25 = QStringLiteral("ruler__4096__Qwen--Qwen3-8B__snapkv__0.25");
const QString kSnap50 = QStringLiteral("ruler__4096__Qwen--Qwen3-8B__snapkv__0.50");
const QString kNeedleKnorm = QStringLiteral(
    "needle_in_haystack__Qwen--Qwen3-8B__knorm__0.50__max_context4096__needle_depth[10, 50]");

QString importError(const QStringList& sources)
{
    try {
        importKvpressResults(sources);
    } catch (const Error& e) {
        return e.message();
    }
    return QStringLiteral("(no error)");
}

// The error must name every fragment (the file, the line, the field).
void expectError(const QStringList& sources, const QStringList& fragments)
{
    const QString message = importError(sources);
    for (const QString& f : fragments)
        QVERIFY2(message.contains(f),
                 qPrintable(QStringLiteral("'%1' not in: %2").arg(f, message)));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
}

// A copy of the fixture results in `tmp`, for a test to damage.
QString copyResults(const QTemporaryDir& tmp)
{
    const QString root = tmp.filePath(QStringLiteral("results"));
    QDirIterator it(kResults, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = root + file.mid(kResults.size());
        QDir().mkpath(QFileInfo(target).path());
        QFile::copy(file, target);
    }
    return root;
}

// Replaces `from` (which must be there) with `to` in the file.
bool edit(const QString& path, const QByteArray& from, const QByteArray& to)
{
    QByteArray bytes = readAll(path);
    if (!bytes.contains(from))
        return false;
    writeAll(path, bytes.replace(from, to));
    return true;
}

const SampleRecord* sampleWhere(const ImportedRun& run, const QString& suite, const QString& key,
                                const QString& value)
{
    for (const SampleRecord& s : run.samples)
        if (s.sample.suite == suite && s.sample.meta.value(key).toString() == value)
            return &s;
    return nullptr;
}

const ResultRecord* rowOf(const SampleRecord& s, const QString& configKey)
{
    for (const ResultRecord& r : s.results)
        if (r.configKey == configKey)
            return &r;
    return nullptr;
}

const ConfigRecord* configOf(const ImportedRun& run, const QString& key)
{
    for (const ConfigRecord& c : run.configs)
        if (c.key == key)
            return &c;
    return nullptr;
}

QJsonObject folderDetails(const ImportedRun& run, const QString& folderName)
{
    for (const QJsonValue& v : run.details.value(QStringLiteral("folders")).toArray())
        if (v.toObject().value(QStringLiteral("folder")).toString().endsWith(folderName))
            return v.toObject();
    return {};
}

QString sha256(const QString& path)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256).toHex());
}
} // namespace

class TestKvpressImport : public QObject
{
    Q_OBJECT

  private slots:
    void registeredAsAFormat()
    {
        const RunImportFormat* f = findRunImportFormat(QStringLiteral("kvpress"));
        QVERIFY(f);
        QVERIFY(f->read == &importKvpressResults);
    }

    void importsTheResultFolders()
    {
        const ImportedRun run = importKvpressResults({kResults});
        QCOMPARE(run.format, QStringLiteral("kvpress"));
        QCOMPARE(run.modelId, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(run.modelRevision, QStringLiteral("abc123"));
        QStringList keys;
        for (const ConfigRecord& c : run.configs)
            keys << c.key;
        QCOMPARE(keys, (QStringList{QStringLiteral("FullCache@0"), QStringLiteral("knorm@0.5"),
                                    QStringLiteral("snapkv@0.25"), QStringLiteral("snapkv@0.5")}));
        QCOMPARE(run.samples.size(), size_t(6)); // 4 RULER rows, 2 needle depths
        for (const SampleRecord& s : run.samples) {
            QCOMPARE(s.results.front().configKey, QStringLiteral("FullCache@0"));
            QCOMPARE(s.results.size(),
                     s.sample.suite == QLatin1String("ruler/4096") ? size_t(3) : size_t(2));
        }
        QVERIFY(run.missing.isEmpty());
    }

    void configurationsKeepThePressSettings()
    {
        const ImportedRun run = importKvpressResults({kResults});
        const ConfigRecord* snap = configOf(run, QStringLiteral("snapkv@0.5"));
        QVERIFY(snap);
        QCOMPARE(snap->compressor, QStringLiteral("snapkv"));
        QCOMPARE(snap->ratio, 0.5);
        QCOMPARE(snap->params.value(QStringLiteral("source_name")).toString(),
                 QStringLiteral("snapkv"));
        // PyYAML folded the long press_init_command over two lines.
        QCOMPARE(
            snap->params.value(QStringLiteral("press_init_command")).toString(),
            QStringLiteral("SnapKVPress(compression_ratio=0.5, window_size=64, kernel_size=5)"));
        QVERIFY(!snap->params.contains(QStringLiteral("query_aware"))); // false is left out
        const ConfigRecord* full = configOf(run, QStringLiteral("FullCache@0"));
        QVERIFY(full);
        QCOMPARE(full->params.value(QStringLiteral("source_name")).toString(),
                 QStringLiteral("no_press"));
        const QJsonObject needle = folderDetails(run, kNeedleKnorm);
        QCOMPARE(needle.value(QStringLiteral("suite")).toString(),
                 QStringLiteral("needle_in_haystack/4096"));
        QCOMPARE(needle.value(QStringLiteral("ratio_from")).toString(),
                 QStringLiteral("config.yaml"));
        QCOMPARE(needle.value(QStringLiteral("settings"))
                     .toObject()
                     .value(QStringLiteral("needle_depth"))
                     .toArray(),
                 (QJsonArray{10, 50}));
    }

    void rulerRowsAreScoredAsKvpressScoresThem()
    {
        const ImportedRun run = importKvpressResults({kResults});
        const QString suite = QStringLiteral("ruler/4096");
        // string_match_all: the fraction of references found; correct when all are.
        const SampleRecord* quick =
            sampleWhere(run, suite, QStringLiteral("question"),
                        QStringLiteral("What are all the special magic numbers for quick-stone "
                                       "mentioned in the provided text?"));
        QVERIFY(quick);
        QCOMPARE(quick->sample.gold, QStringLiteral("[\"1029384\",\"5647382\"]"));
        QCOMPARE(quick->sample.meta.value(QStringLiteral("task")).toString(),
                 QStringLiteral("niah_multivalue"));
        QVERIFY(quick->sample.key.startsWith(QLatin1String("ruler/4096::niah_multivalue::")));
        const ResultRecord* half = rowOf(*quick, QStringLiteral("snapkv@0.25"));
        QVERIFY(half);
        QCOMPARE(half->correct, false);
        QCOMPARE(half->score.value_or(-1), 0.5);
        QCOMPARE(half->transition, std::optional(Transition::CorrectToWrong));
        QCOMPARE(half->answer, QStringLiteral("The numbers are 1029384 and 7777777."));
        const ResultRecord* both = rowOf(*quick, QStringLiteral("snapkv@0.5"));
        QVERIFY(both);
        QCOMPARE(both->correct, true);
        QCOMPARE(both->transition, std::optional(Transition::CorrectToCorrect));
        // string_match_part (qa_*): one reference found is enough, case-insensitive;
        // numpy wrote the list with double quotes around O'Neill.
        const SampleRecord* play =
            sampleWhere(run, suite, QStringLiteral("task"), QStringLiteral("qa_2"));
        QVERIFY(play);
        QCOMPARE(play->sample.gold, QStringLiteral("[\"O'Neill\",\"Eugene O'Neill\"]"));
        const ResultRecord* lower = rowOf(*play, QStringLiteral("snapkv@0.25"));
        QVERIFY(lower);
        QCOMPARE(lower->correct, true);
        QCOMPARE(lower->score.value_or(-1), 1.0);
        const ResultRecord* unknown = rowOf(*play, QStringLiteral("snapkv@0.5"));
        QVERIFY(unknown);
        QCOMPARE(unknown->correct, false);
        QCOMPARE(unknown->score.value_or(-1), 0.0);
        QCOMPARE(unknown->transition, std::optional(Transition::CorrectToWrong));
        QVERIFY(!play->results.front().transition); // FullCache has none
    }

    void needleRowsTakeKvpressRougeAsTheirScore()
    {
        const ImportedRun run = importKvpressResults({kResults});
        const QString suite = QStringLiteral("needle_in_haystack/4096");
        const SampleRecord* shallow =
            sampleWhere(run, suite, QStringLiteral("needle_depth"), QStringLiteral("10"));
        const SampleRecord* middle =
            sampleWhere(run, suite, QStringLiteral("needle_depth"), QStringLiteral("50"));
        QVERIFY(shallow && middle);
        QVERIFY(shallow->sample.gold.startsWith(
            QLatin1String("The best thing to do in San Francisco")));
        const ResultRecord* partial = rowOf(*shallow, QStringLiteral("knorm@0.5"));
        QVERIFY(partial);
        QCOMPARE(partial->correct, false); // the needle is not in "Eat a sandwich in Dolores Park."
        QCOMPARE(partial->score.value_or(-1), 0.4);
        QCOMPARE(partial->transition, std::optional(Transition::CorrectToWrong));
        QVERIFY(partial->extra.value(QStringLiteral("kvpress_rouge"))
                    .toObject()
                    .contains(QStringLiteral("rouge-l")));
        const ResultRecord* whole = rowOf(*middle, QStringLiteral("knorm@0.5"));
        QVERIFY(whole);
        QCOMPARE(whole->correct, true); // lower case, no final period: the same needle
        QCOMPARE(whole->transition, std::optional(Transition::CorrectToCorrect));
    }

    void metricsJsonIsCheckedAndAMismatchReported()
    {
        const ImportedRun run = importKvpressResults({kResults});
        QVERIFY(folderDetails(run, kSnap25)
                    .value(QStringLiteral("metrics_json"))
                    .toString()
                    .startsWith(QLatin1String("agree")));
        // The fixture's snapkv 0.50 metrics.json says qa_2 = 60 where its rows give 50.
        const QString differ =
            folderDetails(run, kSnap50).value(QStringLiteral("metrics_json")).toString();
        QVERIFY2(
            differ.startsWith(QLatin1String("differ")) && differ.contains(QLatin1String("qa_2")) &&
                differ.contains(QLatin1String("50.00")) && differ.contains(QLatin1String("60")),
            qPrintable(differ));
        const QJsonObject verdicts = run.details.value(QStringLiteral("metrics_check")).toObject();
        QCOMPARE(verdicts.value(QStringLiteral("agree")).toInt(), 4);
        QCOMPARE(verdicts.value(QStringLiteral("differ")).toInt(), 1);
        const QJsonObject scoring = run.details.value(QStringLiteral("scoring")).toObject();
        QVERIFY(scoring.value(QStringLiteral("ruler"))
                    .toString()
                    .contains(QLatin1String("string_match_all")));
        QVERIFY(scoring.value(QStringLiteral("needle_in_haystack"))
                    .toString()
                    .contains(QLatin1String("ROUGE")));
    }

    void provenanceNamesEveryFileWithItsHash()
    {
        const ImportedRun run = importKvpressResults({kResults});
        QCOMPARE(run.sources.size(), size_t(15)); // 5 folders x predictions, config, metrics
        for (const ImportedSource& s : run.sources) {
            QVERIFY2(QFileInfo(s.path).isFile(), qPrintable(s.path));
            QCOMPARE(s.sha256, sha256(s.path));
            if (s.path.endsWith(QLatin1String("predictions.csv")))
                QCOMPARE(s.records, qint64(s.path.contains(QLatin1String("ruler")) ? 4 : 2));
        }
        QCOMPARE(run.provenanceJson()
                     .value(QStringLiteral("imported"))
                     .toObject()
                     .value(QStringLiteral("format"))
                     .toString(),
                 QStringLiteral("kvpress"));
    }

    void singleFoldersImportAlone()
    {
        const ImportedRun run = importKvpressResults(
            {kResults + QLatin1Char('/') + kFull, kResults + QLatin1Char('/') + kSnap25});
        QCOMPARE(run.configs.size(), size_t(2));
        QCOMPARE(run.samples.size(), size_t(4));
    }

    void ratioFromTheFolderNameIsSaid()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/config.yaml"),
                     "compression_ratio: 0.25\n", ""));
        // The rows' compression_ratio column would give the ratio first: without it the
        // folder name does.
        const QString csv = root + QLatin1Char('/') + kSnap25 + QStringLiteral("/predictions.csv");
        QVERIFY(edit(csv, ",compression_ratio,", ","));
        QVERIFY(edit(csv, ",0.25,", ","));
        const ImportedRun run = importKvpressResults({root});
        QVERIFY(configOf(run, QStringLiteral("snapkv@0.25")));
        QCOMPARE(folderDetails(run, kSnap25).value(QStringLiteral("ratio_from")).toString(),
                 QStringLiteral("folder name"));
        QVERIFY2(run.missing.join(QLatin1Char('\n'))
                     .contains(QLatin1String("taken from the folder name")),
                 qPrintable(run.missing.join(QLatin1Char('\n'))));
    }

    // DMS and DuoAttention runs have a threshold or head ratio in config.yaml and no
    // compression_ratio; the ratio the press measured is in predictions.csv.
    void ratioMeasuredByThePressIsSaid()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/config.yaml"),
                     "compression_ratio: 0.25\n", "threshold: -3.5\n"));
        const ImportedRun run = importKvpressResults({root});
        const ConfigRecord* c = configOf(run, QStringLiteral("snapkv@0.25"));
        QVERIFY(c);
        QCOMPARE(c->params.value(QStringLiteral("threshold")).toDouble(), -3.5);
        QVERIFY(folderDetails(run, kSnap25)
                    .value(QStringLiteral("ratio_from"))
                    .toString()
                    .contains(QLatin1String("measured")));
        QVERIFY(run.missing.join(QLatin1Char('\n')).contains(QLatin1String("measured")));
    }

    // --- bad input: one error naming the file, the line and the field --------------

    void missingPredictionsIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(
            QFile::remove(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/predictions.csv")));
        expectError({root},
                    {kSnap25 + QStringLiteral("/predictions.csv"), QStringLiteral("absent")});
    }

    void missingConfigIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(QFile::remove(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/config.yaml")));
        expectError({root}, {kSnap25 + QStringLiteral("/config.yaml"), QStringLiteral("absent")});
    }

    void missingColumnIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/predictions.csv"),
                     "predicted_answer,", "prediction,"));
        expectError({root}, {kSnap25 + QStringLiteral("/predictions.csv:line 1"),
                             QStringLiteral("'predicted_answer'")});
    }

    void rulerWithoutTaskColumnIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kFull + QStringLiteral("/predictions.csv"), ",task,",
                     ",kind,"));
        expectError({root},
                    {kFull + QStringLiteral("/predictions.csv:line 1"), QStringLiteral("'task'")});
    }

    void ratioOutsideRangeIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap50 + QStringLiteral("/config.yaml"),
                     "compression_ratio: 0.5\n", "compression_ratio: 1.0\n"));
        expectError({root},
                    {kSnap50 + QStringLiteral("/config.yaml:line 6"),
                     QStringLiteral("'compression_ratio'"), QStringLiteral("outside [0, 1)")});
    }

    void duplicateRowIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        const QString csv = root + QLatin1Char('/') + kSnap25 + QStringLiteral("/predictions.csv");
        QList<QByteArray> lines = readAll(csv).split('\n');
        lines.insert(3, lines[2]); // line 4 repeats line 3 (the quick-stone row)
        writeAll(csv, lines.join('\n'));
        expectError({root}, {kSnap25 + QStringLiteral("/predictions.csv:line 4"),
                             QStringLiteral("duplicate"), QStringLiteral("line 3"),
                             QStringLiteral("question")});
    }

    void aRowFullCacheLacksIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap50 + QStringLiteral("/predictions.csv"),
                     "In what year was the Golden Gate Bridge opened?",
                     "In what year was the Bay Bridge opened?"));
        expectError({root}, {kSnap50 + QStringLiteral("/predictions.csv:line 5"),
                             QStringLiteral("FullCache"), QStringLiteral("question")});
    }

    void noFullCacheFolderIsAnError()
    {
        expectError({kResults + QLatin1Char('/') + kSnap25, kResults + QLatin1Char('/') + kSnap50},
                    {QStringLiteral("no FullCache folder"), QStringLiteral("ruler/4096"), kSnap25,
                     kSnap50});
    }

    void unparsableYamlIsAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/config.yaml"),
                     "  dtype: auto\n", "  dtype: 'auto\n"));
        expectError({root}, {kSnap25 + QStringLiteral("/config.yaml:line 20"),
                             QStringLiteral("model_kwargs.dtype"), QStringLiteral("never closes")});
    }

    void twoModelsAreAnError()
    {
        QTemporaryDir tmp;
        const QString root = copyResults(tmp);
        QVERIFY(edit(root + QLatin1Char('/') + kSnap25 + QStringLiteral("/config.yaml"),
                     "model: Qwen/Qwen3-8B\n", "model: meta-llama/Llama-3.1-8B\n"));
        expectError({root}, {QStringLiteral("config.yaml:line 3"), QStringLiteral("'model'"),
                             QStringLiteral("one model")});
    }

    void notAFolderIsAnError()
    {
        expectError({kResults + QStringLiteral("/none")},
                    {QStringLiteral("/none"), QStringLiteral("not a folder")});
        QTemporaryDir empty;
        expectError({empty.path()}, {empty.path(), QStringLiteral("no kvpress result folder")});
    }

    // --- the scoring rules ------------------------------------------------------------

    void rulerStringMatchRules()
    {
        const QStringList refs = {QStringLiteral("Alpha"), QStringLiteral("beta"),
                                  QStringLiteral("gamma")};
        QCOMPARE(rulerStringMatch(QStringLiteral("ALPHA and Beta"), refs, false), 2.0 / 3.0);
        QCOMPARE(rulerStringMatch(QStringLiteral("ALPHA and Beta"), refs, true), 1.0);
        QCOMPARE(rulerStringMatch(QStringLiteral("delta"), refs, true), 0.0);
        // kvpress removes control characters from the prediction before matching.
        QCOMPARE(rulerStringMatch(QStringLiteral("al\x01pha"), {QStringLiteral("alpha")}, false),
                 1.0);
        QVERIFY(rulerTaskUsesPartMatch(QStringLiteral("qa_1")));
        QVERIFY(!rulerTaskUsesPartMatch(QStringLiteral("niah_single_1")));
        QVERIFY(!rulerTaskUsesPartMatch(QStringLiteral("qasper")));
    }

    void otherDatasetRules()
    {
        const auto correct = [](KvpressRule rule, const char* prediction, const char* gold) {
            return scoreKvpressRow(rule, QString::fromUtf8(prediction), {QString::fromUtf8(gold)},
                                   {})
                .correct;
        };
        QVERIFY(correct(KvpressRule::LongBenchV2, "**The correct answer is (B)**", "B"));
        QVERIFY(correct(KvpressRule::LongBenchV2, "The correct answer is C", "C"));
        QVERIFY(!correct(KvpressRule::LongBenchV2, "The answer is (B)", "B"));
        // aime25 reads the last \boxed{}, math500 the first.
        QVERIFY(correct(KvpressRule::BoxedLast, "\\boxed{1} then \\boxed{70}", "70"));
        QVERIFY(!correct(KvpressRule::BoxedFirst, "\\boxed{1} then \\boxed{70}", "70"));
        QVERIFY(!correct(KvpressRule::BoxedFirst, "70", "70")); // no \boxed{}: no answer
        QVERIFY(correct(KvpressRule::BoxedLast, "70", "70"));   // aime25 then reads it all
        QVERIFY(correct(KvpressRule::ExactMatch, "  Paris. ", "paris"));
        QVERIFY(!correct(KvpressRule::ExactMatch, "Paris, France", "paris"));
        QCOMPARE(kvpressScoringFor(QStringLiteral("longbench")).goldColumn,
                 QStringLiteral("answers"));
        QVERIFY(kvpressScoringFor(QStringLiteral("loogle"))
                    .description.contains(QLatin1String("exact match")));
    }

    void pythonListLiterals()
    {
        QCOMPARE(parsePythonStringList(QStringLiteral("['a' 'b']")),
                 std::optional(QStringList{"a", "b"}));
        QCOMPARE(parsePythonStringList(QStringLiteral("['a', \"b'c\"]")),
                 std::optional(QStringList{"a", "b'c"}));
        // numpy wraps long arrays onto the next line; repr escapes backslashes and quotes.
        QCOMPARE(parsePythonStringList(QStringLiteral("['x\\\\y' 'it\\'s'\n 'z\\n']")),
                 std::optional(QStringList{"x\\y", "it's", "z\n"}));
        QCOMPARE(parsePythonStringList(QStringLiteral("[3, 14]")),
                 std::optional(QStringList{"3", "14"}));
        QCOMPARE(parsePythonStringList(QStringLiteral("[]")), std::optional(QStringList{}));
        QVERIFY(!parsePythonStringList(QStringLiteral("plain answer")));
        QVERIFY(!parsePythonStringList(QStringLiteral("['unclosed]")));
    }

    // --- the YAML reader -----------------------------------------------------------------

    void yamlAsPyYamlWritesIt()
    {
        const QByteArray text = "# written by hand\n"
                                "dataset: ruler\n"
                                "data_dir: '4096'\n"
                                "ratio: 0.25\n"
                                "seed: 42\n"
                                "flag: false\n"
                                "nothing: null\n"
                                "long: First part\n"
                                "  second part   # a comment\n"
                                "quoted: \"a\\tb \\u00e9\"\n"
                                "single: 'it''s\n"
                                "  folded'\n"
                                "depths:\n"
                                "- 10\n"
                                "- 50\n"
                                "kwargs:\n"
                                "  dtype: auto\n"
                                "  nested:\n"
                                "    deep: [1, 'two', {k: v}]\n"
                                "empty: {}\n"
                                "tagged: !!python/str text\n"
                                "items:\n"
                                "  - name: a\n"
                                "    size: 1\n"
                                "  - name: b\n";
        const YamlMapping y = parseYamlMapping(text, QStringLiteral("c.yaml"));
        QCOMPARE(y.values.value(QStringLiteral("dataset")).toString(), QStringLiteral("ruler"));
        QCOMPARE(y.values.value(QStringLiteral("data_dir")).toString(), QStringLiteral("4096"));
        QCOMPARE(y.values.value(QStringLiteral("ratio")).toDouble(), 0.25);
        QCOMPARE(y.values.value(QStringLiteral("seed")).toDouble(), 42.0);
        QCOMPARE(y.values.value(QStringLiteral("flag")), QJsonValue(false));
        QVERIFY(y.values.value(QStringLiteral("nothing")).isNull());
        QCOMPARE(y.values.value(QStringLiteral("long")).toString(),
                 QStringLiteral("First part second part"));
        QCOMPARE(y.values.value(QStringLiteral("quoted")).toString(),
                 QStringLiteral("a\tb \u00e9"));
        QCOMPARE(y.values.value(QStringLiteral("single")).toString(),
                 QStringLiteral("it's folded"));
        QCOMPARE(y.values.value(QStringLiteral("depths")).toArray(), (QJsonArray{10, 50}));
        const QJsonObject kwargs = y.values.value(QStringLiteral("kwargs")).toObject();
        QCOMPARE(kwargs.value(QStringLiteral("dtype")).toString(), QStringLiteral("auto"));
        QCOMPARE(kwargs.value(QStringLiteral("nested"))
                     .toObject()
                     .value(QStringLiteral("deep"))
                     .toArray(),
                 (QJsonArray{1, QStringLiteral("two"),
                             QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}));
        QCOMPARE(y.values.value(QStringLiteral("empty")).toObject(), QJsonObject());
        QCOMPARE(y.values.value(QStringLiteral("tagged")).toString(), QStringLiteral("text"));
        const QJsonArray items = y.values.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);
        QCOMPARE(items[0].toObject().value(QStringLiteral("size")).toDouble(), 1.0);
        QCOMPARE(items[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("b"));
        QCOMPARE(y.lineOf(QStringLiteral("dataset")), 2);
        QCOMPARE(y.lineOf(QStringLiteral("kwargs")), 16);
    }

    void yamlErrorsNameTheLineAndField_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("place");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not key: value")
            << QByteArray("a: 1\njust words\n") << QStringLiteral("c.yaml:line 2")
            << QStringLiteral("expected 'key: value'");
        QTest::newRow("tab") << QByteArray("a:\n\tb: 1\n") << QStringLiteral("c.yaml:line 2")
                             << QStringLiteral("tab");
        QTest::newRow("twice") << QByteArray("a: 1\nb: 2\na: 3\n")
                               << QStringLiteral("c.yaml:line 3")
                               << QStringLiteral("field 'a': given twice");
        QTest::newRow("unclosed quote")
            << QByteArray("a: \"open\nb: 2\n") << QStringLiteral("c.yaml:line 1")
            << QStringLiteral("field 'a': the quoted value never closes");
        QTest::newRow("unclosed bracket")
            << QByteArray("a: [1, 2\n") << QStringLiteral("c.yaml:line 1")
            << QStringLiteral("field 'a': the bracket never closes");
        QTest::newRow("indentation")
            << QByteArray("a: 1\n  b: 2\n") << QStringLiteral("c.yaml:line 2")
            << QStringLiteral("unexpected indentation");
        QTest::newRow("block scalar")
            << QByteArray("a:\n  b: |\n    text\n") << QStringLiteral("c.yaml:line 2")
            << QStringLiteral("field 'a.b': block scalars");
        QTest::newRow("a list") << QByteArray("- a\n- b\n") << QStringLiteral("c.yaml:line 1")
                                << QStringLiteral("not a mapping");
    }

    void yamlErrorsNameTheLineAndField()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, place);
        QFETCH(QString, problem);
        QString message;
        try {
            parseYamlMapping(text, QStringLiteral("c.yaml"));
        } catch (const Error& e) {
            message = e.message();
        }
        QVERIFY2(message.startsWith(place + QStringLiteral(": ")) && message.contains(problem),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestKvpressImport)
#include "tst_kvpressimport.moc"
