// Decode-time presses through the sweep runner on a tiny trained checkpoint: every row
// of such a configuration records its compressions in extra_json.decoding (the steps the
// rule implies for its answer length, cache sizes, evidence kept), its stored mask is the
// context part of the cache at the end, and the report's `decoding` table reads them.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "../run/runfixture.h"

#include "run/experimentspec.h"
#include "run/sweeprunner.h"
#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/runreport.h"

#include "decodingviews.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <cmath>

using namespace kvl;

class TestDecodingSweep : public QObject
{
    Q_OBJECT

  private:
    // Runs the spec (JSON) into OUT/run.kvl and returns that path.
    static QString runSweep(const QString& json, const QTemporaryDir& out)
    {
        const ExperimentSpec spec = ExperimentSpec::fromJson(
            QJsonDocument::fromJson(json.toUtf8()).object(), QStringLiteral("test spec"));
        const QString path = out.filePath(QStringLiteral("run.kvl"));
        SweepOptions options;
        options.modelDir = spec.model;
        SweepRunner(spec, options).run(path);
        return path;
    }

  private slots:
    void initTestCase() { m_model = std::make_unique<test::TinyModel>(); }

    void rowsRecordTheCompressions()
    {
        const QString json = QStringLiteral(R"json({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 2, "tokens": "200:300", "seed": 3}],
            "compressors": ["decoding(knorm):interval=2",
                            "prefill_decoding(knorm+compression_ratio_decoding(knorm):interval=3)"],
            "ratios": [0.5], "max_new_tokens": 6, "threads": 1,
            "store": {"masks": "all"}})json")
                                 .arg(m_model->checkpoint);
        QTemporaryDir out;
        const QString path = runSweep(json, out);

        RunReader reader(path);
        // Each configuration says whether it compresses while decoding (the report and
        // the views read that flag, not the spec's name).
        for (const ConfigRecord& c : reader.configs())
            QCOMPARE(c.params.value(kDecodeTimeParam).toBool(), !c.isFullCache());
        int decodeRows = 0, compressions = 0;
        for (const StoredResult& r : reader.results()) {
            if (r.record.configKey.startsWith(QLatin1String("FullCache")))
                continue;
            ++decodeRows;
            const QJsonObject d = r.record.extra.value(QStringLiteral("decoding")).toObject();
            QVERIFY2(!d.isEmpty(), qPrintable(r.record.configKey));
            const bool fixed = r.compressor.startsWith(QLatin1String("decoding"));
            const int interval = fixed ? 2 : 3;
            QCOMPARE(d.value(QStringLiteral("interval")).toInt(), interval);
            // Forwards: the question, then every generated token fed back (all of them
            // when a stop token ended the answer, all but the last otherwise); one
            // compression every `interval` of them.
            const int tokens = r.record.extra.value(QStringLiteral("answer_tokens")).toInt();
            const bool stopToken = r.record.extra.value(QStringLiteral("stop")).toString() ==
                                   QLatin1String("stop_token");
            const int forwards = stopToken ? 1 + tokens : std::max(1, tokens);
            const QJsonArray steps = d.value(QStringLiteral("steps")).toArray();
            QCOMPARE(int(steps.size()), forwards / interval);
            compressions += int(steps.size());
            for (const QJsonValue& v : steps) {
                const QJsonObject s = v.toObject();
                QCOMPARE(s.value(QStringLiteral("forward")).toInt() % interval, 0);
                // decoding: target int(T (1 - 0.5)) of the context; fraction of seen:
                // int(positions (1 - 0.5)).
                const int positions = s.value(QStringLiteral("positions")).toInt();
                const int target = s.value(QStringLiteral("target")).toInt();
                if (!fixed)
                    QCOMPARE(target, positions / 2);
                QCOMPARE(s.value(QStringLiteral("entries_after")).toInt(),
                         std::min(target, s.value(QStringLiteral("entries_before")).toInt()));
                QVERIFY(s.value(QStringLiteral("evidence_kept")).isDouble());
                QVERIFY(!s.contains(QStringLiteral("merged"))); // CaM's alone
            }
            QVERIFY(!d.contains(QStringLiteral("merge_budget")));
            QVERIFY(r.hasMask);
            const std::optional<KeptMask> stored = reader.mask(r.sampleId, r.configId);
            QVERIFY(stored && stored->contextLen > 0);
            const KeptMask& mask = *stored;
            // The mask is the context part of the final cache: at most the final entries
            // per head of it are held.
            const int finalEntries = d.value(QStringLiteral("final_entries")).toInt();
            for (int l = 0; l < mask.layers; ++l)
                for (int h = 0; h < mask.kvHeads; ++h) {
                    int held = 0;
                    for (int t = 0; t < mask.contextLen; ++t)
                        held += mask.at(l, h, t) ? 1 : 0;
                    QVERIFY(held <= finalEntries);
                }
        }
        QCOMPARE(decodeRows, 4);
        QVERIFY(compressions >= 4); // 6 new tokens: 2-3 compressions per row unless it stops
        qInfo("%d compressions in %d rows", compressions, decodeRows);
        const QJsonArray table = runReportJson(reader).value(QStringLiteral("decoding")).toArray();
        QVERIFY(!table.isEmpty());
        QCOMPARE(table.first().toObject().value(QStringLiteral("step")).toInt(), 0);

        // The app's curve: one line per configuration, a point per step of the table with
        // the table's mean evidence kept and rows.
        const RatioCurves curves = loadDecodingEvidence(reader);
        QCOMPARE(curves.curves.size(), 2);
        QCOMPARE(curves.reference, 1.0);
        int points = 0;
        for (const RatioCurve& curve : curves.curves)
            for (int i = 0; i < curve.ratios.size(); ++i) {
                ++points;
                bool found = false;
                for (const QJsonValue& v : table) {
                    const QJsonObject row = v.toObject();
                    if (curve.name != QStringLiteral("%1 @ %2")
                                          .arg(row.value(QStringLiteral("compressor")).toString())
                                          .arg(row.value(QStringLiteral("ratio")).toDouble()) ||
                        row.value(QStringLiteral("step")).toInt() != int(curve.ratios[i]))
                        continue;
                    found = true;
                    QCOMPARE(curve.n[i], row.value(QStringLiteral("rows")).toInt());
                    QVERIFY(qAbs(curve.values[i] -
                                 row.value(QStringLiteral("evidence_kept")).toDouble()) < 1e-12);
                    QVERIFY(curve.lo[i] <= curve.values[i] || std::isnan(curve.lo[i]));
                }
                QVERIFY2(found, qPrintable(curve.name));
            }
        QCOMPARE(points, int(table.size()));
    }

    // CaM's rows also count its merges: per compression the evicted entries picked to
    // merge and the (entry, kv-head) draws that succeeded, and the totals.
    // The gold metrics of a decode-time row come from the gold answer replayed under the
    // press's schedule: a press that never fires while the short gold answer is fed
    // (its prefill left whole) scores it as FullCache does (delta NLL 0), one that cuts
    // the cache to 8 entries at every forward moves it, and each row says how often its
    // replay compressed.
    void goldMetricsFollowTheSchedule()
    {
        const QString json = QStringLiteral(R"json({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 3, "tokens": "200:300", "seed": 4}],
            "compressors": ["decoding(knorm):interval=1000",
                            "decoding(knorm):interval=1,target=8"],
            "ratios": [0.5], "max_new_tokens": 6, "threads": 1})json")
                                 .arg(m_model->checkpoint);
        QTemporaryDir out;
        RunReader reader(runSweep(json, out));
        int never = 0, every = 0, moved = 0;
        for (const StoredResult& r : reader.results()) {
            if (r.record.configKey.startsWith(QLatin1String("FullCache")))
                continue;
            const QJsonObject d = r.record.extra.value(QStringLiteral("decoding")).toObject();
            const int gold = d.value(QStringLiteral("gold_compressions")).toInt(-1);
            const std::optional<double> delta = r.record.metrics.deltaNll;
            QVERIFY(delta);
            if (d.value(QStringLiteral("interval")).toInt() == 1000) {
                ++never;
                QCOMPARE(gold, 0);
                QVERIFY2(std::abs(*delta) <= 1e-4, qPrintable(QString::number(*delta)));
            } else {
                ++every;
                QVERIFY(gold >= 1);
                if (std::abs(*delta) > 1e-3)
                    ++moved;
            }
        }
        QCOMPARE(never, 3);
        QCOMPARE(every, 3);
        QVERIFY2(moved >= 2, qPrintable(QString::number(moved)));
    }

    void camRowsRecordTheirMerges()
    {
        const QString json = QStringLiteral(R"json({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 2, "tokens": "200:300", "seed": 3}],
            "compressors": ["cam(knorm):interval=2,merge_budget=8"],
            "ratios": [0.5], "max_new_tokens": 6, "threads": 1})json")
                                 .arg(m_model->checkpoint);
        QTemporaryDir out;
        const QString path = runSweep(json, out);

        RunReader reader(path);
        int rows = 0;
        qint64 candidatesSeen = 0;
        for (const StoredResult& r : reader.results()) {
            if (r.record.configKey.startsWith(QLatin1String("FullCache")))
                continue;
            ++rows;
            const QJsonObject d = r.record.extra.value(QStringLiteral("decoding")).toObject();
            QCOMPARE(d.value(QStringLiteral("merge_budget")).toInt(), 8);
            qint64 candidates = 0, merged = 0;
            for (const QJsonValue& v : d.value(QStringLiteral("steps")).toArray()) {
                const QJsonObject step = v.toObject();
                QVERIFY(step.contains(QStringLiteral("merge_candidates")));
                const qint64 c = step.value(QStringLiteral("merge_candidates")).toInteger();
                const qint64 m = step.value(QStringLiteral("merged")).toInteger();
                // Each candidate is drawn once per kv-head of its layer (one here).
                QVERIFY2(m >= 0 && m <= c, qPrintable(QStringLiteral("%1 of %2").arg(m).arg(c)));
                candidates += c;
                merged += m;
            }
            QCOMPARE(d.value(QStringLiteral("merge_candidates")).toInteger(), candidates);
            QCOMPARE(d.value(QStringLiteral("merged")).toInteger(), merged);
            candidatesSeen += candidates;
        }
        QCOMPARE(rows, 2);
        QVERIFY(candidatesSeen > 0); // the cache is over the target from the start
        // CaM's rows are in the report's decoding table and the app's curve too.
        const QJsonArray table = runReportJson(reader).value(QStringLiteral("decoding")).toArray();
        QVERIFY(!table.isEmpty());
        QCOMPARE(loadDecodingEvidence(reader).curves.size(), 1);
    }

  private:
    std::unique_ptr<test::TinyModel> m_model;
};

QTEST_GUILESS_MAIN(TestDecodingSweep)
#include "tst_decodingsweep.moc"
