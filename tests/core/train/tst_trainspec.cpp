// The curriculum spec: defaults, round trip, and errors that name the file and field.
#include "common/error.h"
#include "train/trainspec.h"

#include <QJsonDocument>
#include <QtTest>

using namespace kvl;

namespace {
QJsonObject parse(const char* text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}
} // namespace

class TestTrainSpec : public QObject
{
    Q_OBJECT
  private slots:
    void parsesStagesAndLocatesSteps()
    {
        const TrainSpec spec = TrainSpec::fromJson(
            parse(R"({"stages": [{"name": "a", "steps": 3, "batch_sequences": 2},
                                  {"name": "b", "steps": 5, "tokens_per_batch": 100,
                                   "recall_share": 0.5, "suites": {"retrieval": 1},
                                   "context_tokens": [10, 20]}]})"),
            QStringLiteral("spec.json"));
        QCOMPARE(spec.totalSteps(), 8);
        // Step 2 is the last of stage a; step 3 the first of stage b.
        QCOMPARE(spec.locate(2), std::make_pair(0, 2));
        QCOMPARE(spec.locate(3), std::make_pair(1, 0));
        QCOMPARE(spec.locate(7), std::make_pair(1, 4));
        QCOMPARE(spec.stages[1].minContextTokens, 10);
        QCOMPARE(spec.stages[1].suites.size(), size_t(1));
        QCOMPARE(spec.stages[1].evalSuites(), QStringList{QStringLiteral("retrieval")});
        // lr_min defaults to a tenth of lr.
        QCOMPARE(spec.stages[0].lrMin, spec.stages[0].lr / 10);
    }

    void variantEntriesEvaluateTheirSuiteOnce()
    {
        const TrainSpec spec = TrainSpec::fromJson(
            parse(R"({"stages": [{"name": "a", "steps": 3, "batch_sequences": 2,
                                  "recall_share": 0, "suites": {"retrieval": 2,
                                  "retrieval/multivalue": 1, "multihop/hops4": 1}}]})"),
            QStringLiteral("spec.json"));
        QCOMPARE(spec.stages[0].suites.size(), size_t(3));
        QCOMPARE(spec.stages[0].evalSuites(),
                 (QStringList{QStringLiteral("multihop"), QStringLiteral("retrieval")}));
        QCOMPARE(splitSuiteEntry(QStringLiteral("retrieval/multivalue")),
                 std::make_pair(QStringLiteral("retrieval"), QStringLiteral("multivalue")));
        QCOMPARE(splitSuiteEntry(QStringLiteral("retrieval")),
                 std::make_pair(QStringLiteral("retrieval"), QString()));
    }

    void roundTrips()
    {
        const TrainSpec spec = TrainSpec::fromJson(
            parse(R"({"model": {"hidden": 64, "layers": 2, "heads": 4, "kv_heads": 2},
                      "seed": 7, "stages": [{"name": "a", "steps": 3, "batch_sequences": 2,
                                             "recall": {"pairs": [2, 5], "filler": [0, 1], "pool": 8,
                                                        "key_tokens": [1, 3], "value_tokens": [2, 2],
                                                        "gap_tokens": [0, 3]},
                                             "follow_ups": 6}]})"),
            QStringLiteral("spec.json"));
        const TrainSpec again = TrainSpec::fromJson(spec.toJson(), QStringLiteral("again"));
        QCOMPARE(again.toJson(), spec.toJson());
        QCOMPARE(again.model.hidden, 64);
        QCOMPARE(again.stages[0].recall.maxPairs, 5);
        QCOMPARE(again.stages[0].recall.pool, 8);
        QCOMPARE(again.stages[0].recall.maxKeyTokens, 3);
        QCOMPARE(again.stages[0].recall.minValueTokens, 2);
        QCOMPARE(again.stages[0].recall.maxGapTokens, 3);
        QCOMPARE(again.stages[0].followUps, 6);
        QCOMPARE(again.seed, quint64(7));
    }

    void rejectsBadFields_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("no stages") << R"({})"
                                   << "stages";
        QTest::newRow("steps not integer")
            << R"({"stages": [{"steps": 1.5, "batch_sequences": 2}]})"
            << "stages[0].steps";
        QTest::newRow("steps beyond any integer")
            << R"({"stages": [{"steps": 1e300, "batch_sequences": 2}]})"
            << "stages[0].steps";
        QTest::newRow("steps beyond int")
            << R"({"stages": [{"steps": 4294967296, "batch_sequences": 2}]})"
            << "stages[0].steps";
        QTest::newRow("no batch size") << R"({"stages": [{"steps": 2}]})"
                                       << "stages[0].batch_sequences";
        QTest::newRow("kv heads not divisor")
            << R"({"model": {"heads": 4, "kv_heads": 3}, "stages": [{"steps": 1, "batch_sequences": 1}]})"
            << "model.kv_heads";
        QTest::newRow("bad range")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "context_tokens": [9, 3]}]})"
            << "stages[0].context_tokens";
        QTest::newRow("suites missing")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "recall_share": 0.5}]})"
            << "stages[0].suites";
        QTest::newRow("pool smaller than the pairs")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "recall": {"pairs": [4, 16], "pool": 10}}]})"
            << "stages[0].recall.pool";
        QTest::newRow("five-token keys")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "recall": {"key_tokens": [2, 5]}}]})"
            << "stages[0].recall.key_tokens";
        QTest::newRow("empty values")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "recall": {"value_tokens": [0, 2]}}]})"
            << "stages[0].recall.value_tokens";
        QTest::newRow("too many follow-ups")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "follow_ups": 65}]})"
            << "stages[0].follow_ups";
        QTest::newRow("suite entry without its variant")
            << R"({"stages": [{"steps": 1, "batch_sequences": 1, "recall_share": 0.5, "suites": {"retrieval/": 1}}]})"
            << "stages[0].suites";
        QTest::newRow("unknown init")
            << R"({"init": "xavier", "stages": [{"steps": 1, "batch_sequences": 1}]})"
            << "init";
    }
    void rejectsBadFields()
    {
        QFETCH(QString, json);
        QFETCH(QString, field);
        try {
            TrainSpec::fromJson(QJsonDocument::fromJson(json.toUtf8()).object(),
                                QStringLiteral("my-spec.json"));
            QFAIL("accepted a bad spec");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(QStringLiteral("my-spec.json: ")),
                     qPrintable(e.message()));
            QVERIFY2(e.message().contains(field), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestTrainSpec)
#include "tst_trainspec.moc"
