// The sweep runner on a tiny real checkpoint: row counts and the FullCache baseline,
// invariants of a ratio-0 configuration, blobs by policy, resume after an interruption,
// shards + merge = one run, a too-long sample refused (or skipped with its reason), a
// layout error before the spec is recorded, stored attention pooled, beta = 1
// interventions that change nothing, a refused resume with another spec or other sample
// texts (and a refused merge of such runs), cancellation.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "runfixture.h"

#include "cache/pressprefill.h"
#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "diagnose/attentionpooling.h"
#include "diagnose/transition.h"
#include "model/transformer.h"
#include "run/answerrun.h"
#include "run/experimentspec.h"
#include "run/preparedsample.h"
#include "run/sampleevaluator.h"
#include "run/sampleplan.h"
#include "run/sweepbenchmark.h"
#include "run/sweepconfig.h"
#include "run/sweeprunner.h"
#include "store/resultcolumns.h"
#include "store/runmerge.h"
#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/sqlitedatabase.h"
#include "tasks/samplejsonl.h"
#include "tokenizer/tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {

constexpr int kSamples = 4;
constexpr int kConfigs = 4;  // streamingllm, knorm × 0, 0.5
constexpr int kHeadDim = 16; // hidden 32 / 2 heads
constexpr int kLayers = 2;
constexpr int kKvHeads = 1;

ExperimentSpec specFor(const QString& model, const QString& extra = {})
{
    const QString json = QStringLiteral(R"({"model": "%1",
        "samples": [{"suite": "retrieval", "n": %2, "tokens": "200:300", "seed": 3}],
        "compressors": ["streamingllm", "knorm"], "ratios": [0.0, 0.5],
        "max_new_tokens": 6, "threads": 1 %3})")
                             .arg(model)
                             .arg(kSamples)
                             .arg(extra);
    return ExperimentSpec::fromJson(QJsonDocument::fromJson(json.toUtf8()).object(),
                                    QStringLiteral("test spec"));
}

SweepSummary runSweep(const ExperimentSpec& spec, const QString& out, SweepOptions options = {})
{
    options.modelDir = spec.model;
    return SweepRunner(spec, options).run(out);
}

// Everything a row says except timings, as text: two runs agree when these agree.
QMap<QString, QString> rowsOf(const QString& path)
{
    RunReader reader(path);
    QMap<QString, QString> rows;
    for (const StoredResult& r : reader.results()) {
        QJsonObject o{{QStringLiteral("answer"), r.record.answer},
                      {QStringLiteral("correct"), r.record.correct},
                      {QStringLiteral("metrics"), diagnosticRowToJson(r.record.metrics)},
                      {QStringLiteral("kv"), double(r.record.kvBytes.value_or(-1))},
                      {QStringLiteral("ger"), r.record.ger.value_or(-1)},
                      {QStringLiteral("transition"),
                       r.record.transition ? transitionName(*r.record.transition) : QString()},
                      {QStringLiteral("mask"), r.hasMask},
                      {QStringLiteral("attention"), r.hasAttention}};
        QJsonArray interventions;
        for (const InterventionRecord& i : reader.interventions(r.sampleId, r.configId))
            interventions.append(QStringLiteral("%1:%2:%3").arg(i.kind, i.answer).arg(i.repaired));
        o.insert(QStringLiteral("interventions"), interventions);
        rows.insert(r.sampleKey + QLatin1Char('|') + r.record.configKey,
                    QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
    }
    return rows;
}

// A retrieval question the tiny tokenizer knows the words of.
Sample codeSample(const QString& id)
{
    Sample s;
    s.id = id;
    s.suite = QStringLiteral("retrieval");
    s.context = QStringLiteral("The code of Anna is 4821. The code of Ben is 1234.");
    s.question = QStringLiteral("\nQuestion: What is the code of Anna?\nAnswer:");
    s.answer = QStringLiteral("4821");
    s.spans.push_back({SpanKind::Evidence, InstructionRole::None, QStringLiteral("Anna"),
                       SpanField::Context, 0, 25});
    return s;
}

ExperimentSpec jsonlSpec(const QString& model, const QString& data, const QString& extra = {})
{
    const QString json = QStringLiteral(R"({"model": "%1", "samples": [{"jsonl": "%2"}],
        "compressors": ["knorm"], "ratios": [0.5], "threads": 1 %3})")
                             .arg(model, data, extra);
    return ExperimentSpec::fromJson(QJsonDocument::fromJson(json.toUtf8()).object(),
                                    QStringLiteral("spec"));
}

} // namespace

class TestSweepRunner : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::TinyModel> m_model;
    QTemporaryDir m_dir;
    QString m_straight; // one uninterrupted run, the reference of the other tests

    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

  private slots:
    void initTestCase()
    {
        m_model = std::make_unique<test::TinyModel>(512);
        m_straight = path("straight.kvl");
        std::vector<SweepProgress> progress;
        SweepOptions options;
        options.progress = [&](const SweepProgress& p) { progress.push_back(p); };
        const SweepSummary s = runSweep(specFor(m_model->checkpoint), m_straight, options);
        QCOMPARE(s.ran, kSamples);
        QCOMPARE(s.skipped, 0);
        QVERIFY(s.finished);
        QCOMPARE(progress.size(), size_t(kSamples));
        for (int i = 0; i < kSamples; ++i) {
            QCOMPARE(progress[size_t(i)].done, i + 1);
            QCOMPARE(progress[size_t(i)].total, kSamples);
        }
        QCOMPARE(*progress.back().etaS, 0.0);
    }

    void rowsAndBaseline()
    {
        RunReader reader(m_straight);
        QCOMPARE(reader.sampleCount(), qint64(kSamples));
        QCOMPARE(reader.resultCount(), qint64(kSamples * (1 + kConfigs)));
        QCOMPARE(reader.runInfo().status, QStringLiteral("finished"));
        QMap<QString, bool> fullCorrect;
        for (const StoredResult& r : reader.results())
            if (r.compressor == kFullCacheCompressor) {
                QVERIFY(!fullCorrect.contains(r.sampleKey));
                QVERIFY(!r.record.transition);
                fullCorrect.insert(r.sampleKey, r.record.correct);
            }
        QCOMPARE(fullCorrect.size(), kSamples);
        for (const StoredResult& r : reader.results())
            if (r.compressor != kFullCacheCompressor) {
                QVERIFY(r.record.transition);
                QCOMPARE(*r.record.transition,
                         transitionOf(fullCorrect.value(r.sampleKey), r.record.correct));
            }
    }

    // Compression at ratio 0 keeps everything: the row must equal FullCache.
    void ratioZeroEqualsFullCache()
    {
        RunReader reader(m_straight);
        QMap<QString, StoredResult> full;
        for (const StoredResult& r : reader.results())
            if (r.compressor == kFullCacheCompressor)
                full.insert(r.sampleKey, r);
        int checked = 0;
        for (const StoredResult& r : reader.results({.ratio = 0.0})) {
            if (r.compressor == kFullCacheCompressor)
                continue;
            const StoredResult& f = full[r.sampleKey];
            const DiagnosticRow& m = r.record.metrics;
            QCOMPARE(r.record.answer, f.record.answer);
            QCOMPARE(r.record.kvBytes, f.record.kvBytes);
            QVERIFY(m.errSlot && m.ecovSlot); // every retrieval sample has evidence
            QCOMPARE(*m.errSlot, 1.0);
            QCOMPARE(*m.ecovSlot, 1.0);
            QVERIFY(std::abs(*m.deltaNll) < 1e-4);
            QVERIFY(std::abs(*m.gpr - 1.0) < 1e-4);
            QVERIFY(std::abs(*m.kl) < 1e-5);
            QCOMPARE(*m.topK, 1.0);
            QCOMPARE(*m.goldRankShift, 0.0);
            QVERIFY(std::abs(*m.ear - 1.0) < 1e-4);
            QCOMPARE(*r.record.ger, 0.0);
            ++checked;
        }
        QCOMPARE(checked, kSamples * 2);
    }

    // Half the entries removed per head: kv bytes and kept counts follow by hand.
    void halfRatioBytesAndBlobs()
    {
        RunReader reader(m_straight);
        QMap<QString, int> contextLen;
        for (const SampleInfo& s : reader.samples())
            contextLen.insert(s.key, s.contextLen);
        for (const StoredResult& r : reader.results()) {
            const int t = contextLen.value(r.sampleKey);
            QVERIFY(t > 200);
            const bool full = r.compressor == kFullCacheCompressor;
            const int kept = full ? t : (r.ratio == 0.5 ? t / 2 : t);
            // K and V, fp16, per (layer, kv-head, kept position).
            QCOMPARE(*r.record.kvBytes, qint64(kLayers) * kKvHeads * kept * kHeadDim * 2 * 2);
            // Default blob policy: masks on compressed rows, attention on FullCache and
            // on rows answered wrong.
            QCOMPARE(r.hasMask, !full);
            QCOMPARE(r.hasAttention, full || !r.record.correct);
            if (!full) {
                const std::optional<KeptMask> mask = reader.mask(r.sampleId, r.configId);
                QVERIFY(mask);
                QCOMPARE(mask->contextLen, t);
                QCOMPARE(mask->keptCount(), qint64(kLayers) * kKvHeads * kept);
            }
        }
    }

    void resumeAfterInterruption()
    {
        const ExperimentSpec spec = specFor(m_model->checkpoint);
        const QString out = path("resumed.kvl");
        SweepOptions first;
        first.maxSamples = 2;
        const SweepSummary cut = runSweep(spec, out, first);
        QCOMPARE(cut.ran, 2);
        QVERIFY(cut.interrupted);
        QVERIFY(!cut.finished);
        QCOMPARE(RunReader(out).runInfo().status, QStringLiteral("running"));

        const SweepSummary rest = runSweep(spec, out);
        QCOMPARE(rest.resumed, 2);
        QCOMPARE(rest.ran, kSamples - 2); // the first two are not recomputed
        QVERIFY(rest.finished);
        QCOMPARE(RunReader(out).runInfo().status, QStringLiteral("finished"));
        QCOMPARE(rowsOf(out), rowsOf(m_straight));

        const SweepSummary again = runSweep(spec, out);
        QCOMPARE(again.ran, 0);
        QCOMPARE(again.done, kSamples);
    }

    // A resumed sweep's progress lines and summary give the run's accuracy, the rows of
    // the resumed samples included (here marked correct in the file, so that they
    // differ from what the second invocation's own samples give).
    void resumeReportsRunTotals()
    {
        const ExperimentSpec spec = specFor(m_model->checkpoint);
        const QString out = path("totals.kvl");
        SweepOptions first;
        first.maxSamples = 2;
        QCOMPARE(runSweep(spec, out, first).ran, 2);
        // Re-stamped (issue 18): an edit that leaves the checksums stale is damage.
        SqliteDatabase(out, SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET correct = 1; "
                                 "UPDATE result AS r SET row_checksum = %1")
                      .arg(resultChecksumSql(QStringLiteral("r"))));

        std::vector<SweepProgress> progress;
        SweepOptions rest;
        rest.progress = [&](const SweepProgress& p) { progress.push_back(p); };
        const SweepSummary summary = runSweep(spec, out, rest);
        QCOMPARE(summary.ran, kSamples - 2);
        QCOMPARE(progress.size(), size_t(kSamples - 2));

        qint64 full = 0, fullCorrect = 0, compressed = 0, compressedCorrect = 0;
        for (const StoredResult& r : RunReader(out).results()) {
            const bool isFull = r.compressor == kFullCacheCompressor;
            (isFull ? full : compressed) += 1;
            (isFull ? fullCorrect : compressedCorrect) += r.record.correct ? 1 : 0;
        }
        QCOMPARE(full, qint64(kSamples));
        QVERIFY(fullCorrect >= 2 && compressedCorrect >= 2 * kConfigs);
        const double fullAccuracy = double(fullCorrect) / double(full);
        const double compressedAccuracy = double(compressedCorrect) / double(compressed);
        QCOMPARE(*progress.back().fullAccuracy, fullAccuracy);
        QCOMPARE(*progress.back().compressedAccuracy, compressedAccuracy);
        QCOMPARE(*summary.fullAccuracy, fullAccuracy);
        QCOMPARE(*summary.compressedAccuracy, compressedAccuracy);
        QCOMPARE(progress.back().toJson().value(QStringLiteral("accuracy_compressed")).toDouble(),
                 compressedAccuracy);
    }

    void shardsMergeToOneRun()
    {
        const ExperimentSpec spec = specFor(m_model->checkpoint);
        QStringList shards;
        for (int k = 1; k <= 2; ++k) {
            SweepOptions options;
            options.shard = Shard::parse(QStringLiteral("%1/2").arg(k));
            const QString out = m_dir.filePath(QStringLiteral("shard-%1.kvl").arg(k));
            const SweepSummary s = runSweep(spec, out, options);
            QCOMPARE(s.total, kSamples / 2);
            QVERIFY(s.finished);
            shards << out;
        }
        const QString merged = path("merged.kvl");
        mergeRuns(shards, merged);
        QCOMPARE(rowsOf(merged), rowsOf(m_straight));
        QCOMPARE(RunReader(merged).runInfo().status, QStringLiteral("finished"));
    }

    // A sample longer than the model allows stops the run before anything runs or the
    // spec is recorded, naming the file, the sample, its token count and the limit; with
    // skip_too_long (run --skip-too-long) it is recorded as skipped and the rest runs.
    void tooLongSampleIsRefusedOrSkipped()
    {
        const Sample shortOne = codeSample(QStringLiteral("short"));
        Sample longOne = shortOne;
        longOne.id = QStringLiteral("long");
        longOne.context = QStringLiteral("The code of Anna is 4821. ") +
                          QStringLiteral("Nothing happened that day. ").repeated(300);
        const QString data = path("mixed.jsonl");
        // The short sample first: it would have run before the long one was reached.
        writeSamples(data, {shortOne, longOne});
        const QString out = path("skipped.kvl");
        try {
            runSweep(jsonlSpec(m_model->checkpoint, data), out);
            QFAIL("no error");
        } catch (const Error& e) {
            const QString m = e.message();
            for (const QString& part :
                 {data, QStringLiteral("'long'"), QStringLiteral("max_position_embeddings is 512"),
                  QStringLiteral("--skip-too-long")})
                QVERIFY2(m.contains(part), qPrintable(part + QStringLiteral(" not in: ") + m));
            // Its token count: the context's tokens in the message are more than 512.
            const QRegularExpressionMatch n =
                QRegularExpression(QStringLiteral("needs (\\d+) positions")).match(m);
            QVERIFY2(n.hasMatch() && n.captured(1).toInt() > 512, qPrintable(m));
        }
        QVERIFY(RunReader(out).runInfo().spec.isEmpty());
        QCOMPARE(RunReader(out).sampleCount(), qint64(0));

        const ExperimentSpec spec =
            jsonlSpec(m_model->checkpoint, data, QStringLiteral(R"(, "skip_too_long": true)"));
        QCOMPARE(spec.toJson().value(QStringLiteral("skip_too_long")), QJsonValue(true));
        const SweepSummary s = runSweep(spec, out);
        QCOMPARE(s.skipped, 1);
        QCOMPARE(s.ran, 2);
        QVERIFY(s.finished);
        RunReader reader(out);
        const std::optional<SampleInfo> skipped = reader.sample(QStringLiteral("long"));
        QVERIFY(skipped);
        const QString reason = skipped->meta.value(QStringLiteral("skipped")).toString();
        QVERIFY2(reason.contains(QStringLiteral("sample long")), qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("config.json")), qPrintable(reason));
        QCOMPARE(reader.results({.sampleKey = QStringLiteral("long")}).size(), size_t(0));
        QCOMPARE(reader.results({.sampleKey = QStringLiteral("short")}).size(), size_t(2));
        // What the report and the window's status line count: one sample, no configuration.
        const std::vector<MissingCell> missing = reader.missingRows();
        QCOMPARE(missing.size(), size_t(1));
        QVERIFY(missing[0].compressor.isEmpty());
        QCOMPARE(missing[0].samples, qint64(1));
        QCOMPARE(missing[0].reason, reason);
        QCOMPARE(RunReader(out).runInfo().spec.value(QStringLiteral("skip_too_long")),
                 QJsonValue(true));
        // A rerun does not retry what was skipped.
        QCOMPARE(runSweep(spec, out).ran, 0);
    }

    // A configuration that fails on one sample (SnapKV's window of 40 queries over a
    // shorter context) loses that row only: FullCache and the other configurations keep
    // theirs, the sample records why under failed_configs, and the report counts it.
    void oneFailingConfigurationKeepsTheOtherRows()
    {
        const Sample shortOne = codeSample(QStringLiteral("short"));
        Sample longOne = shortOne;
        longOne.id = QStringLiteral("long");
        longOne.context += QStringLiteral(" Nothing happened that day.").repeated(8);
        const QString data = path("failing.jsonl");
        writeSamples(data, {shortOne, longOne});
        const QString out = path("failing.kvl");
        const ExperimentSpec spec = ExperimentSpec::fromJson(
            QJsonDocument::fromJson(QStringLiteral(R"({"model": "%1", "samples": [{"jsonl": "%2"}],
                "compressors": ["knorm", "snapkv:window=40"], "ratios": [0.5], "threads": 1})")
                                        .arg(m_model->checkpoint, data)
                                        .toUtf8())
                .object(),
            QStringLiteral("spec"));
        const SweepSummary s = runSweep(spec, out);
        QCOMPARE(s.ran, 2);
        QCOMPARE(s.skipped, 0);
        RunReader reader(out);
        QVERIFY(reader.sample(QStringLiteral("long"))->contextLen > 40);
        QVERIFY(reader.sample(QStringLiteral("short"))->contextLen < 40);
        QCOMPARE(reader.results({.sampleKey = QStringLiteral("long")}).size(), size_t(3));
        const std::vector<StoredResult> kept =
            reader.results({.sampleKey = QStringLiteral("short")});
        QCOMPARE(kept.size(), size_t(2));
        QString snapKey;
        for (const ConfigRecord& c : reader.configs())
            if (c.params.value(QStringLiteral("spec"))
                    .toString()
                    .startsWith(QLatin1String("snapkv")))
                snapKey = c.key;
        QVERIFY(!snapKey.isEmpty());
        for (const StoredResult& r : kept)
            QVERIFY(r.record.configKey != snapKey);
        const QJsonObject failed =
            reader.sample(QStringLiteral("short"))->meta.value(kFailedConfigs).toObject();
        QCOMPARE(failed.keys(), QStringList{snapKey});
        QVERIFY2(failed.value(snapKey).toString().contains(QLatin1String("40")),
                 qPrintable(failed.value(snapKey).toString()));
        QVERIFY(!reader.sample(QStringLiteral("long"))->meta.contains(kFailedConfigs));
        const QJsonArray missing = runReportJson(reader).value(QStringLiteral("missing")).toArray();
        QCOMPARE(missing.size(), 1);
        QCOMPARE(missing[0].toObject().value(QStringLiteral("samples")).toInt(), 1);
        const std::vector<MissingCell> cells = reader.missingRows();
        QCOMPARE(cells.size(), size_t(1));
        QCOMPARE(cells[0].compressor, QStringLiteral("snapkv:window=40")); // as the spec named it
        QCOMPARE(cells[0].ratio, 0.5);
        QCOMPARE(cells[0].reason, failed.value(snapKey).toString());
    }

    // A prompt that cannot be laid out (a system turn, no template) stops the run before
    // the spec and its chat_template_used are recorded: the same file then runs with a
    // template that has a system turn.
    void layoutErrorLeavesTheFileForTheCorrectedTemplate()
    {
        const Sample plain = codeSample(QStringLiteral("plain"));
        Sample withSystem = codeSample(QStringLiteral("sys"));
        withSystem.system = QStringLiteral("Answer with the code only.");
        const QString data = path("system.jsonl");
        writeSamples(data, {plain, withSystem});
        const QString out = path("layout.kvl");
        try {
            runSweep(jsonlSpec(m_model->checkpoint, data), out);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(data) && e.message().contains(QStringLiteral("'sys'")),
                     qPrintable(e.message()));
        }
        QVERIFY(RunReader(out).runInfo().spec.isEmpty());
        QCOMPARE(RunReader(out).sampleCount(), qint64(0));

        const QString tmpl = path("turns.jinja");
        QFile file(tmpl);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}"
                   "{% if add_generation_prompt %}[assistant] {% endif %}");
        file.close();
        const ExperimentSpec fixed = jsonlSpec(
            m_model->checkpoint, data, QStringLiteral(R"(, "chat_template": "%1")").arg(tmpl));
        const SweepSummary s = runSweep(fixed, out);
        QCOMPARE(s.ran, 2);
        QCOMPARE(s.skipped, 0);
        QVERIFY(s.finished);
        const QJsonObject used =
            RunReader(out).runInfo().spec.value(QStringLiteral("chat_template_used")).toObject();
        QVERIFY2(used.value(QStringLiteral("template")).toString().contains(tmpl),
                 QJsonDocument(used).toJson().constData());
    }

    // Stored attention is pooled to store.attention_positions columns: each column the sum
    // of its positions' attention, the same as pooling the unpooled run's blob.
    void storedAttentionIsBounded()
    {
        const QString extra = QStringLiteral(R"(, "store": {"attention": "all"%1})");
        const QString fullOut = path("attention-full.kvl"), pooledOut = path("attention-16.kvl");
        runSweep(specFor(m_model->checkpoint,
                         extra.arg(QStringLiteral(R"(, "attention_positions": 0)"))),
                 fullOut);
        const ExperimentSpec pooledSpec = specFor(
            m_model->checkpoint, extra.arg(QStringLiteral(R"(, "attention_positions": 16)")));
        QCOMPARE(pooledSpec.store.attentionPositions, 16);
        runSweep(pooledSpec, pooledOut);
        RunReader full(fullOut), pooled(pooledOut);
        QMap<QString, int> contextLen;
        for (const SampleInfo& s : pooled.samples())
            contextLen.insert(s.key, s.contextLen);
        QMap<QString, StoredResult> fullRows;
        for (const StoredResult& r : full.results())
            fullRows.insert(r.sampleKey + QLatin1Char('|') + r.record.configKey, r);
        int checked = 0;
        for (const StoredResult& r : pooled.results()) {
            QVERIFY(r.hasAttention);
            const int t = contextLen.value(r.sampleKey);
            QVERIFY(t > 200);
            const std::optional<AttentionSummary> stored = pooled.attention(r.sampleId, r.configId);
            QVERIFY(stored);
            const int width = attentionColumnWidth(t, 16);
            QCOMPARE(width, (t + 15) / 16);
            QVERIFY(stored->contextLen <= 16);
            QCOMPARE(stored->contextLen, (t + width - 1) / width);
            const StoredResult& f = fullRows[r.sampleKey + QLatin1Char('|') + r.record.configKey];
            const std::optional<AttentionSummary> unpooled = full.attention(f.sampleId, f.configId);
            QVERIFY(unpooled);
            QCOMPARE(unpooled->contextLen, t);
            const AttentionSummary expected = poolAttention(*unpooled, width);
            QCOMPARE(expected.weights.size(), stored->weights.size());
            for (size_t i = 0; i < expected.weights.size(); ++i) // half floats, two roundings
                QVERIFY2(std::abs(expected.weights[i] - stored->weights[i]) <=
                             2e-3f * std::max(1.0f, expected.weights[i]),
                         qPrintable(QStringLiteral("%1 vs %2")
                                        .arg(expected.weights[i])
                                        .arg(stored->weights[i])));
            // Back on the sample's positions for the views: each column's mass kept.
            const AttentionSummary expanded = expandStoredAttention(*stored, t);
            QCOMPARE(expanded.contextLen, t);
            for (int c = 0; c < stored->contextLen; ++c) {
                double sum = 0.0;
                for (int p = c * width; p < std::min(t, (c + 1) * width); ++p)
                    sum += expanded.at(1, 0, p);
                QVERIFY(std::abs(sum - stored->at(1, 0, c)) <= 1e-4 * std::max(1.0, sum));
            }
            ++checked;
        }
        QCOMPARE(checked, kSamples * (1 + kConfigs));
        // The bound is part of the spec: a default run leaves it out (old files compare equal).
        QVERIFY(!specFor(m_model->checkpoint)
                     .toJson()
                     .value(QStringLiteral("store"))
                     .toObject()
                     .contains(QStringLiteral("attention_positions")));
        QCOMPARE(pooled.runInfo()
                     .spec.value(QStringLiteral("store"))
                     .toObject()
                     .value(QStringLiteral("attention_positions"))
                     .toInt(),
                 16);
    }

    // log 1 = 0: a boost of beta 1 adds nothing to any logit, so every intervention
    // answer is the row's own answer, and "repaired" is the row's correctness.
    void betaOneInterventionChangesNothing()
    {
        const ExperimentSpec spec = specFor(
            m_model->checkpoint,
            QStringLiteral(R"(, "interventions": [{"kind": "both", "beta": 1, "on": "all"}])"));
        const QString out = path("beta1.kvl");
        runSweep(spec, out);
        RunReader reader(out);
        int rows = 0;
        for (const StoredResult& r : reader.results()) {
            const std::vector<InterventionRecord> list =
                reader.interventions(r.sampleId, r.configId);
            if (r.compressor == kFullCacheCompressor) {
                QVERIFY(list.empty());
                continue;
            }
            QCOMPARE(list.size(), size_t(2));
            QCOMPARE(list[0].kind, QStringLiteral("boost"));
            QCOMPARE(list[1].kind, QStringLiteral("sham"));
            for (const InterventionRecord& i : list) {
                QCOMPARE(i.beta, 1.0);
                QCOMPARE(i.answer, r.record.answer);
                QCOMPARE(i.repaired, r.record.correct);
            }
            ++rows;
        }
        QCOMPARE(rows, kSamples * kConfigs);
    }

    void resumeWithAnotherSpecIsRefused()
    {
        const QString out = path("mismatch.kvl");
        QVERIFY(QFile::copy(m_straight, out));
        ExperimentSpec other = specFor(m_model->checkpoint);
        other.ratios = {0.25};
        try {
            runSweep(other, out);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(out), qPrintable(e.message()));
            QVERIFY2(e.message().contains(QStringLiteral("'ratios'")), qPrintable(e.message()));
        }
    }

    // Each sample records the hashes of what the sweep read (store/runmetakeys.h
    // kSampleInputs): a resume after one sample's text changed (same ids) is refused
    // naming that sample and the field, instead of mixing two datasets in one run;
    // --force-new starts the file anew; merging a run of each dataset is refused too.
    void resumeWithChangedSampleIsRefused()
    {
        const QString data = path("inputs.jsonl");
        std::vector<Sample> samples = {codeSample(QStringLiteral("a")),
                                       codeSample(QStringLiteral("b")),
                                       codeSample(QStringLiteral("c"))};
        writeSamples(data, samples);
        const ExperimentSpec spec = jsonlSpec(m_model->checkpoint, data);
        const QString before = path("inputs-before.kvl"), out = path("inputs.kvl");
        QCOMPARE(runSweep(spec, before).ran, 3);
        QVERIFY(QFile::copy(before, out));
        QCOMPARE(runSweep(spec, out).resumed, 3); // the same inputs resume

        samples[1].context.replace(QStringLiteral("1234"), QStringLiteral("9876"));
        writeSamples(data, samples);
        QString keyB;
        for (const SampleInfo& s : RunReader(out).samples())
            if (s.sourceId == QLatin1String("b"))
                keyB = s.key;
        QVERIFY(!keyB.isEmpty());
        try {
            runSweep(spec, out);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(out) &&
                         e.message().contains(QStringLiteral("sample '%1'").arg(keyB)) &&
                         e.message().contains(QLatin1String("another context")) &&
                         e.message().contains(data) &&
                         e.message().contains(QLatin1String("--force-new")),
                     qPrintable(e.message()));
        }
        QCOMPARE(RunReader(out).sampleCount(), qint64(3)); // nothing run, nothing lost

        SweepOptions fresh;
        fresh.forceNew = true;
        const SweepSummary s = runSweep(spec, out, fresh);
        QCOMPARE(s.ran, 3);
        QCOMPARE(s.resumed, 0);

        try {
            mergeRuns({before, out}, path("inputs-merged.kvl"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(out) &&
                         e.message().contains(QStringLiteral("sample '%1'").arg(keyB)) &&
                         e.message().contains(QLatin1String("another context")),
                     qPrintable(e.message()));
        }
        QVERIFY(!QFileInfo::exists(path("inputs-merged.kvl")));
    }

    // The figures of `bench --sweep`: C configurations, the target 1 + 0.1·C, and a
    // sweep that costs at least its own FullCache pass.
    // The sweep decodes the mask-only configurations of a sample in lockstep; every row's
    // answer must equal decoding that configuration alone, token by token (extend()).
    void lockstepAnswersEqualDecodingAlone()
    {
        // Masks only, one scorer with its own window, and a transform (own context).
        const QString json = QStringLiteral(R"({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 3, "tokens": "200:300", "seed": 5}],
            "compressors": ["streamingllm", "snapkv", "quantized", "knorm"],
            "ratios": [0.25, 0.75], "max_new_tokens": 8, "threads": 1,
            "interventions": [{"kind": "boost", "beta": 4, "on": "all"},
                              {"kind": "sham", "beta": 4, "on": "all"}]})")
                                 .arg(m_model->checkpoint);
        const ExperimentSpec spec = ExperimentSpec::fromJson(
            QJsonDocument::fromJson(json.toUtf8()).object(), QStringLiteral("test spec"));
        auto model = Transformer::load(spec.model);
        auto tokenizer = loadTokenizer(spec.model + QStringLiteral("/tokenizer.json"));
        const PressCatalog catalog;
        const std::vector<SweepConfig> configs = buildSweepConfigs(spec, catalog);
        const SampleEvaluator evaluator(*model, *tokenizer, spec, configs);
        c10::InferenceMode inference;
        int decodedSteps = 0;
        for (const PlannedSample& planned : planSamples(spec)) {
            const PreparedSample sample = prepareSample(
                materializeSample(planned, spec, *tokenizer), planned.key, *tokenizer);
            const std::optional<SampleRecord> record = evaluator.evaluate(sample);
            QVERIFY(record);
            QCOMPARE(record->results.size(), configs.size() + 1);
            PrefillOptions prefill;
            prefill.window = int(sample.ids.context.size());
            const ContextCache cache = model->prefill(sample.ids.context, prefill);
            AnswerSettings settings;
            settings.maxNewTokens = evaluator.maxNewTokens(sample);
            settings.stopIds = stopIdsOf(*tokenizer, model->config().eosTokenIds);
            for (size_t i = 0; i < configs.size(); ++i) {
                CompressionInput input = compressionInputFor(*model, cache);
                input.spans = sample.pressSpans;
                const CompressionResult r = configs[i].press->compress(input, configs[i].ratio);
                const AnswerRun alone =
                    decodeSample(*model, *tokenizer, sample, r.context(cache), r.edit(), settings);
                const ResultRecord& row = record->results[i + 1];
                QCOMPARE(row.configKey, configs[i].record.key);
                QCOMPARE(row.answer, alone.answer);
                decodedSteps += int(alone.generation.ids.size());
                // The boost re-answer, decoded in lockstep with the chunk's others.
                QCOMPARE(row.interventions.size(), size_t(2));
                QCOMPARE(row.interventions[0].kind, QStringLiteral("boost"));
                CacheEdit boosted = r.edit();
                boosted.logitBias =
                    at::zeros({kLayers, kKvHeads, int64_t(sample.ids.context.size())});
                boosted.logitBias.index_fill_(
                    2,
                    at::tensor(std::vector<int64_t>(sample.evidence.begin(), sample.evidence.end()),
                               at::kLong),
                    std::log(4.0));
                const AnswerRun boostedAlone =
                    decodeSample(*model, *tokenizer, sample, r.context(cache), boosted, settings);
                QCOMPARE(row.interventions[0].answer, boostedAlone.answer);
            }
        }
        QVERIFY(decodedSteps > 0);
    }

    void sweepBenchmark()
    {
        const ExperimentSpec spec = specFor(m_model->checkpoint);
        const auto model = Transformer::load(m_model->checkpoint);
        const auto tokenizer = loadTokenizer(model->checkpoint()->tokenizerPath());
        const SweepBenchmark b = benchmarkSweep(*model, *tokenizer, spec, 2);
        QCOMPARE(b.samples, 2);
        QCOMPARE(b.configs, kConfigs);
        QCOMPARE(b.target, 1.0 + 0.05 * kConfigs);
        // Timings only exist; how they compare is the benchmark's output, not a test
        // (shared machines are noisy, and replayed decoding can make configurations cheap).
        QVERIFY(b.fullPassMs > 0.0);
        QVERIFY(b.sweepMs > 0.0);
        QCOMPARE(b.ratio, b.sweepMs / b.fullPassMs);
        QVERIFY(b.toJson().contains(QStringLiteral("sweep_over_full")));
        // The lengths it ran at: the mean prompt (context and question) and gold answer of
        // the two samples timed, the first two of the plan.
        const std::vector<PlannedSample> plan = planSamples(spec);
        QVERIFY(plan.size() >= 2);
        double prompt = 0.0, answer = 0.0;
        for (size_t i = 0; i < 2; ++i) {
            const PreparedSample p = prepareSample(materializeSample(plan[i], spec, *tokenizer),
                                                   plan[i].key, *tokenizer);
            prompt += double(p.ids.context.size() + p.ids.question.size());
            answer += double(p.ids.answer.size());
        }
        prompt /= 2.0;
        answer /= 2.0;
        QCOMPARE(b.promptTokens, prompt);
        QCOMPARE(b.answerTokens, answer);
    }

    void cancelKeepsCommittedSamples()
    {
        std::atomic<bool> cancel{false};
        SweepOptions options;
        options.cancel = &cancel;
        options.progress = [&](const SweepProgress&) { cancel = true; };
        const QString out = path("cancelled.kvl");
        const SweepSummary s = runSweep(specFor(m_model->checkpoint), out, options);
        QVERIFY(s.interrupted);
        QCOMPARE(s.ran, 1);
        RunReader reader(out);
        QCOMPARE(reader.sampleCount(), qint64(1));
        QCOMPARE(reader.resultCount(), qint64(1 + kConfigs));
    }
};

QTEST_GUILESS_MAIN(TestSweepRunner)
#include "tst_sweeprunner.moc"
