// ExtendOptions::contextSelector, the hook offloaded decoding retrieves through: each
// layer asks the selector which context entries every query row of every kv-head sees.
// Expectations come from the routes the model already had (no selector, a CacheEdit
// mask, one row at a time), never from the selector path itself.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "common/error.h"
#include "model/transformer.h"

#include <QtTest>
#include <algorithm>

using namespace kvl;

namespace {

ModelConfig tinyConfig()
{
    ModelConfig c;
    c.architecture = Architecture::Qwen2;
    c.attentionBias = true;
    c.vocabSize = 50;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.maxPositionEmbeddings = 128;
    c.ropeTheta = 10000.0;
    return c;
}

std::unique_ptr<Transformer> tinyModel()
{
    const ModelConfig config = tinyConfig();
    return std::make_unique<Transformer>(config, randomModelWeights(config, 7, 0.3),
                                         QStringLiteral("tiny/config.json"));
}

std::vector<int> someIds(int n, int seed = 0)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back((7 * i + 3 + 11 * seed) % 50);
    return ids;
}

// A random selection bool [layers, kv, rows, T] with at least one entry per row.
at::Tensor randomSelection(int64_t layers, int64_t kv, int64_t rows, int64_t t, uint64_t seed)
{
    at::Generator gen = at::detail::createCPUGenerator(seed);
    at::Tensor s = at::rand({layers, kv, rows, t}, gen) < 0.4;
    s.select(3, 0).fill_(true);
    return s;
}

double relativeDiff(const at::Tensor& a, const at::Tensor& b)
{
    return (a - b).abs().max().item<double>() / std::max(1.0, b.abs().max().item<double>());
}

} // namespace

class TestContextSelector : public QObject
{
    Q_OBJECT

  private slots:
    // Selecting every entry adds a bias of zeros: the same floats as no selector, with
    // and without an edit underneath, for a question of several rows and a decode step.
    void selectingEverythingIsBitIdentical()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        model->setBlockRows(2); // several query blocks for the 5-row question
        const ContextCache cache = model->prefill(someIds(20));
        const int64_t kv = model->config().numKvHeads;
        at::Tensor mask = at::ones({2, kv, 20}, at::kBool);
        mask.narrow(2, 3, 6).fill_(false);
        for (const CacheEdit& edit : {CacheEdit{}, CacheEdit{mask, {}}}) {
            ExtendOptions all;
            all.allLogits = true;
            all.contextSelector = [&](int, const at::Tensor& q) {
                return at::ones({kv, q.size(1), 20}, at::kBool);
            };
            ExtendOptions none;
            none.allLogits = true;
            Continuation a, b;
            const ExtendResult qa = model->extend(cache, edit, a, someIds(5, 1), all);
            const ExtendResult qb = model->extend(cache, edit, b, someIds(5, 1), none);
            QVERIFY(at::equal(qa.logits, qb.logits));
            const ExtendResult sa = model->extend(cache, edit, a, {9}, all);
            const ExtendResult sb = model->extend(cache, edit, b, {9}, none);
            QVERIFY(at::equal(sa.logits, sb.logits));
            for (size_t l = 0; l < a.keys.size(); ++l)
                QVERIFY(at::equal(a.keys[l], b.keys[l]));
        }
    }

    // For one query row a selection is a kept mask: a decode step selecting M per layer
    // gives exactly what extend() gives under CacheEdit{keptMask = M}.
    void oneRowSelectionEqualsKeptMask()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache cache = model->prefill(someIds(24));
        const int64_t kv = model->config().numKvHeads;
        const at::Tensor m = randomSelection(2, kv, 1, 24, 3).select(2, 0); // [L, kv, T]
        Continuation base;
        model->extend(cache, CacheEdit{}, base, someIds(4, 2));
        Continuation a = base, b = base;
        ExtendOptions selecting;
        selecting.contextSelector = [&](int layer, const at::Tensor&) {
            return m[layer].unsqueeze(1);
        };
        const ExtendResult sa = model->extend(cache, CacheEdit{}, a, {11}, selecting);
        const ExtendResult sb = model->extend(cache, CacheEdit{m, {}}, b, {11});
        QVERIFY(at::equal(sa.logits, sb.logits));
        // The mask matters here: the whole context gives other logits.
        Continuation c = base;
        const ExtendResult sc = model->extend(cache, CacheEdit{}, c, {11});
        QVERIFY(relativeDiff(sc.logits, sb.logits) > 1e-3);
    }

    // Several rows each with its own selection: row i is what feeding the rows one at a
    // time gives, each under its own selection as a kept mask.
    void eachRowSelectsForItself()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        model->setBlockRows(2);
        const ContextCache cache = model->prefill(someIds(30));
        const int64_t kv = model->config().numKvHeads;
        const std::vector<int> question = someIds(5, 3);
        const at::Tensor sel = randomSelection(2, kv, 5, 30, 5); // [L, kv, n, T]
        ExtendOptions selecting;
        selecting.allLogits = true;
        selecting.contextSelector = [&](int layer, const at::Tensor& q) {
            if (q.size(1) != 5)
                throw std::runtime_error("unexpected rows");
            return sel[layer];
        };
        Continuation together;
        const ExtendResult r = model->extend(cache, CacheEdit{}, together, question, selecting);

        Continuation alone;
        std::vector<at::Tensor> rows;
        for (int i = 0; i < 5; ++i) {
            const CacheEdit edit{sel.select(2, i).contiguous(), {}};
            rows.push_back(model->extend(cache, edit, alone, {question[size_t(i)]}).logits);
        }
        const at::Tensor expected = at::cat(rows, 0);
        QVERIFY2(relativeDiff(r.logits, expected) < 1e-5,
                 qPrintable(QString::number(relativeDiff(r.logits, expected))));
        // One shared selection (row 0's for every row) answers differently.
        ExtendOptions shared = selecting;
        shared.contextSelector = [&](int layer, const at::Tensor& q) {
            return sel[layer].narrow(1, 0, 1).expand({kv, q.size(1), 30}).contiguous();
        };
        Continuation other;
        const ExtendResult s = model->extend(cache, CacheEdit{}, other, question, shared);
        QVERIFY(relativeDiff(s.logits, expected) > 1e-3);
    }

    // The selector sees each layer's post-RoPE queries, the ones keepQueries hands back.
    void selectorSeesTheLayersQueries()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache cache = model->prefill(someIds(12));
        const int64_t kv = model->config().numKvHeads;
        std::vector<at::Tensor> seen;
        std::vector<int> layers;
        ExtendOptions options;
        options.keepQueries = true;
        options.contextSelector = [&](int layer, const at::Tensor& q) {
            layers.push_back(layer);
            seen.push_back(q.clone());
            return at::ones({kv, q.size(1), 12}, at::kBool);
        };
        Continuation c;
        const ExtendResult r = model->extend(cache, CacheEdit{}, c, someIds(3, 4), options);
        QCOMPARE(layers, (std::vector<int>{0, 1}));
        for (size_t l = 0; l < 2; ++l)
            QVERIFY(at::equal(seen[l], r.queries[l]));
    }

    // A selector of the wrong shape or type is refused naming the model and the layer.
    void badSelectionIsRefused()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache cache = model->prefill(someIds(12));
        ExtendOptions options;
        options.contextSelector = [&](int, const at::Tensor& q) {
            return at::ones({model->config().numKvHeads, q.size(1), 11}, at::kBool);
        };
        Continuation c;
        try {
            model->extend(cache, CacheEdit{}, c, someIds(2), options);
            QFAIL("a selection of 11 context entries for 12 was accepted");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("tiny/config.json")) &&
                         e.message().contains(QStringLiteral("layer 0")),
                     qPrintable(e.message()));
        }
        std::vector<Continuation> cs;
        const CacheEdit full;
        QVERIFY_THROWS_EXCEPTION(Error, model->extendEach(cache, {&full}, cs, someIds(2), options));
    }
};

QTEST_GUILESS_MAIN(TestContextSelector)
#include "tst_contextselector.moc"
