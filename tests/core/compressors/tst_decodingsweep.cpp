// Decode-time presses through the sweep runner on a tiny trained checkpoint: every row
// of such a configuration records its compressions in extra_json.decoding (the steps the
// rule implies for its answer length, cache sizes, evidence kept), its stored mask is the
// context part of the cache at the end, and the report's `decoding` table reads them.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/torch.h>

#include "../run/runfixture.h"

#include "run/experimentspec.h"
#include "run/sweeprunner.h"
#include "store/runreader.h"
#include "store/runreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace kvl;

class TestDecodingSweep : public QObject
{
    Q_OBJECT

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
        const ExperimentSpec spec = ExperimentSpec::fromJson(
            QJsonDocument::fromJson(json.toUtf8()).object(), QStringLiteral("test spec"));
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("run.kvl"));
        SweepOptions options;
        options.modelDir = spec.model;
        SweepRunner(spec, options).run(path);

        RunReader reader(path);
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
            }
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
    }

  private:
    std::unique_ptr<test::TinyModel> m_model;
};

QTEST_GUILESS_MAIN(TestDecodingSweep)
#include "tst_decodingsweep.moc"
