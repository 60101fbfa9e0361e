// Every press of the catalog on a real prefill of a tiny random-weight GQA model (4
// query heads over 2 kv-heads): it runs, returns a mask of the right shape, and the
// engine answers under it.
#include <torch/torch.h>

#include "cache/pressprefill.h"
#include "compressors/pressbenchmark.h"
#include "compressors/presscatalog.h"
#include "compressors/subcache.h"
#include "cache/keptselection.h"
#include "cache/pressspec.h"
#include "model/rope.h"
#include "model/answerdecoder.h"
#include "model/benchmark.h"
#include "model/transformer.h"

#include <QJsonDocument>
#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {

ModelConfig tinyConfig()
{
    ModelConfig c;
    c.vocabSize = 50;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.maxPositionEmbeddings = 1024;
    c.ropeTheta = 10000.0;
    return c;
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
        ModelConfig config = tinyConfig();
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
        const auto scorer = PressCatalog().scorer(PressSpec::parse(QStringLiteral("snapkv:window=16")));
        const int64_t kept = int64_t(double(length) * (1.0 - ratio));
        auto [cos, sin] = model.rope().cosSin(torch::arange(length - window, length, torch::kLong));
        at::Tensor index = torch::arange(kept, torch::kLong).expand({2, 2, kept});
        for (int64_t i = kept; i < length; i += block) {
            const int64_t end = std::min(i + block, length);
            QVERIFY(end - i >= window);
            const at::Tensor current =
                torch::cat({index, torch::arange(i, end, torch::kLong).expand({2, 2, end - i})}, -1);
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
              "quantized:bits=8"})
            QTest::newRow(spec) << QString::fromLatin1(spec);
    }

    void everyPressOnARealPrefill()
    {
        QFETCH(QString, spec);
        c10::InferenceMode guard;
        const ModelConfig config = tinyConfig();
        const Transformer model(config, randomModelWeights(config, 5, 0.3),
                                QStringLiteral("tiny/config.json"));
        std::vector<int> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back((7 * i + 3) % 50);
        const auto press = PressCatalog().press(spec);
        const PrefillOptions options = prefillOptionsFor({press.get()}, int64_t(ids.size()));
        const ContextCache cache = model.prefill(ids, options);
        CompressionInput input = compressionInputFor(model, cache);
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
        const ModelConfig config = tinyConfig();
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

    void benchmarkReportsFractions()
    {
        const ModelConfig config = tinyConfig();
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
