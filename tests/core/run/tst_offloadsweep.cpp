// Offloading presses through the sweep runner on a tiny trained checkpoint (issue 19):
// every shadowkv / quest / yakv row decodes with retrieval and records it: the stored
// retrieval map has one row per forward after the context, extra_json.retrieval carries
// the contract's keys, and its evidence recall and attended share are recomputed here
// from the stored map and the sample's evidence spans (equal up to the map's byte
// quantisation).
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "runfixture.h"

#include "run/experimentspec.h"
#include "run/sweeprunner.h"
#include "store/runreader.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QtTest>
#include <cmath>
#include <set>

using namespace kvl;

namespace {

// The context positions of the sample's evidence spans.
std::set<int> evidenceOf(const SampleInfo& sample)
{
    std::set<int> positions;
    for (const QJsonValue& v : sample.spans) {
        const QJsonObject s = v.toObject();
        if (s.value(QStringLiteral("kind")).toString() != QLatin1String("evidence") ||
            s.contains(QStringLiteral("field")))
            continue;
        for (int p = s.value(QStringLiteral("start")).toInt();
             p < s.value(QStringLiteral("end")).toInt(); ++p)
            positions.insert(p);
    }
    return positions;
}

} // namespace

class TestOffloadSweep : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase() { m_model = std::make_unique<test::TinyModel>(); }

    void rowsRecordTheirRetrieval()
    {
        const QString json = QStringLiteral(R"json({"model": "%1",
            "samples": [{"suite": "retrieval", "n": 2, "tokens": "200:300", "seed": 3},
                        {"suite": "text2json", "n": 1, "tokens": "200:300", "seed": 4}],
            "compressors": ["shadowkv:chunk=4,rank=4,local=8,outliers=0",
                            "quest:page=4,local=8", "yakv:local=8"],
            "ratios": [0.75], "max_new_tokens": 6, "threads": 1})json")
                                 .arg(m_model->checkpoint);
        const ExperimentSpec spec = ExperimentSpec::fromJson(
            QJsonDocument::fromJson(json.toUtf8()).object(), QStringLiteral("test spec"));
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("run.kvl"));
        SweepOptions options;
        options.modelDir = spec.model;
        SweepRunner(spec, options).run(path);

        RunReader reader(path);
        QHash<QString, SampleInfo> samples;
        for (const SampleInfo& s : reader.samples())
            samples.insert(s.key, s);
        int rows = 0;
        QSet<QString> landmarks;
        for (const StoredResult& r : reader.results()) {
            if (r.record.configKey.startsWith(QLatin1String("FullCache"))) {
                QVERIFY(!r.record.extra.contains(QStringLiteral("retrieval")));
                QVERIFY(!reader.retrieval(r.sampleId, r.configId));
                continue;
            }
            ++rows;
            const QString what = r.sampleKey + QLatin1Char(' ') + r.record.configKey;
            const QJsonObject j = r.record.extra.value(QStringLiteral("retrieval")).toObject();
            QVERIFY2(!j.isEmpty(), qPrintable(what));
            landmarks << j.value(QStringLiteral("landmark")).toString();
            const SampleInfo& sample = samples[r.sampleKey];
            const int t = sample.contextLen;
            // Matched budget: floor(T (1 - 0.75)) tokens per kv-head per step.
            QCOMPARE(j.value(QStringLiteral("budget_tokens")).toInt(), t / 4);
            QCOMPARE(j.value(QStringLiteral("local_window")).toInt(), 8);
            // Forwards: the question, then every generated token fed back (all of them
            // when a stop token ended the answer, all but the last otherwise).
            const int tokens = r.record.extra.value(QStringLiteral("answer_tokens")).toInt();
            const bool stopToken = r.record.extra.value(QStringLiteral("stop")).toString() ==
                                   QLatin1String("stop_token");
            const int steps = stopToken ? 1 + tokens : std::max(1, tokens);
            QCOMPARE(j.value(QStringLiteral("steps")).toInt(), steps);

            QVERIFY2(r.hasRetrieval, qPrintable(what));
            const std::optional<RetrievalMap> map = reader.retrieval(r.sampleId, r.configId);
            QVERIFY(map && map->isConsistent());
            QCOMPARE(map->steps, int64_t(steps));
            QCOMPARE(map->contextLength, int64_t(t));
            // Each (layer, kv-head, row) attends to at most the budget: a step's mean
            // share is at most budget / T, and the local window is always attended.
            const double quantum = 0.5 / 255.0 + 1e-9;
            double attended = 0.0;
            for (int64_t s = 0; s < map->steps; ++s) {
                double sum = 0.0;
                for (int64_t p = 0; p < t; ++p)
                    sum += map->share(s, p);
                QVERIFY(sum / t <= double(t / 4) / t + quantum);
                attended += sum / t;
                for (int64_t p = t - 8; p < t; ++p)
                    QCOMPARE(map->share(s, p), 1.0);
            }
            QVERIFY(std::abs(j.value(QStringLiteral("attended_share")).toDouble() -
                             attended / double(map->steps)) <= quantum);
            // Evidence recall per step: the mean share over the evidence positions.
            const std::set<int> evidence = evidenceOf(sample);
            QVERIFY(!evidence.empty());
            const QJsonArray recall = j.value(QStringLiteral("evidence_recall")).toArray();
            QCOMPARE(int64_t(recall.size()), map->steps);
            double mean = 0.0;
            for (int64_t s = 0; s < map->steps; ++s) {
                double sum = 0.0;
                for (const int p : evidence)
                    sum += map->share(s, p);
                QVERIFY2(std::abs(recall[int(s)].toDouble() - sum / double(evidence.size())) <=
                             quantum,
                         qPrintable(what));
                mean += recall[int(s)].toDouble();
            }
            QCOMPARE(j.value(QStringLiteral("mean_evidence_recall")).toDouble(),
                     mean / double(map->steps));
            QCOMPARE(j.contains(QStringLiteral("field_recall")),
                     r.suite == QLatin1String("text2json"));
            QVERIFY(j.value(QStringLiteral("press_ms")).toDouble() > 0.0);
            QVERIFY(j.value(QStringLiteral("fetched_bytes_per_step")).toDouble() > 0.0);
            QVERIFY(j.value(QStringLiteral("landmark_bytes")).toDouble() > 0.0);
            const bool lowRank =
                j.value(QStringLiteral("landmark")).toString() == QLatin1String("low_rank_mean");
            QCOMPARE(j.value(QStringLiteral("rank")).isDouble(), lowRank);
        }
        QCOMPARE(rows, 9);
        QCOMPARE(landmarks,
                 (QSet<QString>{QStringLiteral("low_rank_mean"), QStringLiteral("page_bounds"),
                                QStringLiteral("quantized_keys")}));
    }

  private:
    std::unique_ptr<test::TinyModel> m_model;
};

QTEST_GUILESS_MAIN(TestOffloadSweep)
#include "tst_offloadsweep.moc"
