// kvlens-cli as users and the GUI run it: exit codes, progress lines and JSON shapes
// of run / eval / demo / report / merge / classify / info / tokenize, and bad input
// (missing model directory, corrupt safetensors, bad JSONL line, another spec on an
// existing run file) -> a non-zero exit with the file named.
#include "clirun.h"
#include "store/runreader.h"
#include "store/sqlitedatabase.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

using clitest::cli;
using clitest::Result;
using clitest::writeFile;

#define CLI_OK(result)                                                                             \
    QVERIFY2((result).code == 0,                                                                   \
             qPrintable(QStringLiteral("exit %1: %2").arg((result).code).arg((result).err)))

// Bad input: exit status 1 and an error that names `what` (the file, option or value).
#define CLI_FAILS_NAMING(result, what)                                                             \
    do {                                                                                           \
        QCOMPARE((result).code, 1);                                                                \
        QVERIFY2((result).err.contains(what), qPrintable((result).err));                           \
    } while (false)

class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;
    QString m_run;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    // A copy of the tiny model's directory, to damage.
    QString modelCopy(const QString& name) const
    {
        const QString dir = path(name);
        QDir().mkpath(dir);
        for (const QString& f : QDir(m_model).entryList(QDir::Files)) {
            QFile::remove(dir + QLatin1Char('/') + f);
            QFile::copy(m_model + QLatin1Char('/') + f, dir + QLatin1Char('/') + f);
        }
        return dir;
    }
    // Writes `bytes` over the first element of `tensor` in a safetensors file (an F32
    // tensor: the tiny model is trained and saved in float32).
    static void overwriteTensorStart(const QString& file, const QString& tensor,
                                     const QByteArray& bytes)
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray all = f.readAll();
        const qint64 headerLength = qFromLittleEndian<qint64>(all.constData());
        const QJsonObject entry =
            QJsonDocument::fromJson(all.mid(8, headerLength)).object().value(tensor).toObject();
        QCOMPARE(entry.value(QStringLiteral("dtype")).toString(), QStringLiteral("F32"));
        const qint64 begin =
            entry.value(QStringLiteral("data_offsets")).toArray().at(0).toInteger();
        QVERIFY(f.seek(8 + headerLength + begin));
        QCOMPARE(f.write(bytes), qint64(bytes.size()));
    }
    QStringList quickRun(const QString& out) const
    {
        return {QStringLiteral("run"),
                QStringLiteral("--model"),
                m_model,
                QStringLiteral("--suite"),
                QStringLiteral("retrieval,instructions"),
                QStringLiteral("--n"),
                QStringLiteral("1"),
                QStringLiteral("--tokens"),
                QStringLiteral("200:300"),
                QStringLiteral("--press"),
                QStringLiteral("streamingllm,snapkv:window=8,kernel=3"),
                QStringLiteral("--ratios"),
                QStringLiteral("0.5"),
                QStringLiteral("--max-new-tokens"),
                QStringLiteral("4"),
                QStringLiteral("--threads"),
                QStringLiteral("1"),
                QStringLiteral("--out"),
                out};
    }

  private slots:
    // A tiny model made with the CLI itself: corpus -> tokenizer -> two training steps.
    void initTestCase()
    {
        CLI_OK(cli({"tasks", "corpus", "--n", "3", "--out", path("c.txt")}));
        CLI_OK(cli({"tokenizer-train", "--corpus", path("c.txt"), "--vocab-size", "400", "--out",
                    path("tok.json")}));
        writeFile(path("train.json"), R"({
            "model": {"hidden": 32, "layers": 2, "heads": 2, "kv_heads": 1, "intermediate": 64,
                      "max_position": 512},
            "threads": 1, "checkpoint_every": 1, "seed": 3,
            "stages": [{"name": "recall", "steps": 2, "lr": 0.01, "warmup_steps": 1,
                        "batch_sequences": 4, "recall": {"pairs": [4, 4], "filler": [0, 0]}}]})");
        CLI_OK(cli({"train", "--spec", path("train.json"), "--out", path("train"), "--tokenizer",
                    path("tok.json"), "--max-steps", "2"}));
        m_model = path("train/checkpoint");
        QVERIFY(QFile::exists(m_model + QStringLiteral("/model.safetensors")));
        m_run = path("quick.kvl");
    }

    void runQuickForm()
    {
        const Result r = cli(quickRun(m_run));
        CLI_OK(r);
        const QList<QJsonObject> lines = r.jsonLines();
        QCOMPARE(lines.size(), 3); // two progress lines, then the summary
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(lines[i].value(QStringLiteral("done")).toInt(), i + 1);
            QCOMPARE(lines[i].value(QStringLiteral("total")).toInt(), 2);
            QVERIFY(lines[i].value(QStringLiteral("elapsed_s")).isDouble());
            QVERIFY(lines[i].value(QStringLiteral("eta_s")).isDouble());
            const double accuracy = lines[i].value(QStringLiteral("accuracy")).toDouble(-1);
            QVERIFY(accuracy >= 0.0 && accuracy <= 1.0);
        }
        const QJsonObject summary = lines.back();
        QCOMPARE(summary.value(QStringLiteral("finished")).toBool(), true);
        QCOMPARE(summary.value(QStringLiteral("ran")).toInt(), 2);
        QCOMPARE(summary.value(QStringLiteral("configs")).toInt(), 2);

        // The same command again resumes a finished run: nothing to do.
        const Result again = cli(quickRun(m_run));
        CLI_OK(again);
        QCOMPARE(again.lastJson().value(QStringLiteral("ran")).toInt(), 0);
        QCOMPARE(again.lastJson().value(QStringLiteral("resumed")).toInt(), 2);
    }

    void reportShapes()
    {
        const Result r = cli({"report", m_run, "--format", "json"});
        CLI_OK(r);
        const QJsonObject report = r.lastJson();
        for (const char* key : {"accuracy", "transitions", "signatures", "overlap", "spans",
                                "leakage", "ger", "interventions"})
            QVERIFY2(report.contains(QLatin1String(key)), key);
        QVERIFY(!report.value(QStringLiteral("accuracy")).toArray().isEmpty());
        CLI_OK(cli({"report", m_run}));
        QCOMPARE(cli({"report", m_run, "--format", "xml"}).code, 1);
    }

    // Issue 18: a value changed behind the writer's back (the file still passes SQLite's
    // checks) stops the report with the file and the sample named, before any figure.
    void reportRefusesChangedRow()
    {
        const QString copy = path("changed.kvl");
        QFile::remove(copy);
        QVERIFY(QFile::copy(m_run, copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        CLI_OK(cli({"report", copy, "--format", "json"}));
        kvl::SqliteDatabase(copy, kvl::SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET correct = 1 - correct WHERE sample_id = "
                                 "(SELECT MAX(sample_id) FROM result) AND config_id = "
                                 "(SELECT MAX(config_id) FROM result)"));
        const Result r = cli({"report", copy, "--format", "json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(copy) && r.err.contains(QStringLiteral("damaged result row of "
                                                                       "sample '")),
                 qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }

    void specFileShardsAndMerge()
    {
        writeFile(path("spec.json"), QStringLiteral(R"({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 3, "tokens": "200:300"}],
            "compressors": ["knorm"], "ratios": [0.25, 0.75], "max_new_tokens": 4,
            "threads": 1})")
                                         .arg(m_model)
                                         .toUtf8());
        QStringList shards;
        int samples = 0;
        for (int k = 1; k <= 2; ++k) {
            const QString out = path(QStringLiteral("shard-%1.kvl").arg(k));
            const Result r = cli({"run", "--spec", path("spec.json"), "--shard",
                                  QStringLiteral("%1/2").arg(k), "--out", out, "--quiet"});
            CLI_OK(r);
            QCOMPARE(r.jsonLines().size(), 1); // --quiet: the summary only
            samples += r.lastJson().value(QStringLiteral("total")).toInt();
            shards << out;
        }
        QCOMPARE(samples, 3);
        const Result merged =
            cli(QStringList{"merge"} + shards + QStringList{"--out", path("all.kvl")});
        CLI_OK(merged);
        QCOMPARE(merged.lastJson().value(QStringLiteral("samples")).toInt(), 3);
        QCOMPARE(merged.lastJson().value(QStringLiteral("results")).toInt(), 3 * 3);
    }

    void evalJson()
    {
        const Result r = cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "2",
                              "--tokens", "200:300", "--threads", "1", "--json"});
        CLI_OK(r);
        const QJsonObject o = r.lastJson();
        QCOMPARE(o.value(QStringLiteral("suite")).toString(), QStringLiteral("retrieval"));
        QCOMPARE(o.value(QStringLiteral("n")).toInt(), 2);
        const double score = o.value(QStringLiteral("score")).toDouble(-1);
        QVERIFY(score >= 0.0 && score <= 1.0);
        int n = 0;
        for (const QJsonValue& b : o.value(QStringLiteral("buckets")).toArray())
            n += b.toObject().value(QStringLiteral("n")).toInt();
        QCOMPARE(n, 2);
        // Per variant: the drawn variants, their counts adding up to n, scores in [0, 1].
        int variantN = 0;
        for (const QJsonValue& v : o.value(QStringLiteral("variants")).toArray()) {
            const QJsonObject vo = v.toObject();
            QVERIFY((QStringList{"single", "multikey", "multivalue", "multiquery"})
                        .contains(vo.value(QStringLiteral("variant")).toString()));
            const double s = vo.value(QStringLiteral("score")).toDouble(-1);
            QVERIFY(s >= 0.0 && s <= 1.0);
            variantN += vo.value(QStringLiteral("n")).toInt();
        }
        QCOMPARE(variantN, 2);
        QCOMPARE(cli({"eval", "--model", m_model, "--suite", "nosuch", "--n", "1"}).code, 1);

        // --predictions: the same samples, each with its answer and score; `score` reads
        // the file back to the same scores.
        const QString preds = path("eval-predictions.jsonl");
        const Result kept =
            cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "2", "--tokens",
                 "200:300", "--threads", "1", "--json", "--predictions", preds});
        CLI_OK(kept);
        QCOMPARE(kept.lastJson().value(QStringLiteral("score")).toDouble(), score);
        const Result rescored = cli({"score", preds});
        CLI_OK(rescored);
        const QList<QJsonObject> scores = rescored.jsonLines();
        QCOMPARE(scores.size(), 3); // two samples, then the summary
        QFile file(preds);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> predLines = file.readAll().trimmed().split('\n');
        QCOMPARE(predLines.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject line = QJsonDocument::fromJson(predLines[i]).object();
            QVERIFY(line.value(QStringLiteral("prediction")).isString());
            QCOMPARE(line.value(QStringLiteral("suite")).toString(), QStringLiteral("retrieval"));
            QCOMPARE(scores[i].value(QStringLiteral("score")).toDouble(),
                     line.value(QStringLiteral("score")).toDouble(-1));
        }
        QCOMPARE(scores[2].value(QStringLiteral("score")).toDouble(), score);
        const Result unwritable = cli({"eval", "--model", m_model, "--suite", "retrieval", "--n",
                                       "1", "--predictions", path("no/such/dir/p.jsonl")});
        QCOMPARE(unwritable.code, 1);
        QVERIFY2(unwritable.err.contains(QLatin1String("p.jsonl")), qPrintable(unwritable.err));

        // Several ranges: N samples each, pooled, one bucket per range here.
        const Result two = cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "2",
                                "--tokens", "200:256,300:400", "--threads", "1", "--json"});
        CLI_OK(two);
        QCOMPARE(two.lastJson().value(QStringLiteral("n")).toInt(), 4);
        QStringList buckets;
        for (const QJsonValue& b : two.lastJson().value(QStringLiteral("buckets")).toArray())
            buckets << QStringLiteral("%1 n%2")
                           .arg(b.toObject().value(QStringLiteral("tokens")).toString())
                           .arg(b.toObject().value(QStringLiteral("n")).toInt());
        QCOMPARE(buckets, (QStringList{"129:256 n2", "257:512 n2"}));
        // Their predictions carry one id per sample, so `score` reads them back.
        const QString twoPreds = path("eval-two-ranges.jsonl");
        CLI_OK(cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "2", "--tokens",
                    "200:256,300:400", "--threads", "1", "--json", "--predictions", twoPreds}));
        const Result twoScored = cli({"score", twoPreds});
        CLI_OK(twoScored);
        QStringList ids;
        for (const QJsonObject& line : twoScored.jsonLines())
            if (!line.value(QStringLiteral("summary")).toBool())
                ids << line.value(QStringLiteral("id")).toString();
        QCOMPARE(ids, (QStringList{"retrieval-1-0@200:256", "retrieval-1-1@200:256",
                                   "retrieval-1-0@300:400", "retrieval-1-1@300:400"}));
        QCOMPARE(twoScored.lastJson().value(QStringLiteral("score")).toDouble(),
                 two.lastJson().value(QStringLiteral("score")).toDouble());
        const Result twice = cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "1",
                                  "--tokens", "200:256,200:256"});
        CLI_FAILS_NAMING(twice, QStringLiteral("200:256 is given twice"));

        // --markdown: the same evaluation as the model card's table (same seed, same
        // figures to two decimals).
        const Result md = cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "2",
                               "--tokens", "200:256,300:400", "--threads", "1", "--markdown"});
        CLI_OK(md);
        const QJsonObject o2 = two.lastJson();
        QStringList row{QStringLiteral("retrieval")};
        for (const QJsonValue& b : o2.value(QStringLiteral("buckets")).toArray())
            row << QStringLiteral("%1 (2)").arg(
                b.toObject().value(QStringLiteral("score")).toDouble(), 0, 'f', 2);
        row << QStringLiteral("%1 (4)").arg(o2.value(QStringLiteral("score")).toDouble(), 0, 'f',
                                            2);
        const QStringList lines = QString::fromUtf8(md.out).split(QLatin1Char('\n'));
        QCOMPARE(lines.value(0), QStringLiteral("| suite | 129-256 | 257-512 | all |"));
        QCOMPARE(lines.value(2), QStringLiteral("| %1 |").arg(row.join(QStringLiteral(" | "))));
        QCOMPARE(cli({"eval", "--model", m_model, "--suite", "retrieval", "--n", "1", "--json",
                      "--markdown"})
                     .code,
                 1);
    }

    // heads: per layer and kv-head the evidence share and its lift over uniform; the
    // --markdown table carries the same figures.
    void headsJsonAndMarkdown()
    {
        const QStringList common{"heads",    "--model", m_model,     "--n", "2",
                                 "--tokens", "200:300", "--threads", "1"};
        const Result r = cli(common);
        CLI_OK(r);
        const QJsonObject o = r.lastJson();
        QCOMPARE(o.value(QStringLiteral("samples")).toInt(), 2);
        const double uniform = o.value(QStringLiteral("uniform_share")).toDouble();
        QVERIFY(uniform > 0.0 && uniform < 1.0);
        const QJsonArray share = o.value(QStringLiteral("evidence_share")).toArray();
        const QJsonArray lift = o.value(QStringLiteral("lift")).toArray();
        QCOMPARE(share.size(), 2); // the test model's layers
        QStringList expectedRows;
        for (qsizetype l = 0; l < share.size(); ++l) {
            const QJsonArray row = share.at(l).toArray();
            QCOMPARE(row.size(), 1); // its kv-heads
            QStringList cells{QString::number(l)};
            for (qsizetype h = 0; h < row.size(); ++h) {
                const double s = row.at(h).toDouble();
                QVERIFY(s >= 0.0 && s <= 1.0);
                QVERIFY(qAbs(lift.at(l).toArray().at(h).toDouble() - s / uniform) < 1e-9);
                cells << QStringLiteral("%1 (%2)").arg(s / uniform, 0, 'f', 2).arg(s, 0, 'f', 2);
            }
            expectedRows << QStringLiteral("| %1 |").arg(cells.join(QStringLiteral(" | ")));
        }
        const Result md = cli(common + QStringList{"--markdown"});
        CLI_OK(md);
        const QStringList lines = QString::fromUtf8(md.out).split(QLatin1Char('\n'));
        QCOMPARE(lines.value(0), QStringLiteral("| layer | kv-head 0 |"));
        QCOMPARE(lines.mid(2, 2), expectedRows);

        const Result bad = cli({"heads", "--model", m_model, "--tokens", "300:200"});
        CLI_FAILS_NAMING(bad, QStringLiteral("--tokens"));
    }

    // bench --train: one stage's steps timed as one padded batch and as length groups;
    // the groups never pad more, and both rates are measured.
    void benchTrainSteps()
    {
        writeFile(path("bench-train.json"), R"({
            "model": {"hidden": 32, "layers": 2, "heads": 2, "kv_heads": 1, "intermediate": 64,
                      "max_position": 1024},
            "stages": [{"name": "warm", "steps": 5, "batch_sequences": 2},
                       {"name": "tasks", "steps": 5, "tokens_per_batch": 1500,
                        "recall_share": 0.3, "suites": {"retrieval": 1, "multihop": 1},
                        "context_tokens": [64, 300], "follow_ups": 4}]})");
        const Result r = cli({"bench", "--train", path("bench-train.json"), "--stage", "tasks",
                              "--steps", "2", "--tokenizer", path("tok.json"), "--json"});
        CLI_OK(r);
        const QJsonObject t = r.lastJson().value(QStringLiteral("train")).toObject();
        QCOMPARE(t.value(QStringLiteral("stage")).toString(), QStringLiteral("tasks"));
        QCOMPARE(t.value(QStringLiteral("steps")).toInt(), 2);
        QVERIFY(t.value(QStringLiteral("tokens")).toDouble() >= 2 * 1500);
        const double oneBatch = t.value(QStringLiteral("padding_share_one_batch")).toDouble(-1);
        const double groups = t.value(QStringLiteral("padding_share_groups")).toDouble(-1);
        QVERIFY2(groups >= 0.0 && groups <= oneBatch && oneBatch < 1.0,
                 qPrintable(QStringLiteral("%1 %2").arg(groups).arg(oneBatch)));
        QVERIFY(t.value(QStringLiteral("one_batch_tokens_per_s")).toDouble() > 0.0);
        QVERIFY(t.value(QStringLiteral("groups_tokens_per_s")).toDouble() > 0.0);

        const Result bad = cli({"bench", "--train", path("bench-train.json"), "--stage", "nosuch",
                                "--tokenizer", path("tok.json")});
        CLI_FAILS_NAMING(bad, QStringLiteral("nosuch"));
        QVERIFY2(bad.err.contains(QStringLiteral("warm")), qPrintable(bad.err)); // the stages
    }

    // bench --sweep --tokens N: samples of N - N/8 to N tokens (the figures at 2k and 4k
    // of issue 36 are at those lengths); none fitting the model is an error naming both.
    void benchSweepTakesTokens()
    {
        const Result r = cli({"bench", "--model", m_model, "--sweep", "--tokens", "240", "--json"});
        CLI_OK(r);
        const QJsonObject s = r.lastJson().value(QStringLiteral("sweep")).toObject();
        QCOMPARE(s.value(QStringLiteral("sample_tokens")).toString(), QStringLiteral("210:240"));
        QCOMPARE(s.value(QStringLiteral("samples")).toInt(), 4);
        const double prompt = s.value(QStringLiteral("prompt_tokens")).toDouble();
        // A sample's range counts its generated context; the prompt adds the question and
        // the layout. Well under the default samples' 512 either way.
        QVERIFY2(prompt > 168.0 && prompt < 360.0, qPrintable(QString::number(prompt)));
        QVERIFY(s.value(QStringLiteral("answer_tokens")).toDouble() > 0.0);
        QVERIFY(s.contains(QStringLiteral("store")));

        const Result tooLong = cli({"bench", "--model", m_model, "--sweep", "--tokens", "900"});
        CLI_FAILS_NAMING(tooLong, QStringLiteral("788:900"));
        QVERIFY2(tooLong.err.contains(m_model), qPrintable(tooLong.err));
    }

    void demoPrintsReport()
    {
        const Result r = cli({"demo", "--model", m_model, "--n", "1", "--tokens", "200:300",
                              "--threads", "1", "--out", path("demo.kvl")});
        CLI_OK(r);
        // The summary fits one screen: what ran, accuracy per press at each ratio beside
        // FullCache's, why compressed runs failed, and the next commands.
        // (Progress comes as JSON lines first when stdout is no terminal, for the app.)
        QStringList lines = QString::fromUtf8(r.out).trimmed().split(QLatin1Char('\n'));
        lines.removeIf([](const QString& line) { return line.startsWith(QLatin1Char('{')); });
        const QString summary = lines.join(QLatin1Char('\n'));
        QVERIFY2(lines.size() <= 60, qPrintable(summary));
        QVERIFY2(lines[0].startsWith(QStringLiteral("KVLens demo: ")) &&
                     lines[0].contains(QStringLiteral("3 samples (retrieval, instructions, "
                                                      "multihop; 1 each)")) &&
                     lines[0].contains(QStringLiteral("streamingllm, snapkv, tova at 25%/50%/75%")),
                 qPrintable(summary));
        const qsizetype accuracy =
            lines.indexOf(QRegularExpression(QStringLiteral("Accuracy by.*")));
        QVERIFY2(accuracy > 0, qPrintable(summary));
        QVERIFY(
            lines[accuracy + 1].contains(QRegularExpression(QStringLiteral("25%\\s+50%\\s+75%$"))));
        QVERIFY(lines[accuracy + 2].startsWith(QStringLiteral("FullCache")));
        for (int i = 0; i < 3; ++i) // one row per press, one accuracy per ratio
            QVERIFY2(lines[accuracy + 3 + i].contains(QRegularExpression(
                         QStringLiteral("^(streamingllm|snapkv|tova)(\\s+(0|1)\\.\\d\\d){3}$"))),
                     qPrintable(lines[accuracy + 3 + i]));
        QVERIFY2(summary.contains(QRegularExpression(QStringLiteral("\n(Why compressed runs "
                                                                    "failed|No C->W rows)"))),
                 qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("kvlens-cli report ") + path("demo.kvl")));
        QVERIFY(summary.contains(QStringLiteral("kvlens --export-figures ") + path("demo.kvl")));
        QVERIFY(!summary.contains(QStringLiteral("(no rows)")));

        // The full report: JSON keeps every table; text and CSV leave out those with no
        // rows (a demo has no decode-time presses) unless --all-tables.
        const Result json = cli({"report", path("demo.kvl"), "--format", "json"});
        CLI_OK(json);
        const QJsonObject report = json.lastJson();
        QVERIFY(report.contains(QStringLiteral("accuracy")));
        QVERIFY(report.contains(QStringLiteral("interventions")));
        QVERIFY(report.contains(QStringLiteral("chains")));
        QVERIFY(report.value(QStringLiteral("decoding")).toArray().isEmpty());
        const Result text = cli({"report", path("demo.kvl")});
        CLI_OK(text);
        QVERIFY(!text.out.contains("Decode-time presses"));
        QVERIFY(!text.out.contains("(no rows)"));
        QVERIFY2(text.out.contains("left out (--all-tables prints them): ") &&
                     text.out.contains("decoding"),
                 text.out.constData());
        const Result all = cli({"report", path("demo.kvl"), "--all-tables"});
        CLI_OK(all);
        QVERIFY(all.out.contains("Decode-time presses"));
        QVERIFY(!all.out.contains("left out"));
        // The run's head line, then one block per table: every key of the JSON but "run".
        QCOMPARE(all.out.count("\n\n"), qsizetype(report.size() - 1));
        const Result csv = cli({"report", path("demo.kvl"), "--format", "csv"});
        CLI_OK(csv);
        QVERIFY(!csv.out.contains("# decoding\n"));
        QVERIFY(csv.out.contains("# accuracy\n"));
        // Retrieval asks single needles (the bundled model's strong variant): one
        // evidence record and its two near-miss distractors.
        kvl::RunReader run(path("demo.kvl"));
        int retrieval = 0;
        for (const kvl::SampleInfo& sample : run.samples()) {
            if (sample.suite != QLatin1String("retrieval"))
                continue;
            ++retrieval;
            QStringList kinds;
            for (const QJsonValue& span : sample.spans)
                kinds << span.toObject().value(QStringLiteral("kind")).toString();
            kinds.sort();
            QCOMPARE(kinds, (QStringList{"distractor", "distractor", "evidence"}));
        }
        QCOMPARE(retrieval, 1);
        QStringList suites;
        for (const kvl::SampleInfo& sample : run.samples())
            suites << sample.suite;
        suites.sort();
        QCOMPARE(suites, (QStringList{"instructions", "multihop", "retrieval"}));
        const Result missing = cli({"demo", "--model", path("no-model"), "--out", path("d2.kvl")});
        QVERIFY(missing.code != 0);
        QVERIFY2(missing.err.contains(path("no-model")), qPrintable(missing.err));
    }

    void infoTokenizeClassify()
    {
        const Result info = cli({"info", "--model", m_model});
        CLI_OK(info);
        QVERIFY(!info.lastJson().isEmpty());
        writeFile(path("text.txt"), "The code of Anna is 4821.");
        const Result tok = cli({"tokenize", "--model", m_model, "--text-file", path("text.txt")});
        CLI_OK(tok);
        QVERIFY(!tok.lastJson().value(QStringLiteral("ids")).toArray().isEmpty());
        // Row 1: measured ECov 0.3 < 0.5 -> low_mapped_coverage. Row 2: ECov 0.95 >= 0.9,
        // |delta_NLL| 0.05 <= 0.1, no TopK -> decode_scorer_candidate.
        writeFile(path("rows.csv"), "ECov_slot,delta_NLL,EAR,coverage_type\n"
                                    "0.3,2,,measured_token_coverage\n"
                                    "0.95,0.05,,measured_token_coverage\n");
        const Result cls = cli({"classify", path("rows.csv")});
        CLI_OK(cls);
        const QJsonObject counts = cls.lastJson();
        QCOMPARE(counts.value(QStringLiteral("low_mapped_coverage")).toInt(), 1);
        QCOMPARE(counts.value(QStringLiteral("decode_scorer_candidate")).toInt(), 1);
        QCOMPARE(counts.value(QStringLiteral("ambiguous")).toInt(), 0);
        const Result rows = cli({"classify", "--rows", path("rows.csv")});
        CLI_OK(rows);
        QCOMPARE(rows.jsonLines().size(), 2);
        QCOMPARE(rows.jsonLines()[0].value(QStringLiteral("signature")).toString(),
                 QStringLiteral("low_mapped_coverage"));
    }

    // Every command that takes --model takes the word "bundled" for the bundled model.
    void bundledModelEverywhere()
    {
        writeFile(path("bundled.txt"), "The code of Anna is 4821.");
        const Result tok =
            cli({"tokenize", "--model", "bundled", "--text-file", path("bundled.txt")});
        CLI_OK(tok);
        QVERIFY(!tok.lastJson().value(QStringLiteral("ids")).toArray().isEmpty());
        const Result gen = cli({"tasks", "generate", "--model", "bundled", "--suite", "retrieval",
                                "--n", "1", "--out", path("bundled.jsonl")});
        CLI_OK(gen);
        QVERIFY2(gen.lastJson()
                     .value(QStringLiteral("tokenizer"))
                     .toString()
                     .endsWith(QStringLiteral("kvlens-tiny/tokenizer.json")),
                 gen.out.constData());
        const Result info = cli({"info", "--model", "bundled"});
        CLI_OK(info);
    }

    // OpenBLAS falls back to SSE3 "Prescott" kernels on CPUs it does not know; the CLI
    // re-executes itself with the kernels the CPU supports, unless the user chose.
    void blasKernelsMatchTheCpu()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("OPENBLAS_CORETYPE"));
        const Result bench = cli({"version"}, {}, env);
        CLI_OK(bench);
        const QString core = bench.lastJson().value(QStringLiteral("blas_core")).toString();
        QVERIFY2(!core.isEmpty(), "the engine should run OpenBLAS");
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            QVERIFY2(core.compare(QLatin1String("Prescott"), Qt::CaseInsensitive) != 0,
                     qPrintable(core));

        env.insert(QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("Prescott"));
        const Result chosen = cli({"version"}, {}, env);
        CLI_OK(chosen);
        QCOMPARE(chosen.lastJson().value(QStringLiteral("blas_core")).toString(),
                 QStringLiteral("Prescott"));
    }

    void missingModelDirectory()
    {
        const QString missing = path("nothing-here");
        const Result r = cli({"run", "--model", missing, "--suite", "retrieval", "--n", "1",
                              "--press", "knorm", "--ratios", "0.5", "--out", path("x.kvl")});
        CLI_FAILS_NAMING(r, missing);
        const Result e = cli({"eval", "--model", missing, "--suite", "retrieval", "--n", "1"});
        CLI_FAILS_NAMING(e, missing);
    }

    void corruptSafetensors()
    {
        const QString broken = path("broken");
        QVERIFY(QDir().mkpath(broken));
        for (const QString& f : QDir(m_model).entryList(QDir::Files))
            QVERIFY(QFile::copy(m_model + QLatin1Char('/') + f, broken + QLatin1Char('/') + f));
        QFile weights(broken + QStringLiteral("/model.safetensors"));
        QVERIFY(weights.open(QIODevice::ReadWrite));
        QVERIFY(weights.resize(weights.size() / 2));
        weights.close();
        const Result r = cli({"run", "--model", broken, "--suite", "retrieval", "--n", "1",
                              "--press", "knorm", "--ratios", "0.5", "--out", path("y.kvl")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains(QStringLiteral("model.safetensors")), qPrintable(r.err));
    }

    // Checkpoints the engine cannot run fail naming the file and the tensor: a NaN or an
    // infinity in the weights at load (forward used to write all-NaN logits and exit
    // 0), and `info` on weights that lack tensors the config asks for.
    void checkpointsTheEngineCannotRun_data()
    {
        QTest::addColumn<QByteArray>("value"); // little-endian F32
        QTest::addColumn<QString>("words");
        QTest::newRow("NaN") << QByteArray("\x00\x00\xc0\x7f", 4) << "holds NaN at element 0";
        QTest::newRow("Inf") << QByteArray("\x00\x00\x80\xff", 4)
                             << "holds an infinity at element 0";
    }
    void checkpointsTheEngineCannotRun()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, words);
        const QString tensor = QStringLiteral("model.layers.1.mlp.up_proj.weight");
        const QString poisoned = modelCopy(QStringLiteral("poisoned-") + QTest::currentDataTag());
        overwriteTensorStart(poisoned + QStringLiteral("/model.safetensors"), tensor, value);
        writeFile(path("ids.json"), "[1, 2, 3]");
        const Result forward = cli({"forward", "--model", poisoned, "--ids-file", path("ids.json"),
                                    "--out", path("poisoned-logits.safetensors")});
        CLI_FAILS_NAMING(forward, poisoned + QStringLiteral("/model.safetensors"));
        QVERIFY2(forward.err.contains(QStringLiteral("tensor '%1' %2").arg(tensor, words)),
                 qPrintable(forward.err));

        // info reads no weight, but the tensors must be there: a config asking for a
        // third layer, and weights with an empty header.
        const QString deeper = modelCopy(QStringLiteral("deeper"));
        QFile config(deeper + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(config.readAll()).object();
        config.close();
        json.insert(QStringLiteral("num_hidden_layers"), 3);
        writeFile(deeper + QStringLiteral("/config.json"), QJsonDocument(json).toJson());
        const Result info = cli({"info", "--model", deeper});
        CLI_FAILS_NAMING(info, deeper + QStringLiteral("/model.safetensors"));
        QVERIFY2(info.err.contains(QStringLiteral("missing tensor 'model.layers.2.")),
                 qPrintable(info.err));
        const QString empty = modelCopy(QStringLiteral("empty-header"));
        writeFile(empty + QStringLiteral("/model.safetensors"),
                  QByteArray("\x02\0\0\0\0\0\0\0{}", 10));
        const Result emptyInfo = cli({"info", "--model", empty});
        CLI_FAILS_NAMING(emptyInfo, empty + QStringLiteral("/model.safetensors"));
        QVERIFY2(
            emptyInfo.err.contains(QStringLiteral("missing tensor 'model.embed_tokens.weight'")),
            qPrintable(emptyInfo.err));
    }

    void badJsonlLine()
    {
        writeFile(path("bad.jsonl"),
                  R"({"id": "a", "context": "x y z", "question": "q?", "answer": "z"})"
                  "\n"
                  R"({"id": "b", "context": "x y z", "question": "q?", "answer": 7})"
                  "\n");
        const Result r = cli({"run", "--model", m_model, "--dataset", path("bad.jsonl"), "--press",
                              "knorm", "--ratios", "0.5", "--out", path("z.kvl")});
        CLI_FAILS_NAMING(r, path("bad.jsonl"));
        QVERIFY2(r.err.contains(QStringLiteral("line 2")), qPrintable(r.err));
    }

    // A released dataset file imported, then accepted by `tasks validate` under the
    // bundled model's tokenizer (every span covers a token); a bad record exits 1
    // naming the file and the record, and writes nothing.
    void tasksImportThenValidate()
    {
        const QString data = QStringLiteral(KVLENS_TEST_DATA "/tasks/import/");
        const Result imported = cli({"tasks", "import", "--format", "hotpotqa",
                                     data + "hotpotqa.json", "--out", path("hotpot.jsonl")});
        CLI_OK(imported);
        const QJsonObject summary = imported.lastJson();
        QCOMPARE(summary.value(QStringLiteral("samples")).toInt(), 2);
        const QJsonObject spans = summary.value(QStringLiteral("spans")).toObject();
        QCOMPARE(spans.value(QStringLiteral("evidence")).toInt(), 4);
        QCOMPARE(spans.value(QStringLiteral("distractor")).toInt(), 3);

        const Result valid = cli({"tasks", "validate", "--tokenizer",
                                  KVLENS_SOURCE_DIR "/resources/models/kvlens-tiny/tokenizer.json",
                                  path("hotpot.jsonl")});
        CLI_OK(valid);
        QCOMPARE(valid.lastJson().value(QStringLiteral("samples")).toInt(), 2);
        QCOMPARE(valid.lastJson().value(QStringLiteral("spans")).toInt(), 7);
        QVERIFY(valid.lastJson().value(QStringLiteral("ok")).toBool());

        const Result bad = cli({"tasks", "import", "--format", "hotpotqa",
                                data + "hotpotqa_bad.json", "--out", path("hotpot-bad.jsonl")});
        CLI_FAILS_NAMING(bad, data + "hotpotqa_bad.json: record 2");
        QVERIFY(!QFile::exists(path("hotpot-bad.jsonl")));

        const Result list = cli({"tasks", "import", "--list"});
        CLI_OK(list);
        QVERIFY(list.out.contains("kvdiagnosis"));
    }

    // Samples record the tokenizer that counted their lengths; run and compress refuse
    // samples counted by another one than the model's, before any work.
    void samplesOfAnotherTokenizerAreRefused()
    {
        const QString byteSamples = path("byte-counted.jsonl");
        const Result generated = cli({"tasks", "generate", "--suite", "retrieval", "--n", "1",
                                      "--tokens", "200:300", "--out", byteSamples});
        CLI_OK(generated);
        QCOMPARE(generated.lastJson().value(QStringLiteral("tokenizer_id")).toString(),
                 QStringLiteral("byte"));
        const Result run = cli({"run", "--model", m_model, "--dataset", byteSamples, "--press",
                                "knorm", "--ratios", "0.5", "--out", path("byte-counted.kvl")});
        CLI_FAILS_NAMING(run, byteSamples);
        QVERIFY2(run.err.contains(QStringLiteral("meta.tokenizer byte")), qPrintable(run.err));
        QVERIFY2(run.err.contains(m_model + QStringLiteral("/tokenizer.json")),
                 qPrintable(run.err));
        QVERIFY(!QFile::exists(path("byte-counted.kvl")));
        const QStringList compress{"compress",
                                   "--press",
                                   "knorm",
                                   "--ratio",
                                   "0.5",
                                   "--model",
                                   m_model,
                                   "--out",
                                   path("kept.safetensors"),
                                   "--max-new-tokens",
                                   "2",
                                   "--sample"};
        const Result refused = cli(compress + QStringList{byteSamples});
        CLI_FAILS_NAMING(refused, byteSamples);
        QVERIFY2(refused.err.contains(QStringLiteral("meta.tokenizer byte")),
                 qPrintable(refused.err));

        const QString modelSamples = path("model-counted.jsonl");
        CLI_OK(cli({"tasks", "generate", "--suite", "retrieval", "--n", "1", "--tokens", "200:300",
                    "--model", m_model, "--out", modelSamples}));
        CLI_OK(cli(compress + QStringList{modelSamples}));
    }

    // compress answers a decode-time press with its own decode loop and an offloading
    // press with retrieval at every step, as the sweep does: the same answer as the run's
    // row, the press's record in --json, and the mask held at the end / the retrieved
    // share in the safetensors.
    void compressDecodesAsTheSweepDoes()
    {
        const QString samples = path("decode-time.jsonl");
        CLI_OK(cli({"tasks", "generate", "--suite", "retrieval", "--n", "1", "--tokens", "200:300",
                    "--model", m_model, "--out", samples}));
        const QStringList presses{"decoding(knorm):interval=1,target=48", "quest:page=4"};
        const Result run = cli({"run", "--model", m_model, "--dataset", samples, "--press",
                                presses.join(','), "--ratios", "0.5", "--max-new-tokens", "12",
                                "--quiet", "--out", path("decode-time.kvl")});
        CLI_OK(run);
        kvl::RunReader reader(path("decode-time.kvl"));
        QHash<QString, QString> rowAnswers; // press spec -> the row's answer
        for (const kvl::ConfigRecord& config : reader.configs())
            for (const kvl::StoredResult& r : reader.results())
                if (r.configId == config.id)
                    rowAnswers.insert(config.params.value(QStringLiteral("spec")).toString(),
                                      r.record.answer);
        for (const QString& press : presses) {
            const QString out = path("decode-time.safetensors");
            const Result c =
                cli({"compress", "--model", m_model, "--sample", samples, "--press", press,
                     "--ratio", "0.5", "--max-new-tokens", "12", "--out", out, "--json"});
            CLI_OK(c);
            const QJsonObject summary = c.lastJson();
            const QString spec = summary.value(QStringLiteral("press")).toString();
            QVERIFY2(rowAnswers.contains(spec), qPrintable(spec));
            QCOMPARE(summary.value(QStringLiteral("answer")).toString(), rowAnswers.value(spec));
            const bool decoding = press.startsWith(QStringLiteral("decoding"));
            const QJsonObject record =
                summary.value(QLatin1String(decoding ? "decoding" : "retrieval")).toObject();
            // decoding: one record per compression (interval 1: from the question on);
            // retrieval: the number of forwards that retrieved.
            const QJsonValue steps = record.value(QStringLiteral("steps"));
            QVERIFY2(decoding ? !steps.toArray().isEmpty() : steps.toInt() > 0,
                     qPrintable(QJsonDocument(summary).toJson()));
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray head = file.read(8);
            const QJsonObject tensors =
                QJsonDocument::fromJson(file.read(qFromLittleEndian<qint64>(head.constData())))
                    .object();
            QVERIFY(tensors.contains(QStringLiteral("kept")));
            QVERIFY2(tensors.contains(QLatin1String(decoding ? "final_kept" : "retrieved_share")),
                     qPrintable(QJsonDocument(tensors).toJson()));
        }
    }

    // Inputs that used to pass silently: invalid UTF-8 in a text file (decoded to
    // U+FFFD), a dataset of blank lines only (a run that did nothing and exited 0).
    void textInputsThatCannotBeRead()
    {
        writeFile(path("latin1.txt"), "caf\xe9 au lait");
        const Result tok = cli({"tokenize", "--model", m_model, "--text-file", path("latin1.txt")});
        CLI_FAILS_NAMING(tok, path("latin1.txt"));
        QVERIFY2(tok.err.contains(QStringLiteral("invalid byte 0xe9 at offset 3")),
                 qPrintable(tok.err));
        writeFile(path("question.txt"), "\nQuestion: what?\nAnswer:");
        const Result gen = cli({"generate", "--model", m_model, "--context-file",
                                path("latin1.txt"), "--question-file", path("question.txt")});
        CLI_FAILS_NAMING(gen, path("latin1.txt"));

        writeFile(path("blank.jsonl"), "\n  \n\n");
        const Result run = cli({"run", "--model", m_model, "--dataset", path("blank.jsonl"),
                                "--press", "knorm", "--ratios", "0.5", "--out", path("blank.kvl")});
        CLI_FAILS_NAMING(run, path("blank.jsonl"));
        QVERIFY2(run.err.contains(QStringLiteral("no samples")), qPrintable(run.err));
    }

    void anotherSpecOnExistingRun()
    {
        QStringList args = quickRun(m_run);
        args[args.indexOf(QStringLiteral("0.5"))] = QStringLiteral("0.25");
        const Result r = cli(args);
        CLI_FAILS_NAMING(r, m_run);
        QVERIFY2(r.err.contains(QStringLiteral("ratios")), qPrintable(r.err));
    }

    // --seed overrides the spec's seed: recorded in the run's state, and the weights
    // differ from the spec's seed after the same single step.
    void trainSeedOverride()
    {
        for (const char* seed : {"3", "9"})
            CLI_OK(cli({"train", "--spec", path("train.json"), "--out",
                        path(QStringLiteral("seed%1").arg(QLatin1String(seed))), "--tokenizer",
                        path("tok.json"), "--max-steps", "1", "--seed", seed}));
        QFile stateFile(path("seed9/checkpoint/trainer_state.json"));
        QVERIFY(stateFile.open(QIODevice::ReadOnly));
        const QJsonObject spec = QJsonDocument::fromJson(stateFile.readAll())
                                     .object()
                                     .value(QStringLiteral("spec"))
                                     .toObject();
        QCOMPARE(spec.value(QStringLiteral("seed")).toInt(), 9);
        QFile seed9(path("seed9/checkpoint/model.safetensors"));
        QFile seed3(path("seed3/checkpoint/model.safetensors"));
        QVERIFY(seed9.open(QIODevice::ReadOnly) && seed3.open(QIODevice::ReadOnly));
        QVERIFY(seed9.readAll() != seed3.readAll());
    }

    // --init-from grows the tiny checkpoint into a three-layer model (the spec's shape).
    void trainInitFromOverride()
    {
        writeFile(path("grow.json"), R"({
            "model": {"hidden": 32, "layers": 3, "heads": 2, "kv_heads": 1, "intermediate": 64,
                      "max_position": 512},
            "threads": 1, "checkpoint_every": 1,
            "stages": [{"name": "recall", "steps": 1, "warmup_steps": 1,
                        "batch_sequences": 4, "recall": {"pairs": [4, 4], "filler": [0, 0]}}]})");
        CLI_OK(cli({"train", "--spec", path("grow.json"), "--out", path("grown"), "--tokenizer",
                    path("tok.json"), "--init-from", m_model}));
        QFile config(path("grown/checkpoint/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(config.readAll())
                     .object()
                     .value(QStringLiteral("num_hidden_layers"))
                     .toInt(),
                 3);
        const Result bad = cli({"train", "--spec", path("grow.json"), "--out", path("nogrow"),
                                "--tokenizer", path("tok.json"), "--init-from", path("missing")});
        CLI_FAILS_NAMING(bad, QStringLiteral("missing"));
    }

    // A stage with task suites evaluates its checkpoints on held-out samples: one
    // {"kind": "eval"} line per suite, with a score in [0, 1] over the samples asked for.
    void trainEvaluatesHeldOutSamples()
    {
        writeFile(path("suites.json"), R"({
            "model": {"hidden": 32, "layers": 2, "heads": 2, "kv_heads": 1, "intermediate": 64,
                      "max_position": 512},
            "threads": 1, "checkpoint_every": 10, "eval_every": 1, "eval_samples": 3,
            "stages": [{"name": "tasks", "steps": 1, "warmup_steps": 1, "batch_sequences": 2,
                        "recall_share": 0, "context_tokens": [256, 400],
                        "suites": {"retrieval": 1, "instructions": 1}}]})");
        const Result r = cli({"train", "--spec", path("suites.json"), "--out", path("suites"),
                              "--tokenizer", path("tok.json")});
        CLI_OK(r);
        QStringList suites;
        for (const QByteArray& line : r.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("kind")).toString() != QLatin1String("eval"))
                continue;
            suites << o.value(QStringLiteral("suite")).toString();
            QCOMPARE(o.value(QStringLiteral("step")).toInt(), 1);
            QCOMPARE(o.value(QStringLiteral("n")).toInt() +
                         o.value(QStringLiteral("skipped")).toInt(),
                     3);
            const double score = o.value(QStringLiteral("score")).toDouble(-1);
            QVERIFY2(score >= 0.0 && score <= 1.0, qPrintable(line));
        }
        QCOMPARE(suites, (QStringList{"instructions", "retrieval"}));
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no out") << QStringList{"run", "--model", "m", "--suite", "retrieval"};
        QTest::newRow("bad shard")
            << QStringList{"run", "--model", "m",   "--suite", "retrieval", "--n",
                           "1",   "--shard", "3/2", "--out",   "o.kvl"};
        QTest::newRow("no n") << QStringList{"run",       "--model", "m",    "--suite",
                                             "retrieval", "--out",   "o.kvl"};
        QTest::newRow("bad ratio")
            << QStringList{"run",     "--model", "m",        "--suite", "retrieval", "--n",  "1",
                           "--press", "knorm",   "--ratios", "1.5",     "--out",     "o.kvl"};
        QTest::newRow("eval no n") << QStringList{"eval", "--model", "m", "--suite", "retrieval"};
        QTest::newRow("train bad seed")
            << QStringList{"train", "--spec", "train.json", "--out", "t", "--seed", "x"};
    }
    void badArguments()
    {
        QFETCH(QStringList, args);
        const Result r = cli(args, m_dir.path());
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(QStringLiteral("error")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
