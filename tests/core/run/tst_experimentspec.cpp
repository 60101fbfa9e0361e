// The experiment spec (defaults, canonical JSON, errors that name the field), press
// lists, shards, sample keys, length buckets and progress lines: no model needed.
#include "common/error.h"
#include "run/experimentspec.h"
#include "run/sampleplan.h"
#include "run/shard.h"
#include "run/suiteevaluation.h"
#include "run/sweepprogress.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {
QJsonObject parse(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

const char* kMinimal =
    R"({"model": "m", "samples": [{"suite": "retrieval", "n": 2}], "compressors": ["snapkv"],
        "ratios": [0.5]})";
} // namespace

class TestExperimentSpec : public QObject
{
    Q_OBJECT

  private slots:
    void defaults()
    {
        const ExperimentSpec s = ExperimentSpec::fromJson(parse(kMinimal), QStringLiteral("x"));
        QCOMPARE(s.model, QStringLiteral("m"));
        QCOMPARE(s.samples.size(), size_t(1));
        QCOMPARE(s.samples[0].minTokens, 256);
        QCOMPARE(s.samples[0].maxTokens, 512);
        QCOMPARE(s.samples[0].seed, std::uint64_t(1));
        QCOMPARE(s.compressors.size(), size_t(1));
        QCOMPARE(s.compressors[0].name, QStringLiteral("snapkv"));
        // boost and sham, beta 4, on KVDiagnosis's target: C->W rows whose evidence is
        // retained and whose EAR is low
        QCOMPARE(s.interventions.size(), size_t(2));
        QCOMPARE(s.interventions[0].kind, QStringLiteral("boost"));
        QCOMPARE(s.interventions[1].kind, QStringLiteral("sham"));
        QCOMPARE(s.interventions[1].beta, 4.0);
        QCOMPARE(s.interventions[1].on, QStringLiteral("retained"));
        QCOMPARE(s.store.masks, QStringLiteral("all"));
        QCOMPARE(s.store.attention, QStringLiteral("failures"));
        QCOMPARE(s.maxNewTokens, 0);
    }

    void canonicalJsonIsStable()
    {
        const ExperimentSpec a = ExperimentSpec::fromJson(parse(kMinimal), QStringLiteral("x"));
        // Every default written out, in another form, describes the same experiment.
        const ExperimentSpec b = ExperimentSpec::fromJson(parse(R"({"model": "m", "seed": 1,
                      "samples": [{"suite": "retrieval", "n": 2, "tokens": [256, 512]}],
                      "compressors": [{"spec": "snapkv"}], "ratios": [0.5],
                      "interventions": [{"kind": "both", "beta": 4, "on": "retained"}],
                      "store": {"masks": "all", "attention": "failures"}})"),
                                                          QStringLiteral("y"));
        QCOMPARE(a.toJson(), b.toJson());
        // The earlier default target is another experiment (a resumed run must not mix them).
        QJsonObject lowEar = b.toJson();
        QJsonArray list = lowEar.value(QStringLiteral("interventions")).toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            QJsonObject o = list[i].toObject();
            o.insert(QStringLiteral("on"), QStringLiteral("low_ear"));
            list[i] = o;
        }
        lowEar.insert(QStringLiteral("interventions"), list);
        QVERIFY(ExperimentSpec::fromJson(lowEar, QStringLiteral("w")).toJson() != a.toJson());
        const ExperimentSpec c = ExperimentSpec::fromJson(a.toJson(), QStringLiteral("z"));
        QCOMPARE(c.toJson(), a.toJson());
    }

    void errorsNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no model") << R"({"samples": [{"suite": "retrieval", "n": 1}]})"
                                  << "field 'model'";
        QTest::newRow("no n") << R"({"model": "m", "samples": [{"suite": "retrieval"}]})"
                              << "field 'samples[0].n'";
        QTest::newRow("bad tokens")
            << R"({"model": "m", "samples": [{"suite": "retrieval", "n": 1, "tokens": "9:3"}]})"
            << "9:3";
        QTest::newRow("tokens beyond any integer")
            << R"({"model": "m", "samples": [{"suite": "retrieval", "n": 1, "tokens": 1e300}]})"
            << "field 'samples[0].tokens'";
        QTest::newRow("tokens not whole")
            << R"({"model": "m", "samples": [{"suite": "retrieval", "n": 1, "tokens": 512.5}]})"
            << "field 'samples[0].tokens'";
        QTest::newRow("ratio 1") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                                       "compressors": ["knorm"], "ratios": [1.0]})"
                                 << "field 'ratios[0]'";
        QTest::newRow("no ratios") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                                         "compressors": ["knorm"]})"
                                   << "field 'ratios'";
        QTest::newRow("twice") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                                     "compressors": ["knorm", "knorm"], "ratios": [0.5]})"
                               << "field 'compressors[1]'";
        QTest::newRow("unknown key") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                                           "colour": 3})"
                                     << "field 'colour'";
        QTest::newRow("intervention on") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                  "interventions": [{"on": "everything"}]})"
                                         << "field 'interventions[0].on'";
        QTest::newRow("store") << R"({"model": "m", "samples": [{"suite": "a", "n": 1}],
                                     "store": {"masks": "some"}})"
                               << "field 'store.masks'";
    }
    void errorsNameTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        try {
            ExperimentSpec::fromJson(QJsonDocument::fromJson(json.toUtf8()).object(),
                                     QStringLiteral("spec.json"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(QStringLiteral("spec.json")), qPrintable(e.message()));
            QVERIFY2(e.message().contains(expected), qPrintable(e.message()));
        }
    }

    // chat_template / chat_vars: absent at their defaults (auto, {}), so a spec without
    // them is the object it was before they existed; a file resolves against the spec's
    // folder; the canonical JSON reads back to itself.
    void chatTemplate()
    {
        const ExperimentSpec a = ExperimentSpec::fromJson(parse(kMinimal), QStringLiteral("x"));
        QCOMPARE(a.chatTemplate, QStringLiteral("auto"));
        QVERIFY(!a.toJson().contains(QStringLiteral("chat_template")));
        QVERIFY(!a.toJson().contains(QStringLiteral("chat_vars")));
        QJsonObject json = parse(kMinimal);
        json.insert(QStringLiteral("chat_template"), QStringLiteral("tmpl/qwen.jinja"));
        json.insert(QStringLiteral("chat_vars"),
                    QJsonObject{{QStringLiteral("enable_thinking"), false}});
        // What a run file records of the template it used is read past, not refused.
        json.insert(QStringLiteral("chat_template_used"),
                    QJsonObject{{QStringLiteral("template"), QStringLiteral("none")}});
        const ExperimentSpec b =
            ExperimentSpec::fromJson(json, QStringLiteral("x"), QStringLiteral("/specs"));
        QCOMPARE(b.chatTemplatePath, QStringLiteral("/specs/tmpl/qwen.jinja"));
        QCOMPARE(b.toJson().value(QStringLiteral("chat_template")).toString(),
                 QStringLiteral("tmpl/qwen.jinja"));
        QCOMPARE(b.toJson().value(QStringLiteral("chat_vars")).toObject(),
                 json.value(QStringLiteral("chat_vars")).toObject());
        QCOMPARE(ExperimentSpec::fromJson(b.toJson(), QStringLiteral("y")).toJson(), b.toJson());
        json.insert(QStringLiteral("chat_vars"), 3);
        QVERIFY_THROWS_EXCEPTION(Error, ExperimentSpec::fromJson(json, QStringLiteral("x")));
    }

    void interventionsCanBeOff()
    {
        const ExperimentSpec s = ExperimentSpec::fromJson(
            parse(R"({"model": "m", "samples": [{"suite": "a", "n": 1}], "interventions": []})"),
            QStringLiteral("x"));
        QVERIFY(s.interventions.empty());
    }

    void jsonlResolvesAgainstSpecFolder()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("spec.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "m", "samples": [{"jsonl": "data/s.jsonl"}]})");
        f.close();
        const ExperimentSpec s = ExperimentSpec::fromFile(path);
        QCOMPARE(s.samples[0].kind, SampleSource::Kind::Jsonl);
        QCOMPARE(s.samples[0].path, QStringLiteral("data/s.jsonl"));
        QCOMPARE(s.samples[0].resolvedPath, dir.filePath(QStringLiteral("data/s.jsonl")));
    }

    void pressLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("specs");
        QTest::newRow("plain") << "snapkv,tova" << QStringList{"snapkv", "tova"};
        QTest::newRow("params") << "snapkv:window=64,kernel=5,tova"
                                << QStringList{"snapkv:window=64,kernel=5", "tova"};
        QTest::newRow("nested") << "adakv(snapkv):alpha_safeguard=0.2, knorm"
                                << QStringList{"adakv(snapkv):alpha_safeguard=0.2", "knorm"};
        QTest::newRow("composed") << "composed(streamingllm+knorm)"
                                  << QStringList{"composed(streamingllm+knorm)"};
    }
    void pressLists()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, specs);
        QCOMPARE(splitPressList(text), specs);
    }

    void shardsPartitionTheSamples()
    {
        // Every index lands in exactly one of 3 shards; shard 2/3 takes 1, 4, 7.
        for (int i = 0; i < 10; ++i) {
            int owners = 0;
            for (int k = 1; k <= 3; ++k)
                owners += Shard::parse(QStringLiteral("%1/3").arg(k)).contains(i) ? 1 : 0;
            QCOMPARE(owners, 1);
        }
        const Shard s = Shard::parse(QStringLiteral("2/3"));
        QList<int> taken;
        for (int i = 0; i < 10; ++i)
            if (s.contains(i))
                taken << i;
        QCOMPARE(taken, (QList<int>{1, 4, 7}));
        for (const char* bad : {"0/2", "3/2", "x", "1/0", "1"})
            QVERIFY_THROWS_EXCEPTION(Error, Shard::parse(QLatin1String(bad)));
    }

    void sampleKeys()
    {
        const ExperimentSpec s = ExperimentSpec::fromJson(
            parse(R"({"model": "m", "samples": [{"suite": "retrieval", "n": 2, "seed": 5},
                                               {"suite": "retrieval", "n": 1, "seed": 5,
                                                "tokens": "100:200"}]})"),
            QStringLiteral("x"));
        const std::vector<PlannedSample> plan = planSamples(s);
        QCOMPARE(plan.size(), size_t(3));
        QCOMPARE(plan[0].key, QStringLiteral("retrieval-5-0"));
        QCOMPARE(plan[1].key, QStringLiteral("retrieval-5-1"));
        QCOMPARE(plan[2].key, QStringLiteral("retrieval-5-0#1")); // same id, second source
        QCOMPARE(plan[2].source, 1);
        QCOMPARE(plan[2].index, 0);
    }

    void lengthBuckets_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("lo");
        QTest::addColumn<int>("hi");
        QTest::newRow("1") << 1 << 1 << 128;
        QTest::newRow("128") << 128 << 1 << 128;
        QTest::newRow("129") << 129 << 129 << 256;
        QTest::newRow("512") << 512 << 257 << 512;
        QTest::newRow("513") << 513 << 513 << 1024;
        QTest::newRow("2048") << 2048 << 1025 << 2048;
    }
    void lengthBuckets()
    {
        QFETCH(int, tokens);
        QFETCH(int, lo);
        QFETCH(int, hi);
        QCOMPARE(lengthBucketOf(tokens), std::make_pair(lo, hi));
    }

    void progressLine()
    {
        SweepProgress p;
        p.done = 3;
        p.total = 12;
        p.elapsedS = 6.0;
        p.etaS = 18.0;
        p.fullAccuracy = 0.5;
        QJsonObject o = p.toJson();
        QCOMPARE(o.value(QStringLiteral("done")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("total")).toInt(), 12);
        QCOMPARE(o.value(QStringLiteral("eta_s")).toDouble(), 18.0);
        QVERIFY(o.value(QStringLiteral("accuracy_compressed")).isNull());
        // Without compressed rows, "accuracy" (what the GUI shows) is FullCache's.
        QCOMPARE(o.value(QStringLiteral("accuracy")).toDouble(), 0.5);
        p.compressedAccuracy = 0.25;
        QCOMPARE(p.toJson().value(QStringLiteral("accuracy")).toDouble(), 0.25);
        QVERIFY(p.toBar(10).startsWith(QStringLiteral("[##--------] 3/12")));
    }
};

QTEST_GUILESS_MAIN(TestExperimentSpec)
#include "tst_experimentspec.moc"
