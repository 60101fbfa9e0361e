// Decode-time presses (kvpress DecodingPress, CompressionRatioDecodingPress,
// PrefillDecodingPress): their rules worked out by hand, their specs and refusals, and
// the decode loop on a tiny random-weight GQA model, where the cache size after every
// compression follows the rule and the kept entries are the rule's choice, recomputed
// from a full prefill of the same tokens (another route to the same keys).
#include "decodefixture.h"
#include "pressfixture.h"

#include "cache/keptselection.h"
#include "common/error.h"
#include "compressors/pressbenchmark.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/runwriter.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;
using namespace kvl::test;

class TestDecodingPress : public QObject
{
    Q_OBJECT

  private slots:
    // kvpress's bisection for the ratio whose int(n (1 - r)) is the target.
    void ratioSearch()
    {
        // n 10, target 3: the first guess 1 - 3/10 = 0.7 gives int(10 * 0.3...) = 3.
        QCOMPARE(keptPerHead(10, decodingRatioFor(10, 3)), 3);
        // n 3, target 1: 1 - 1/3 gives int(3 * 0.33333333333333326) = int(0.99...) = 0, so
        // high = 0.667, r = 0.333 keeps int(2.0) = 2 > 1, low = 0.333, r = 0.5 keeps
        // int(1.5) = 1: r = 0.5 exactly.
        QCOMPARE(decodingRatioFor(3, 1), 0.5);
        // A cache at or under the target is left alone: r = 0.
        QCOMPARE(decodingRatioFor(5, 5), 0.0);
        QCOMPARE(decodingRatioFor(4, 9), 0.0);
    }

    void targets()
    {
        // decoding: target 0 takes int(T(1 - r)) of the context: T 300, r 0.25 -> 225,
        // whatever the tokens seen; an explicit target wins over r.
        auto d = decodingPress(QStringLiteral("decoding(knorm):interval=4"));
        QVERIFY(d);
        QCOMPARE(d->targetSize(340, 300, 0.25), 225);
        QCOMPARE(d->targetSize(999, 300, 0.25), 225);
        QCOMPARE(d->interval(), 4);
        QCOMPARE(d->bufferSize(), 256);
        auto fixed = decodingPress(QStringLiteral("decoding(knorm):target=7,buffer=0"));
        QCOMPARE(fixed->targetSize(340, 300, 0.25), 7);
        QCOMPARE(fixed->bufferSize(), 0);
        // compression_ratio_decoding: max(1, int(seen (1 - r))): seen 101, r 0.5 -> 50;
        // seen 1, r 0.75 -> int(0.25) = 0, raised to 1; r 0 keeps all seen.
        auto f = decodingPress(QStringLiteral("compression_ratio_decoding(knorm)"));
        QCOMPARE(f->targetSize(101, 90, 0.5), 50);
        QCOMPARE(f->targetSize(1, 1, 0.75), 1);
        QCOMPARE(f->targetSize(77, 60, 0.0), 77);
        QCOMPARE(f->interval(), 512);
    }

    // At prefill a DecodingPress keeps the whole context (kvpress's pipeline does not
    // compress the prefill of one); prefill_decoding's prefill is its first press's.
    void prefillPhase()
    {
        PressFixture f(2, 2, 4, 20, 4, 8);
        f.randomize(3);
        for (const char* spec :
             {"decoding(knorm)", "compression_ratio_decoding(snapkv:window=4)"}) {
            const CompressionResult r =
                PressCatalog().press(QString::fromLatin1(spec))->compress(f.input, 0.5);
            QVERIFY2(r.kept.all().item<bool>(), spec);
            QCOMPARE(r.kept.sizes().vec(), (std::vector<int64_t>{2, 2, 20}));
        }
        const CompressionResult snap =
            PressCatalog().press(QStringLiteral("snapkv:window=4"))->compress(f.input, 0.5);
        const auto both = PressCatalog().press(
            QStringLiteral("prefill_decoding(snapkv:window=4+decoding(knorm):interval=8)"));
        QCOMPARE(both->spec(),
                 QStringLiteral("prefill_decoding(snapkv:window=4,kernel=5+decoding(knorm):"
                                "interval=8,target=0,buffer=256)"));
        QVERIFY(both->compress(f.input, 0.5).kept.equal(snap.kept));
        QCOMPARE(both->queryWindow(20), 4);
        // r outside [0, 1) is refused as for every press.
        QVERIFY_THROWS_EXCEPTION(Error, both->compress(f.input, 1.0));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("one press") << QStringLiteral("prefill_decoding(snapkv)")
                                   << QStringLiteral("a prefill press and a decoding press");
        QTest::newRow("decoding first") << QStringLiteral("prefill_decoding(decoding+decoding)")
                                        << QStringLiteral("is a decoding press");
        QTest::newRow("prefill second") << QStringLiteral("prefill_decoding(snapkv+knorm)")
                                        << QStringLiteral("must be decoding(...)");
        QTest::newRow("received attention")
            << QStringLiteral("decoding(observed)") << QStringLiteral("received attention");
        QTest::newRow("interval 0")
            << QStringLiteral("decoding:interval=0") << QStringLiteral("interval");
        QTest::newRow("no target here")
            << QStringLiteral("compression_ratio_decoding:target=5") << QStringLiteral("target");
    }
    void refusals()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        try {
            PressCatalog().press(spec);
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(message), qPrintable(e.message()));
        }
    }

    void listed()
    {
        const PressCatalog catalog;
        int found = 0;
        for (const QJsonValue& v : catalog.toJson()) {
            const QJsonObject o = v.toObject();
            const QString name = o.value(QStringLiteral("name")).toString();
            if (name != QLatin1String("decoding") &&
                name != QLatin1String("compression_ratio_decoding") &&
                name != QLatin1String("prefill_decoding"))
                continue;
            ++found;
            QVERIFY(o.value(QStringLiteral("available")).toBool());
            QVERIFY2(o.value(QStringLiteral("rule")).toString().contains(QLatin1String(".py")),
                     qPrintable(name));
            if (name != QLatin1String("prefill_decoding"))
                QCOMPARE(o.value(QStringLiteral("params"))
                             .toArray()
                             .first()
                             .toObject()
                             .value(QStringLiteral("default")),
                         QJsonValue(QStringLiteral("512")));
        }
        QCOMPARE(found, 3);
    }

    // decoding(knorm) every 4 forwards to 20 entries: T 30, question 3, 16 new tokens (no
    // stop id), so 1 + 15 forwards: compressions at forwards 4, 8, 12, 16. Forward 4 has
    // fed the question and 3 tokens: 30 + 6 = 36 positions, all still held, cut to 20;
    // each later one finds 20 + 4 = 24 and cuts to 20. Layer 0's keys depend on the token
    // and its position only, so a full prefill of the same tokens gives them: every step
    // keeps the 20 smallest key norms among the previous survivors and the new tokens. In
    // layer 1 the first step sees the full prefill's keys (up to float rounding).
    void cacheFollowsTheRule()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(5);
        const std::vector<int> context = contextIds(30), question{1, 2, 3};
        const ContextCache cache = model.prefill(context);
        auto press = decodingPress(QStringLiteral("decoding(knorm):interval=4,target=20"));
        const GenerateOptions options = maxNewTokens(16);
        const CompressedDecoding out =
            generateCompressed(model, cache, {}, *press, 0.5, question, options);
        QCOMPARE(int(out.generation.ids.size()), 16);
        QCOMPARE(int(out.steps.size()), 4);
        const std::vector<int> forwards{4, 8, 12, 16};
        for (size_t i = 0; i < out.steps.size(); ++i) {
            const DecodeCompressionStep& s = out.steps[i];
            QCOMPARE(s.forward, forwards[i]);
            QCOMPARE(s.positions, 30 + 3 + s.forward - 1);
            QCOMPARE(s.generated, int64_t(s.forward - 1)); // answer tokens in the cache
            QCOMPARE(s.entriesBefore, i == 0 ? 36 : 24);
            QCOMPARE(s.entriesAfter, 20);
            QCOMPARE(s.kept.size(2), s.positions);
            QCOMPARE(s.kept.sum(-1).min().item<int64_t>(), 20);
            QCOMPARE(s.kept.sum(-1).max().item<int64_t>(), 20);
        }
        QCOMPARE(out.finalEntries, 20);
        QCOMPARE(out.peakEntries, 36);
        QCOMPARE(out.finalKept.size(2), 30 + 3 + 15);

        // The same tokens through one prefill: layer 0's keys of every position.
        std::vector<int> all = context;
        all.insert(all.end(), question.begin(), question.end());
        all.insert(all.end(), out.generation.ids.begin(), out.generation.ids.end() - 1);
        const ContextCache full = model.prefill(all);
        for (int layer = 0; layer < 2; ++layer) {
            const at::Tensor norms = full.layers[size_t(layer)].keys.norm(2, -1); // [kv, P]
            at::Tensor held = torch::zeros({2, 0}, torch::kBool);
            for (size_t i = 0; i < (layer == 0 ? out.steps.size() : 1); ++i) {
                const DecodeCompressionStep& s = out.steps[i];
                at::Tensor candidates = torch::ones({2, s.positions}, torch::kBool);
                if (i > 0)
                    candidates.narrow(1, 0, held.size(1)).copy_(held);
                // The rule: 20 candidates kept per head, none with a larger norm than a
                // dropped candidate. A repeated token has the same norm at every position
                // (RoPE keeps norms), so ties are compared up to float rounding.
                const at::Tensor kept = s.kept[layer];
                QVERIFY(!(kept & candidates.logical_not()).any().item<bool>());
                QCOMPARE(kept.sum(-1).min().item<int64_t>(), 20);
                QCOMPARE(kept.sum(-1).max().item<int64_t>(), 20);
                const at::Tensor n = norms.narrow(1, 0, s.positions);
                const at::Tensor keptMax = n.masked_fill(kept.logical_not(), -INFINITY).amax(-1);
                const at::Tensor droppedMin =
                    n.masked_fill(kept | candidates.logical_not(), INFINITY).amin(-1);
                QVERIFY2((keptMax <= droppedMin + 1e-4).all().item<bool>(),
                         qPrintable(QStringLiteral("layer %1 step %2").arg(layer).arg(i)));
                held = s.kept[layer];
            }
        }
    }

    // compression_ratio_decoding at r 0.5, interval 3, T 24, question 2, 10 new tokens
    // (forwards 1 + 9 = 10): at forward 3, 24 + 2 + 2 = 28 seen -> int(14) = 14 per head;
    // forward 6: 31 seen -> 15 (14 + 3 = 17 held); forward 9: 34 -> 17 (15 + 3 = 18 held).
    void fractionOfSeen()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(9);
        const ContextCache cache = model.prefill(contextIds(24));
        auto press = decodingPress(
            QStringLiteral("compression_ratio_decoding(streamingllm:n_sink=2):interval=3"));
        const GenerateOptions options = maxNewTokens(10);
        const CompressedDecoding out =
            generateCompressed(model, cache, {}, *press, 0.5, {4, 5}, options);
        QCOMPARE(int(out.steps.size()), 3);
        const std::vector<int64_t> seen{28, 31, 34}, before{28, 17, 18}, after{14, 15, 17};
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(out.steps[i].positions, seen[i]);
            QCOMPARE(out.steps[i].target, after[i]);
            QCOMPARE(out.steps[i].entriesBefore, before[i]);
            QCOMPARE(out.steps[i].entriesAfter, after[i]);
        }
        // StreamingLLM over the survivors: the 2 sinks stay, then the most recent.
        const at::Tensor first = out.steps[0].kept[0][0];
        QVERIFY(first.narrow(0, 0, 2).all().item<bool>());
        QVERIFY(first.narrow(0, 28 - 12, 12).all().item<bool>());
        QCOMPARE(first.sum().item<int64_t>(), 14);
        QCOMPARE(out.finalEntries, 17 + 1); // one more token fed after forward 9
    }

    // A compression that never fires decodes exactly as FullCache; prefill_decoding starts
    // from its prefill press's cache (evicted entries gone), and decodes as the engine
    // does under that press's mask until its first compression.
    void withoutCompressionMatchesTheEngine()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(5);
        const ContextCache cache = model.prefill(contextIds(40));
        const GenerateOptions options = maxNewTokens(12);
        const Generation plain = generateAnswer(model, cache, CacheEdit{}, {1, 2}, options);
        auto never = decodingPress(QStringLiteral("decoding(knorm):interval=100,target=500"));
        const CompressedDecoding same =
            generateCompressed(model, cache, {}, *never, 0.5, {1, 2}, options);
        QCOMPARE(same.generation.ids, plain.ids);
        QVERIFY(same.steps.empty());
        QVERIFY(same.finalKept.all().item<bool>());

        const std::unique_ptr<Press> snap = PressCatalog().press(QStringLiteral("knorm"));
        CompressionInput input;
        input.cache = &cache;
        input.config = &model.config();
        const CompressionResult r = snap->compress(input, 0.5);
        const Generation masked = generateAnswer(model, cache, r.edit(), {1, 2}, options);
        auto both =
            decodingPress(QStringLiteral("prefill_decoding(knorm+decoding(knorm):interval=100)"));
        const CompressedDecoding cut =
            generateCompressed(model, cache, r.kept, *both, 0.5, {1, 2}, options);
        QCOMPARE(cut.generation.ids, masked.ids);
        QCOMPARE(cut.peakEntries, 20 + 2 + 11);
        QVERIFY(cut.finalKept.narrow(2, 0, 40).equal(r.kept));
    }

    // The whole loop against tests/reference/decoding_reference.py: a float64 decode of a
    // random Qwen2 checkpoint (GQA, biases) whose cache really drops entries, written
    // from kvpress's DecodingPress hook over KeyDiff. Same tokens, same compressions (at
    // forwards 5, 10, 15, 20) and the same positions kept by every layer and kv-head.
    void matchesThePythonReference()
    {
        PythonDecodeReference ref;
        ref.run(QStringLiteral("decoding_reference.py"));
        if (QTest::currentTestFailed())
            return;
        c10::InferenceMode guard;
        auto press = decodingPress(QStringLiteral("decoding(keydiff):interval=%1,target=%2")
                                       .arg(ref.value("interval"))
                                       .arg(ref.value("target")));
        const CompressedDecoding out =
            generateCompressed(*ref.model, ref.cache, {}, *press, 0.5, ref.question, ref.options);
        ref.compareWith(out);
    }

    // bench --presses: decode-time presses are also timed per generated token, against a
    // FullCache decode step, with one compression's time measured at a forced interval.
    void benchReportsDecodeCost()
    {
        const Transformer model = tinyGqaModel(5);
        const PressBench bench = benchPresses(
            model, 100, 0.5,
            {QStringLiteral("knorm"), QStringLiteral("decoding(knorm):interval=64"),
             QStringLiteral("prefill_decoding(knorm+compression_ratio_decoding(knorm))")},
            1, 8);
        QCOMPARE(int(bench.presses.size()), 3);
        QVERIFY(!bench.presses[0].decodeTime);
        for (size_t i = 1; i < 3; ++i) {
            const PressTiming& t = bench.presses[i];
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
            QVERIFY(t.decodeTime);
            QCOMPARE(t.decodeTokens, 8);
            QVERIFY(t.fullStepSeconds > 0 && t.pressStepSeconds > 0);
            // Interval forced to 8 / 2 = 4: forwards 1 + 7, compressions at 4 and 8.
            QCOMPARE(t.compressions, 2);
            QVERIFY(t.compressionSeconds > 0);
            QCOMPARE(t.interval, i == 1 ? 64 : 512);
            QVERIFY(t.perTokenFraction > 0);
        }
        const QJsonArray rows = bench.toJson().value(QStringLiteral("presses")).toArray();
        QVERIFY(!rows[0].toObject().contains(QStringLiteral("decode")));
        QVERIFY(rows[1]
                    .toObject()
                    .value(QStringLiteral("decode"))
                    .toObject()
                    .contains(QStringLiteral("compression_per_token_fraction_of_step")));
    }

    // The report's `decoding` table from rows' extra_json.decoding: two samples under one
    // decode-time configuration, means per compression step (step 0: the prefill).
    void reportTable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.kvl"));
        {
            RunWriter writer(path);
            writer.setRunInfo(RunInfo{});
            ConfigRecord full;
            full.compressor = kFullCacheCompressor;
            full.key = ConfigRecord::makeKey(full.compressor, 0.0);
            writer.addConfig(full);
            ConfigRecord dec;
            dec.compressor = QStringLiteral("decoding");
            dec.ratio = 0.5;
            dec.key = ConfigRecord::makeKey(dec.compressor, dec.ratio);
            dec.params = {{QStringLiteral("spec"),
                           QStringLiteral("decoding(knorm):interval=4,target=0,buffer=256")}};
            writer.addConfig(dec);
            // Sample 0: two compressions (evidence 1 -> 0.5 -> 0.25); sample 1: one
            // (1 -> 0.75), no second.
            const std::vector<std::vector<double>> evidence{{1.0, 0.5, 0.25}, {1.0, 0.75}};
            for (int i = 0; i < 2; ++i) {
                SampleRecord rec;
                rec.sample.key = QStringLiteral("s%1").arg(i);
                rec.sample.suite = QStringLiteral("retrieval");
                ResultRecord f;
                f.configKey = full.key;
                f.correct = true;
                rec.results.push_back(f);
                ResultRecord r;
                r.configKey = dec.key;
                QJsonArray steps;
                for (size_t k = 1; k < evidence[size_t(i)].size(); ++k)
                    steps.append(
                        QJsonObject{{QStringLiteral("generated"), int(4 * k)},
                                    {QStringLiteral("entries_after"), 10 + i},
                                    {QStringLiteral("evidence_kept"), evidence[size_t(i)][k]}});
                r.extra.insert(
                    QStringLiteral("decoding"),
                    QJsonObject{{QStringLiteral("prefill_evidence_kept"), evidence[size_t(i)][0]},
                                {QStringLiteral("steps"), steps}});
                rec.results.push_back(r);
                writer.writeSample(rec);
            }
        }
        RunReader reader(path);
        const QJsonArray rows = runReportJson(reader).value(QStringLiteral("decoding")).toArray();
        QCOMPARE(rows.size(), 3);
        const auto row = [&](int i) { return rows[i].toObject(); };
        QCOMPARE(row(0).value(QStringLiteral("step")).toInt(), 0);
        QCOMPARE(row(0).value(QStringLiteral("rows")).toInt(), 2);
        QCOMPARE(row(0).value(QStringLiteral("evidence_kept")).toDouble(), 1.0);
        // Step 1: (0.5 + 0.75) / 2, entries (10 + 11) / 2, generated 4.
        QCOMPARE(row(1).value(QStringLiteral("evidence_kept")).toDouble(), 0.625);
        QCOMPARE(row(1).value(QStringLiteral("entries_after")).toDouble(), 10.5);
        QCOMPARE(row(1).value(QStringLiteral("generated")).toDouble(), 4.0);
        // Step 2: sample 0 only.
        QCOMPARE(row(2).value(QStringLiteral("rows")).toInt(), 1);
        QCOMPARE(row(2).value(QStringLiteral("evidence_kept")).toDouble(), 0.25);
        QVERIFY(runReportText(reader).contains(QLatin1String("decoding")));
    }

    // The gold pass of a decode-time press replays the answer through the press's loop:
    // fed the press's own greedy answer it compresses at the same forwards with the same
    // kept entries, ranks every token first, and its attention rows are zero on the
    // context positions evicted before them; with no compression due it equals the
    // batched gold pass over the whole cache.
    void goldReplayFollowsTheSchedule()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(7);
        const ContextCache cache = model.prefill(contextIds(30));
        const std::vector<int> question{1, 2};
        const GenerateOptions generate = maxNewTokens(9);
        ScoreOptions options;
        options.captureAttention = true;
        auto press = decodingPress(QStringLiteral("decoding(knorm):interval=3,target=12"));
        const CompressedDecoding greedy =
            generateCompressed(model, cache, {}, *press, 0.5, question, generate);
        const std::vector<int>& answer = greedy.generation.ids;
        QCOMPARE(int(answer.size()), 9);
        const CompressedGoldPass gold =
            scoreCompressed(model, cache, {}, *press, 0.5, question, answer, options);
        QCOMPARE(gold.gold.goldRanks, std::vector<int>(answer.size(), 0));
        QCOMPARE(gold.steps.size(), greedy.steps.size()); // forwards 3, 6, 9
        QCOMPARE(gold.steps.size(), size_t(3));
        for (size_t i = 0; i < gold.steps.size(); ++i) {
            QCOMPARE(gold.steps[i].forward, greedy.steps[i].forward);
            QVERIFY(gold.steps[i].kept.equal(greedy.steps[i].kept));
        }
        // Rows: the 2 question tokens, then answer[0..7]; row 2 + k is forward k + 2's.
        const at::Tensor& att = gold.gold.contextAttention; // [L, kv, 10, 30]
        QCOMPARE(att.sizes().vec(), (std::vector<int64_t>{model.config().numLayers,
                                                          model.config().numKvHeads, 10, 30}));
        // Forward 4 (row 4) ran after the first compression (forward 3).
        const at::Tensor evicted = ~gold.steps[0].kept.narrow(2, 0, 30);
        QVERIFY(evicted.any().item<bool>());
        QCOMPARE(att.select(2, 4).masked_select(evicted).abs().max().item<float>(), 0.0f);
        QVERIFY(att.select(2, 1).masked_select(evicted).abs().max().item<float>() > 0.0f);

        auto never = decodingPress(QStringLiteral("decoding(knorm):interval=100,target=12"));
        const CompressedGoldPass whole =
            scoreCompressed(model, cache, {}, *never, 0.5, question, answer, options);
        QVERIFY(whole.steps.empty());
        const AnswerScore batched =
            scoreAnswer(model, cache, CacheEdit{}, question, answer, options);
        QVERIFY(std::abs(whole.gold.nll - batched.nll) <= 1e-4 * std::max(1.0, batched.nll));
        QVERIFY(whole.gold.contextAttention.allclose(batched.contextAttention, 1e-4, 1e-5));
        QVERIFY(std::abs(gold.gold.nll - batched.nll) > 1e-3); // the compressions moved it
    }

    // SnapKV reads its window of queries from the buffer: a configuration whose
    // compressions hold fewer buffered queries than that window (one per generated token
    // since the last compression, at most buffer + 1 forwards) is refused when it is
    // built, naming the numbers, instead of failing mid-answer on some samples.
    void tooFewQueriesIsRefusedUpFront()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(5);
        const ContextCache cache = model.prefill(contextIds(30));
        const GenerateOptions options = maxNewTokens(8);
        auto ok = decodingPress(QStringLiteral("decoding(snapkv:window=3):interval=3,target=16"));
        const CompressedDecoding out = generateCompressed(model, cache, {}, *ok, 0.5, {1}, options);
        QCOMPARE(out.steps.front().entriesAfter, 16);
        QVERIFY(out.steps.size() >= 2); // the later compressions scored with 3 queries
        for (const char* spec :
             {"decoding(snapkv:window=3):interval=3,target=16,buffer=0",
              "decoding(snapkv:window=3):interval=2",
              "compression_ratio_decoding(snapkv):interval=4", "cam(snapkv:window=8):interval=4",
              "decoding(tova):interval=1,buffer=0"}) {
            QString message;
            try {
                PressCatalog().press(QString::fromLatin1(spec));
            } catch (const Error& e) {
                message = e.message();
            }
            if (QByteArray(spec).startsWith("decoding(tova)")) {
                QVERIFY2(message.isEmpty(), qPrintable(message)); // TOVA reads one query
                continue;
            }
            QVERIFY2(message.contains(QLatin1String("scores with the last")), spec);
            QVERIFY2(message.contains(QLatin1String("interval")), spec);
        }
    }
};

QTEST_GUILESS_MAIN(TestDecodingPress)
#include "tst_decodingpress.moc"
