// CaM (kvpress cam_press.py): the merge step worked out by hand on a tiny cache (which
// entries stay, which evicted ones merge, their windows, probabilities 0 and 1 so the
// draws are certain, the merged values), the draw frequency at a fractional probability,
// the catalog entry, and the decode loop on a tiny random GQA model (when it compresses,
// how many it merges, one selection per layer, reproducible draws).
#include <torch/types.h> // before any Qt header: Qt's `slots` macro breaks libtorch's

#include "decodefixture.h"

#include "common/error.h"
#include "compressors/cammerge.h"

#include <ATen/CPUGeneratorImpl.h>
#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

using namespace kvl;
using namespace kvl::test;

namespace {

at::Tensor floats(std::vector<float> v, std::vector<int64_t> shape)
{
    return torch::tensor(v).reshape(shape);
}

// The hand-worked cache: 2 kv-heads, 8 entries, head dim 2, target 4. Mean scores over
// the heads (head 1 scores 0 everywhere, head 0 twice the mean) 9 2 8 7 2 6 1 0.5: kept
// 0 2 3 5; evicted 1 (2), 4 (2), 6 (1), 7 (0.5).
at::Tensor handScores()
{
    const at::Tensor mean = floats({9, 2, 8, 7, 2, 6, 1, 0.5}, {8});
    return torch::stack({mean * 2, torch::zeros({8})});
}

// Running attention per kv-head.
// Head 0: entry 1 over window {2, 3}: 0.4 / mean(0.2, 0.6) = 1; entry 4 over {5}: 0.5 /
// 0.25 = 2 -> 1; entry 6 has no kept entry after it (w = 0: nothing to merge into).
// Head 1: entry 1: 0 / 0.2 = 0; entry 4: 0.3 / 0 = inf -> 1.
at::Tensor handAttention()
{
    return floats({0.3f, 0.4f, 0.2f, 0.6f, 0.5f, 0.25f, 0.1f, 0.05f, //
                   0.5f, 0.0f, 0.2f, 0.2f, 0.3f, 0.0f, 0.1f, 0.1f},
                  {2, 8});
}

// v[h, i] = (10 h + i, -(i + 1)).
at::Tensor handValues()
{
    at::Tensor v = torch::zeros({2, 8, 2});
    for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 8; ++i) {
            v[h][i][0] = float(10 * h + i);
            v[h][i][1] = -float(i + 1);
        }
    return v;
}

} // namespace

class TestCamPress : public QObject
{
    Q_OBJECT

  private slots:
    void mergeByHand_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("budget");
        QTest::addColumn<int>("candidates");
        QTest::addColumn<int>("merged");
        // (head, entry) -> value expected after the merge, for entries that change.
        QTest::addColumn<QVariantList>("changed");
        // steps 3, budget 2: candidates 1 (2), 4 (2), 6 (1). Head 0: entry 1 adds
        // (1, -2) / 2 to 2 and 3: (2.5, -4), (3.5, -5); entry 4 adds (4, -5) / 1 to 5:
        // (9, -11). Head 1: entry 4 adds (14, -5) to 5: (29, -11); entry 1 draws p = 0.
        QTest::newRow("windows of 2, 1 and 0")
            << 3 << 2 << 3 << 3
            << QVariantList{QVariantList{0, 2, 2.5, -4.0}, QVariantList{0, 3, 3.5, -5.0},
                            QVariantList{0, 5, 9.0, -11.0}, QVariantList{1, 5, 29.0, -11.0}};
        // budget 1: entry 1's window is {2} alone, p = 0.4 / 0.2 -> 1: (2, -3) + (1, -2).
        QTest::newRow("budget 1") << 3 << 1 << 3 << 3
                                  << QVariantList{QVariantList{0, 2, 3.0, -5.0},
                                                  QVariantList{0, 5, 9.0, -11.0},
                                                  QVariantList{1, 5, 29.0, -11.0}};
        // One step since the last compression: one candidate; 1 and 4 tie at 2 and the
        // later goes first, so only 4 merges.
        QTest::newRow("ties: later first")
            << 1 << 2 << 1 << 2
            << QVariantList{QVariantList{0, 5, 9.0, -11.0}, QVariantList{1, 5, 29.0, -11.0}};
        // More steps than evicted entries: all four; 7 has no window.
        QTest::newRow("all evicted")
            << 9 << 2 << 4 << 3
            << QVariantList{QVariantList{0, 2, 2.5, -4.0}, QVariantList{0, 3, 3.5, -5.0},
                            QVariantList{0, 5, 9.0, -11.0}, QVariantList{1, 5, 29.0, -11.0}};
    }
    void mergeByHand()
    {
        QFETCH(int, steps);
        QFETCH(int, budget);
        QFETCH(int, candidates);
        QFETCH(int, merged);
        QFETCH(QVariantList, changed);
        at::Generator gen = at::detail::createCPUGenerator(7);
        const at::Tensor values = handValues();
        const CamMerge m = camMerge(handScores(), handAttention(), values, 4, steps, budget, gen);
        QCOMPARE(m.kept.sizes().vec(), (std::vector<int64_t>{4}));
        const std::vector<int64_t> kept(m.kept.data_ptr<int64_t>(), m.kept.data_ptr<int64_t>() + 4);
        QCOMPARE(kept, (std::vector<int64_t>{0, 2, 3, 5}));
        QCOMPARE(m.candidates, int64_t(candidates));
        QCOMPARE(m.merged, int64_t(merged));
        at::Tensor expected = values.clone();
        for (const QVariant& c : changed) {
            const QVariantList e = c.toList();
            expected[e[0].toInt()][e[1].toInt()][0] = e[2].toFloat();
            expected[e[0].toInt()][e[1].toInt()][1] = e[3].toFloat();
        }
        QVERIFY2(torch::allclose(m.values, expected, 0, 1e-6),
                 qPrintable(QStringLiteral("max diff %1")
                                .arg((m.values - expected).abs().max().item<double>())));
        // The input is left as it was.
        QVERIFY(values.equal(handValues()));
    }

    // p = 0.25 on 4000 kv-heads: about a quarter merge (4.4 sigma either way), and the
    // same generator seed gives the same draws.
    void drawFrequency()
    {
        const int64_t heads = 4000;
        const at::Tensor scores = floats({0, 1}, {1, 2}).expand({heads, 2});
        const at::Tensor attention = floats({0.25f, 1.0f}, {1, 2}).expand({heads, 2});
        const at::Tensor values = torch::ones({heads, 2, 1});
        at::Generator a = at::detail::createCPUGenerator(3), b = at::detail::createCPUGenerator(3);
        const CamMerge x = camMerge(scores, attention, values, 1, 1, 32, a);
        const CamMerge y = camMerge(scores, attention, values, 1, 1, 32, b);
        QVERIFY2(x.merged > 880 && x.merged < 1120, qPrintable(QString::number(x.merged)));
        QCOMPARE(x.merged, y.merged);
        QVERIFY(x.values.equal(y.values));
        // Merged heads hold 1 + 1, the others 1.
        QCOMPARE((x.values.select(1, 1) > 1.5).sum().item<int64_t>(), x.merged);
    }

    void catalog()
    {
        auto cam = decodingPress(QStringLiteral("cam"));
        QVERIFY(cam);
        QCOMPARE(cam->spec(), QStringLiteral("cam(knorm):interval=512,target=0,buffer=256,"
                                             "merge_budget=32,seed=0"));
        QCOMPARE(cam->mergeBudget(), 32);
        QCOMPARE(cam->interval(), 512);
        QCOMPARE(cam->targetSize(340, 300, 0.25), 225);
        auto small =
            decodingPress(QStringLiteral("cam(keydiff):target=64,interval=8,merge_budget=4"));
        QCOMPARE(small->targetSize(340, 300, 0.25), 64);
        QCOMPARE(small->mergeBudget(), 4);
        // Plain decoding presses do not merge.
        QCOMPARE(decodingPress(QStringLiteral("decoding"))->mergeBudget(), 0);
        QVERIFY_THROWS_EXCEPTION(Error, PressCatalog().press(QStringLiteral("cam:merge_budget=0")));
        QVERIFY_THROWS_EXCEPTION(Error, PressCatalog().press(QStringLiteral("cam(observed)")));
        bool listed = false;
        for (const QJsonValue& v : PressCatalog().toJson()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() != QLatin1String("cam"))
                continue;
            listed = true;
            QVERIFY(o.value(QStringLiteral("available")).toBool());
            const QString rule = o.value(QStringLiteral("rule")).toString();
            QVERIFY(rule.contains(QLatin1String("cam_press.py")));
            QVERIFY(rule.contains(QLatin1String("ICML 2024")));
        }
        QVERIFY(listed);
        const std::vector<QString> examples = PressCatalog().exampleSpecs();
        QCOMPARE(std::count(examples.begin(), examples.end(), QStringLiteral("cam")), 1);
    }

    // cam(knorm) every 4 forwards to 20 entries, merge budget 4: T 30, question 3, 16 new
    // tokens. As decoding: compressions at forwards 4 (36 entries), 8, 12, 16 (24 each);
    // each layer keeps one set of entries for all its kv-heads, and picks min(4, evicted)
    // candidates: 4 per layer every time.
    void loopCompressesAndMerges()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(5);
        const ContextCache cache = model.prefill(contextIds(30));
        auto press =
            decodingPress(QStringLiteral("cam(knorm):interval=4,target=20,merge_budget=4"));
        const GenerateOptions options = maxNewTokens(16);
        const CompressedDecoding out =
            generateCompressed(model, cache, {}, *press, 0.5, {1, 2, 3}, options);
        QCOMPARE(int(out.generation.ids.size()), 16);
        QCOMPARE(int(out.steps.size()), 4);
        int64_t merged = 0;
        for (size_t i = 0; i < out.steps.size(); ++i) {
            const DecodeCompressionStep& s = out.steps[i];
            QCOMPARE(s.forward, int(4 * (i + 1)));
            QCOMPARE(s.entriesBefore, i == 0 ? 36 : 24);
            QCOMPARE(s.entriesAfter, 20);
            QCOMPARE(s.mergeCandidates, 2 * 4);
            QVERIFY(s.merged <= 2 * 4 * 2);
            merged += s.merged;
            for (int l = 0; l < 2; ++l)
                QVERIFY(s.kept[l][0].equal(s.kept[l][1]));
        }
        QVERIFY(merged > 0);
        // The same sample decodes the same (draws seeded from the press and the sample).
        const CompressedDecoding again =
            generateCompressed(model, cache, {}, *press, 0.5, {1, 2, 3}, options);
        QCOMPARE(again.generation.ids, out.generation.ids);
        for (size_t i = 0; i < out.steps.size(); ++i) {
            QCOMPARE(again.steps[i].merged, out.steps[i].merged);
            QVERIFY(again.steps[i].kept.equal(out.steps[i].kept));
        }
    }

    // Under the target the interval waits: target 40, interval 4, T 30 + question 3. At
    // forward 4 the cache holds 36 entries, at 8 40 (not over): the first compression is
    // at forward 9 (41 entries, 1 evicted, 1 candidate per layer although 9 forwards
    // passed); the count restarts, so the next is at 13 (44 entries: 4 evicted, 4
    // candidates per layer). decoding() with the same numbers fires at 4 and 8 anyway.
    void waitsForTheTarget()
    {
        c10::InferenceMode guard;
        const Transformer model = tinyGqaModel(5);
        const ContextCache cache = model.prefill(contextIds(30));
        const GenerateOptions options = maxNewTokens(14);
        auto cam = decodingPress(QStringLiteral("cam(knorm):interval=4,target=40"));
        const CompressedDecoding out =
            generateCompressed(model, cache, {}, *cam, 0.5, {1, 2, 3}, options);
        QCOMPARE(int(out.steps.size()), 2);
        QCOMPARE(out.steps[0].forward, 9);
        QCOMPARE(out.steps[0].entriesBefore, 41);
        QCOMPARE(out.steps[0].mergeCandidates, 2);
        QCOMPARE(out.steps[1].forward, 13);
        QCOMPARE(out.steps[1].entriesBefore, 44);
        QCOMPARE(out.steps[1].mergeCandidates, 8);
        auto plain = decodingPress(QStringLiteral("decoding(knorm):interval=4,target=40"));
        const CompressedDecoding d =
            generateCompressed(model, cache, {}, *plain, 0.5, {1, 2, 3}, options);
        QCOMPARE(d.steps.front().forward, 4);
        QCOMPARE(d.steps.front().entriesAfter, 36);
    }

    // The whole loop against tests/reference/cam_reference.py: a float64 decode of a
    // random Qwen2 checkpoint (GQA, biases) under CaM over KeyDiff, written from
    // cam_press.py with plain per-candidate loops and the same seeded draws. Same tokens,
    // same compressions, the same positions kept by every layer and kv-head and the same
    // number of merges (merged values change the later tokens).
    void matchesThePythonReference()
    {
        PythonDecodeReference ref;
        ref.run(QStringLiteral("cam_reference.py"));
        if (QTest::currentTestFailed())
            return;
        c10::InferenceMode guard;
        auto press =
            decodingPress(QStringLiteral("cam(keydiff):interval=%1,target=%2,merge_budget=%3")
                              .arg(ref.value("interval"))
                              .arg(ref.value("target"))
                              .arg(ref.value("merge_budget")));
        const CompressedDecoding out =
            generateCompressed(*ref.model, ref.cache, {}, *press, 0.5, ref.question, ref.options);
        ref.compareWith(out);
        if (QTest::currentTestFailed())
            return;
        const QJsonArray steps = ref.steps();
        for (qsizetype i = 0; i < steps.size(); ++i)
            QCOMPARE(out.steps[size_t(i)].merged,
                     steps[i].toObject().value(QStringLiteral("merged")).toInteger());
    }
};

QTEST_GUILESS_MAIN(TestCamPress)
#include "tst_campress.moc"
