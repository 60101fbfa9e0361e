// Every press of the catalog on a real prefill of a tiny random-weight GQA model (4
// query heads over 2 kv-heads): it runs, returns a mask of the right shape, and the
// engine answers under it.
#include <torch/types.h>

#include "cache/keptselection.h"
#include "cache/pressprefill.h"
#include "cache/pressspec.h"
#include "cache/repeatprompts.h"
#include "compressors/pressbenchmark.h"
#include "compressors/presscatalog.h"
#include "compressors/subcache.h"
#include "model/answerdecoder.h"
#include "model/benchmark.h"
#include "model/rope.h"
#include "model/transformer.h"
#include "tinygqaconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {

// A JSON array nested [a][b][c] of numbers as a double tensor of `sizes`.
at::Tensor nestedTensor(const QJsonValue& v, at::IntArrayRef sizes)
{
    std::vector<double> flat;
    for (const QJsonValue& a : v.toArray())
        for (const QJsonValue& b : a.toArray())
            for (const QJsonValue& x : b.toArray())
                flat.push_back(x.toDouble());
    return torch::tensor(flat, torch::kDouble).view(sizes);
}

// Whether kept [layers, kv, T] keeps exactly the positions listed per layer and head.
bool sameKeptPositions(const at::Tensor& kept, const QJsonValue& positions)
{
    const QJsonArray layers = positions.toArray();
    if (layers.size() != kept.size(0))
        return false;
    for (qsizetype l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toArray();
        for (qsizetype h = 0; h < heads.size(); ++h) {
            at::Tensor want = torch::zeros({kept.size(2)}, torch::kBool);
            for (const QJsonValue& p : heads[h].toArray())
                want[p.toInt()] = true;
            if (!kept[l][h].equal(want)) {
                qWarning() << "layer" << l << "head" << h << "differs";
                return false;
            }
        }
    }
    return true;
}

} // namespace

class TestPressModel : public QObject
{
    Q_OBJECT

  private slots:
    // BlockPress with a window scorer follows kvpress: each block's own last queries
    // (from the layer's attention inputs, q-norm included), rotated at the context's last
    // positions. The reference takes those queries from another route: the prefill of the
    // context up to the block's end (causal, so the same pre-RoPE queries).
    void blockPressUsesEachBlocksQueries_data()
    {
        QTest::addColumn<bool>("qkNorm");
        QTest::newRow("llama") << false;
        QTest::newRow("qwen3 (q-norm)") << true;
    }
    void blockPressUsesEachBlocksQueries()
    {
        QFETCH(bool, qkNorm);
        c10::InferenceMode guard;
        ModelConfig config = test::tinyGqaConfig();
        config.qkNorm = qkNorm;
        if (qkNorm)
            config.architecture = Architecture::Qwen3;
        const Transformer model(config, randomModelWeights(config, 11, 0.3),
                                QStringLiteral("tiny/config.json"));
        std::vector<int> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back((13 * i + 5) % 50);
        const int64_t length = 300, window = 16, block = 32;
        const double ratio = 0.5;
        const auto press = PressCatalog().press(QStringLiteral("block(snapkv:window=16):block=32"));
        const PrefillOptions options = prefillOptionsFor({press.get()}, length);
        QVERIFY(options.keepAttentionInputs);
        const ContextCache cache = model.prefill(ids, options);
        CompressionInput input = compressionInputFor(model, cache);
        const CompressionResult got = press->compress(input, ratio);
        QCOMPARE(got.details.value(QStringLiteral("window_queries")).toString(),
                 QStringLiteral("block"));

        // The kvpress loop, written out (every block here is at least a window long).
        const auto scorer =
            PressCatalog().scorer(PressSpec::parse(QStringLiteral("snapkv:window=16")));
        const int64_t kept = int64_t(double(length) * (1.0 - ratio));
        auto [cos, sin] = model.rope().cosSin(torch::arange(length - window, length, torch::kLong));
        at::Tensor index = torch::arange(kept, torch::kLong).expand({2, 2, kept});
        for (int64_t i = kept; i < length; i += block) {
            const int64_t end = std::min(i + block, length);
            QVERIFY(end - i >= window);
            const at::Tensor current = torch::cat(
                {index, torch::arange(i, end, torch::kLong).expand({2, 2, end - i})}, -1);
            ContextCache sub = gatherEntries(cache, current);
            PrefillOptions prefixOptions;
            prefixOptions.window = int(window);
            const ContextCache prefix =
                model.prefill(std::vector<int>(ids.begin(), ids.begin() + end), prefixOptions);
            for (size_t l = 0; l < sub.layers.size(); ++l) {
                const at::Tensor pre = prefix.layers[l].windowQueriesPreRope; // [heads, w, hd]
                sub.layers[l].windowQueriesPreRope = pre;
                sub.layers[l].windowQueries =
                    Rope::apply(pre.permute({1, 0, 2}), cos, sin).permute({1, 0, 2}).contiguous();
            }
            CompressionInput subInput = input;
            subInput.cache = &sub;
            const at::Tensor scores = scorer->score(subInput, ratio);
            index = current.masked_select(bestK(scores, kept)).view({2, 2, kept});
        }
        const at::Tensor expected =
            torch::zeros({2, 2, length}, torch::kBool).scatter_(-1, index, true);
        QVERIFY(got.kept.equal(expected));

        // Without the attention inputs the press falls back to the context's last queries
        // and says so; here that changes the kept entries.
        PrefillOptions without = options;
        without.keepAttentionInputs = false;
        const ContextCache plain = model.prefill(ids, without);
        input.cache = &plain;
        const CompressionResult fallback = press->compress(input, ratio);
        QCOMPARE(fallback.details.value(QStringLiteral("window_queries")).toString(),
                 QStringLiteral("context"));
        QVERIFY(!fallback.kept.equal(expected));
    }

    void everyPressOnARealPrefill_data()
    {
        QTest::addColumn<QString>("spec");
        for (const QString& spec : PressCatalog().exampleSpecs())
            QTest::newRow(qPrintable(spec)) << spec;
        // Selectors over the attention scorers the studies use.
        for (const char* spec :
             {"adakv(snapkv)", "chunkkv(snapkv)", "pyramidkv:window=8,beta=2", "criticalkv(tova)",
              "adakv(criticalkv(snapkv))", "whitelist(expected)", "block(observed)", "fair(tova)",
              "keyrerotation(adakv(snapkv))", "composed(knorm+think)", "quantized:bits=2",
              "quantized:bits=8", "lukv", "keyrerotation(finch:window=16)", "merging(snapkv)",
              "dms(compactor)", "simlayerkv:n_recent=64,lazy_threshold=0.3",
              "duo_attention:sink_size=16,recent_size=32", "adakv(cap)"})
            QTest::newRow(spec) << QString::fromLatin1(spec);
    }

    void everyPressOnARealPrefill()
    {
        QFETCH(QString, spec);
        c10::InferenceMode guard;
        const ModelConfig config = test::tinyGqaConfig();
        const Transformer model(config, randomModelWeights(config, 5, 0.3),
                                QStringLiteral("tiny/config.json"));
        std::vector<int> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back((7 * i + 3) % 50);
        const auto press = PressCatalog().press(spec);
        const PrefillOptions options = prefillOptionsFor({press.get()}, int64_t(ids.size()));
        const ContextCache cache = model.prefill(ids, options);
        const RepeatPrompts prompts{{5, 6, 7}, {8, 9}, {10}, 2}; // KVzip re-reads
        CompressionInput input = compressionInputFor(model, cache, &ids, &prompts);
        input.spans = {{10, 40, QStringLiteral("system_rule")}};
        const CompressionResult r = press->compress(input, 0.5);
        QCOMPARE(r.kept.sizes().vec(), (std::vector<int64_t>{2, 2, 300}));
        QVERIFY(r.kept.any().item<bool>());
        if (r.scores.defined())
            QVERIFY(!r.scores.isnan().any().item<bool>());
        GenerateOptions gen;
        gen.maxNewTokens = 3;
        const Generation answer = generateAnswer(model, r.context(cache), r.edit(), {1, 2, 3}, gen);
        QCOMPARE(int(answer.ids.size()), 3);
        // Transforms really change what the model reads.
        if (r.rewritten)
            QVERIFY(r.rewritten->layers[0].keys.defined());
    }

    // H2O's score accumulated inside prefill's attention blocks equals the scorer's former
    // recomputation from every captured query: full causal softmax per query head, summed
    // over the queries, divided by the T - j queries that see key j, mean over the group.
    void receivedAttentionEqualsRecomputation()
    {
        c10::InferenceMode guard;
        const ModelConfig config = test::tinyGqaConfig();
        Transformer model(config, randomModelWeights(config, 5, 0.3),
                          QStringLiteral("tiny/config.json"));
        model.setBlockRows(64); // several blocks, the last one partial
        std::vector<int> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back((7 * i + 3) % 50);
        const int64_t t = int64_t(ids.size());
        PrefillOptions options;
        options.window = int(t);
        options.receivedAttention = true;
        const ContextCache cache = model.prefill(ids, options);
        CompressionInput input;
        input.cache = &cache;
        input.config = &model.config();
        const at::Tensor scores =
            PressCatalog().press(QStringLiteral("observed"))->compress(input, 0.5).scores;
        const int64_t heads = config.numHeads, kv = config.numKvHeads, d = config.headDim;
        const at::Tensor future = torch::ones({t, t}, torch::kBool).triu(1);
        const at::Tensor seenBy = torch::arange(t, 0, -1, torch::kFloat);
        for (int l = 0; l < config.numLayers; ++l) {
            const LayerCache& layer = cache.layers[size_t(l)];
            const at::Tensor k = layer.keys.repeat_interleave(heads / kv, 0); // [heads, T, d]
            const at::Tensor logits =
                torch::matmul(layer.windowQueries, k.transpose(1, 2)) / std::sqrt(double(d));
            const at::Tensor attn = torch::softmax(logits.masked_fill(future, -INFINITY), -1);
            const at::Tensor expected = (attn.sum(1) / seenBy).view({kv, heads / kv, t}).mean(1);
            const double diff = (scores[l] - expected).abs().max().item<double>();
            QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("layer %1: %2").arg(l).arg(diff)));
        }
    }

    // The presses that read model internals (every context query, pre-RoPE queries and
    // keys, the RoPE) against references written out here from the prefill's tensors by
    // another route: full T x T attention with masks instead of chunking or windows,
    // explicit rotation by angle instead of the engine's Rope, a loop over future
    // positions instead of the averaged rotation.
    void modelInternalsPressesMatchReferences()
    {
        c10::InferenceMode guard;
        const ModelConfig config = test::tinyGqaConfig();
        const Transformer model(config, randomModelWeights(config, 17, 0.3),
                                QStringLiteral("tiny/config.json"));
        std::vector<int> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back((11 * i + 7) % 50);
        const int64_t t = 300, heads = config.numHeads, kv = config.numKvHeads, d = config.headDim;
        const PressCatalog catalog;
        const std::vector<QString> specs{
            QStringLiteral("finch:window=40"), QStringLiteral("non_causal_attention:chunk_size=64"),
            QStringLiteral("cap"), QStringLiteral("duo_attention:sink_size=16,recent_size=32")};
        std::vector<std::unique_ptr<Press>> presses;
        std::vector<const Press*> pointers;
        for (const QString& s : specs) {
            presses.push_back(catalog.press(s));
            pointers.push_back(presses.back().get());
        }
        const PrefillOptions options = prefillOptionsFor(pointers, t);
        QCOMPARE(int64_t(options.window), t);
        const ContextCache cache = model.prefill(ids, options);
        const CompressionInput input = compressionInputFor(model, cache);
        const at::Tensor invFreq =
            1.0 / torch::pow(config.ropeTheta, torch::arange(0, d, 2, torch::kDouble) / double(d));
        // Rotation of x [..., d] at position p, by angle p * invFreq (rotate_half layout).
        const auto rotate = [&](const at::Tensor& x, double p) {
            const at::Tensor angle = torch::cat({invFreq, invFreq}) * p;
            const at::Tensor x64 = x.to(torch::kDouble);
            const at::Tensor half =
                torch::cat({-x64.narrow(-1, d / 2, d / 2), x64.narrow(-1, 0, d / 2)}, -1);
            return x64 * torch::cos(angle) + half * torch::sin(angle);
        };
        const auto sameKept = [&](const at::Tensor& scores, const at::Tensor& kept, int64_t n) {
            // The press's kept set must be a top-n of the reference scores (ties aside:
            // random weights make them unlikely).
            return bestK(scores, n).equal(kept);
        };
        const double ratio = 0.5;
        const int64_t n = int64_t(double(t) * (1.0 - ratio));

        // Finch, window 40: full causal attention of the last 40 queries, row i scaled by
        // T - 40 + i, mean over rows and group; window at max + 1.
        {
            const CompressionResult r = presses[0]->compress(input, ratio);
            std::vector<at::Tensor> layers;
            for (const LayerCache& l : cache.layers) {
                const at::Tensor q = l.windowQueries.narrow(1, t - 40, 40).to(torch::kDouble);
                const at::Tensor k = l.keys.repeat_interleave(heads / kv, 0).to(torch::kDouble);
                at::Tensor logits = torch::matmul(q, k.transpose(1, 2)) / std::sqrt(double(d));
                const at::Tensor rows = torch::arange(t - 40, t, torch::kLong).view({40, 1});
                logits = logits.masked_fill(torch::arange(t, torch::kLong).view({1, t}) > rows,
                                            -INFINITY);
                at::Tensor a = torch::softmax(logits, -1).narrow(2, 0, t - 40);
                a = a * torch::arange(t - 40, t, torch::kDouble).view({1, 40, 1});
                at::Tensor s = a.mean(1).view({kv, heads / kv, t - 40}).mean(1);
                s = torch::constant_pad_nd(s, {0, 40}, s.max().item<double>() + 1);
                layers.push_back(s);
            }
            const at::Tensor expected = torch::stack(layers);
            QVERIFY2(r.scores.to(torch::kDouble).allclose(expected, 1e-4, 1e-6), "finch scores");
            QVERIFY(sameKept(expected, r.kept, n));
        }
        // Non-causal attention, chunk 64 (T 300: 4 full chunks and one of 44): a T x T mask
        // of "same chunk", softmax of unscaled logits per query, summed over queries.
        {
            const CompressionResult r = presses[1]->compress(input, ratio);
            const at::Tensor chunkOf = torch::arange(t, torch::kLong).div(64, "floor");
            const at::Tensor other = chunkOf.view({t, 1}) != chunkOf.view({1, t});
            std::vector<at::Tensor> layers;
            for (const LayerCache& l : cache.layers) {
                const at::Tensor q = l.windowQueries.to(torch::kDouble);
                const at::Tensor k = l.keys.repeat_interleave(heads / kv, 0).to(torch::kDouble);
                const at::Tensor a = torch::softmax(
                    torch::matmul(q, k.transpose(1, 2)).masked_fill(other, -INFINITY), -1);
                at::Tensor s = a.sum(1).view({kv, heads / kv, t}).mean(1) *
                               l.values.to(torch::kDouble).norm(2, -1);
                const at::Tensor padded = torch::constant_pad_nd(s, {1, 1}, 0.0);
                s = (padded.narrow(1, 0, t) + padded.narrow(1, 1, t) + padded.narrow(1, 2, t)) / 3;
                layers.push_back((s - s.mean()) / s.std());
            }
            const at::Tensor expected = torch::stack(layers);
            QVERIFY2(r.scores.to(torch::kDouble).allclose(expected, 1e-3, 1e-4),
                     "non-causal scores");
        }
        // CAPKV: anchor = mean over t >= 4 and p in [T, T + 512) of the pre-RoPE query
        // rotated at p; per query head w = exp(5 (cos - max)), leverage of the values under
        // I + sum (w + 1e-6) v v^T by an explicit inverse.
        {
            const CompressionResult r = presses[2]->compress(input, ratio);
            std::vector<at::Tensor> layers;
            for (const LayerCache& l : cache.layers) {
                const at::Tensor q = l.windowQueriesPreRope.narrow(1, 4, t - 4); // [H, T', d]
                at::Tensor anchor = torch::zeros({heads, d}, torch::kDouble);
                for (int64_t p = t; p < t + 512; ++p)
                    anchor += rotate(q, double(p)).mean(1) / 512.0;
                anchor = anchor / anchor.norm(2, -1, true);
                const at::Tensor k =
                    l.keys.narrow(1, 4, t - 4).repeat_interleave(heads / kv, 0).to(torch::kDouble);
                const at::Tensor cosine =
                    torch::matmul(k / k.norm(2, -1, true), anchor.unsqueeze(-1)).squeeze(-1);
                const at::Tensor w = torch::exp(5.0 * (cosine - cosine.amax(-1, true)));
                const at::Tensor v = l.values.narrow(1, 4, t - 4)
                                         .repeat_interleave(heads / kv, 0)
                                         .to(torch::kDouble);
                const at::Tensor a = torch::eye(d, torch::kDouble) +
                                     torch::matmul(v.transpose(1, 2) * (w + 1e-6).unsqueeze(1), v);
                const at::Tensor lev = (torch::matmul(v, torch::inverse(a)) * v).sum(-1); // [H, T']
                at::Tensor s = (w * lev).view({kv, heads / kv, t - 4}).mean(1);
                s = torch::constant_pad_nd(s, {4, 0}, s.max().item<double>() + 1);
                layers.push_back(s);
            }
            const at::Tensor expected = torch::stack(layers);
            QVERIFY2(r.scores.to(torch::kDouble).allclose(expected, 1e-3, 1e-6), "cap scores");
            QVERIFY(sameKept(expected, r.kept, n));
        }
        // DuoAttention on the fly: mean pre-RoPE query and key, the key rotated at 0..499,
        // the query at 499, softmax / sqrt(d), area under the cumsum, group mean.
        {
            const CompressionResult r = presses[3]->compress(input, ratio);
            const QJsonArray got = r.details.value(QStringLiteral("head_scores")).toArray();
            QCOMPARE(int(got.size()), config.numLayers * int(kv));
            std::vector<double> expected;
            for (const LayerCache& l : cache.layers) {
                const at::Tensor q = rotate(l.windowQueriesPreRope.mean(1), 499.0); // [H, d]
                std::vector<at::Tensor> keys;
                for (int p = 0; p < 500; ++p)
                    keys.push_back(rotate(l.keysPreRope.mean(1), double(p)));
                const at::Tensor k = torch::stack(keys, 1).repeat_interleave(heads / kv, 0);
                const at::Tensor a = torch::softmax(
                    torch::matmul(k, q.unsqueeze(-1)).squeeze(-1) / std::sqrt(double(d)), -1);
                const at::Tensor area = a.cumsum(-1).mean(-1).view({kv, heads / kv}).mean(1);
                for (int64_t h = 0; h < kv; ++h)
                    expected.push_back(area[h].item<double>());
            }
            for (size_t i = 0; i < expected.size(); ++i)
                QVERIFY2(std::abs(got[qsizetype(i)].toDouble() - expected[i]) < 1e-5,
                         qPrintable(QStringLiteral("head %1").arg(i)));
            // round(0.5 x 4) = 2 streaming heads: the two lowest keep 16 + 32 entries.
            std::vector<size_t> order(expected.size());
            for (size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                             [&](size_t a, size_t b) { return expected[a] < expected[b]; });
            const at::Tensor perHead = r.kept.sum(-1).reshape(-1);
            for (size_t i = 0; i < order.size(); ++i)
                QCOMPARE(perHead[int64_t(order[i])].item<int64_t>(), i < 2 ? int64_t(48) : t);
        }
    }

    // KVzip against tests/reference/kvzip_reference.py: a float64 re-read of a random
    // Qwen2 checkpoint (GQA, biases) written from kvpress's KVzipPress as read (chunks
    // after the template prefix, repeat prompts, the subsampled causal softmax, max over
    // the group and the rows, then the global threshold or the per-layer budget). Same
    // scores (float32 against float64) and the same kept positions in every case.
    void kvzipMatchesThePythonReference()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess python;
        python.start(
            QStringLiteral("/usr/bin/python3"),
            {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/kvzip_reference.py"), dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QFile file(dir.filePath(QStringLiteral("expected.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        const auto ints = [&](const char* key) {
            std::vector<int> out;
            for (const QJsonValue& x : expected.value(QLatin1String(key)).toArray())
                out.push_back(x.toInt());
            return out;
        };

        c10::InferenceMode guard;
        const auto model = Transformer::load(dir.path());
        const std::vector<int> ids = ints("context");
        const ContextCache cache = model->prefill(ids);
        RepeatPrompts prompts;
        prompts.first = ints("first");
        prompts.later = ints("later");
        prompts.suffix = ints("suffix");
        prompts.prefixLength = expected.value(QStringLiteral("prefix")).toInt();
        const CompressionInput input = compressionInputFor(*model, cache, &ids, &prompts);
        const QString spec = QStringLiteral("kvzip:n_sink=%1,chunk_size=%2")
                                 .arg(expected.value(QStringLiteral("n_sink")).toInt())
                                 .arg(expected.value(QStringLiteral("chunk_size")).toInt());
        const at::Tensor want =
            nestedTensor(expected.value(QStringLiteral("scores")),
                         {int64_t(cache.layers.size()), model->config().numKvHeads, cache.length});
        const QJsonArray cases = expected.value(QStringLiteral("cases")).toArray();
        QCOMPARE(int(cases.size()), 4);
        for (const QJsonValue& c : cases) {
            const QJsonObject one = c.toObject();
            const bool layerwise = one.value(QStringLiteral("layerwise")).toBool();
            const double ratio = one.value(QStringLiteral("ratio")).toDouble();
            const auto press = PressCatalog().press(
                spec + (layerwise ? QStringLiteral(",layerwise=true") : QString()));
            const CompressionResult r = press->compress(input, ratio);
            const double diff = (r.scores.to(torch::kDouble) - want).abs().max().item<double>();
            QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("scores differ by %1").arg(diff)));
            QVERIFY2(sameKeptPositions(r.kept, one.value(QStringLiteral("kept"))),
                     qPrintable(QStringLiteral("r %1 layerwise %2").arg(ratio).arg(layerwise)));
        }
    }

    // KVCompose against tests/reference/kvcompose_reference.py: a float64 re-read of the
    // context on a random Qwen2 checkpoint written from kvpress's KVComposePress as read
    // (per-head aggregation of the re-read rows' attention, group and head means, sorted
    // composite curves, layer 0 lifted, structured and unstructured budgets). Same
    // scores and kept positions for three settings at two ratios.
    void kvComposeMatchesThePythonReference()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/kvcompose_reference.py"),
                      dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QFile file(dir.filePath(QStringLiteral("expected.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        std::vector<int> ids;
        for (const QJsonValue& x : expected.value(QStringLiteral("context")).toArray())
            ids.push_back(x.toInt());

        c10::InferenceMode guard;
        const auto model = Transformer::load(dir.path());
        const ContextCache cache = model->prefill(ids);
        const CompressionInput input = compressionInputFor(*model, cache, &ids);
        const QJsonArray cases = expected.value(QStringLiteral("cases")).toArray();
        QCOMPARE(int(cases.size()), 6);
        for (const QJsonValue& c : cases) {
            const QJsonObject one = c.toObject();
            const QString spec = one.value(QStringLiteral("spec")).toString();
            const double ratio = one.value(QStringLiteral("ratio")).toDouble();
            const CompressionResult r = PressCatalog().press(spec)->compress(input, ratio);
            const QString what = QStringLiteral("%1 r %2").arg(spec).arg(ratio);
            const double diff =
                (r.scores.to(torch::kDouble) -
                 nestedTensor(one.value(QStringLiteral("scores")), r.scores.sizes()))
                    .abs()
                    .max()
                    .item<double>();
            QVERIFY2(diff < 1e-5,
                     qPrintable(what + QStringLiteral(": scores differ by %1").arg(diff)));
            QVERIFY2(sameKeptPositions(r.kept, one.value(QStringLiteral("kept"))),
                     qPrintable(what));
        }
    }

    void benchmarkReportsFractions()
    {
        const ModelConfig config = test::tinyGqaConfig();
        const Transformer model(config, randomModelWeights(config, 5, 0.3),
                                QStringLiteral("tiny/config.json"));
        const PressBench bench = benchPresses(
            model, 200, 0.5,
            {QStringLiteral("knorm"), QStringLiteral("snapkv"), QStringLiteral("observed")});
        QCOMPARE(int(bench.presses.size()), 3);
        QVERIFY(bench.prefillSeconds > 0);
        for (const PressTiming& t : bench.presses) {
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
            QVERIFY(t.prefillFraction > 0);
        }
        // H2O asked for the accumulation: the prefill is also timed without it.
        QVERIFY(bench.prefillWithoutReceived.wall > 0);
        QVERIFY(bench.toJson().contains(QStringLiteral("received_attention_overhead")));
    }

    // Opt-in (KVLENS_PRESS_BENCH=tokens): every press's time as a fraction of the prefill
    // on the random-0.5b shape, printed as JSON (what `bench --presses` will report).
    void benchmarkRandomHalfB()
    {
        const int tokens = qEnvironmentVariableIntValue("KVLENS_PRESS_BENCH");
        if (tokens <= 0)
            QSKIP("set KVLENS_PRESS_BENCH=<tokens> to run");
        const ModelConfig config = randomShapeConfig(QStringLiteral("random-0.5b"));
        const Transformer model(config, randomModelWeights(config, 1),
                                QStringLiteral("random-0.5b"));
        const PressBench bench = benchPresses(model, tokens, 0.5);
        qInfo().noquote() << QJsonDocument(bench.toJson()).toJson(QJsonDocument::Indented);
        for (const PressTiming& t : bench.presses)
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    }
};

QTEST_GUILESS_MAIN(TestPressModel)
#include "tst_pressmodel.moc"
