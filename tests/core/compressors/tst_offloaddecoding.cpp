// Offloaded decoding (issue 19): greedy decoding where every forward after the context
// reads, per layer, only what an OffloadIndex retrieves. A full budget must be FullCache
// exactly (the same floats: selecting every entry adds zeros), with a hand-made exact
// top-k index and with the catalogue's quest / yakv (kv_bits 0) / shadowkv (rank >= head
// dim). The recorded shares are recomputed from what the index returned.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "cache/pressprefill.h"
#include "compressors/offloaddecoding.h"
#include "compressors/offloadindex.h"
#include "compressors/offloadpress.h"
#include "compressors/pressbenchmark.h"
#include "compressors/presscatalog.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"
#include "tinygqaconfig.h"

#include <QJsonArray>
#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {

std::vector<int> someIds(int n, int seed = 0)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back((7 * i + 3 + 11 * seed) % 50);
    return ids;
}

// Exact retrieval: the `budget` entries with the highest q.k (max over the GQA group) per
// kv-head and row, over the exact context. Remembers every selection it returned.
class TopKIndex : public OffloadIndex
{
  public:
    TopKIndex(const ContextCache& context, int64_t budget) : m_context(context), m_budget(budget) {}
    const ContextCache& context() const override { return m_context; }
    at::Tensor select(int layer, const at::Tensor& queries) const override
    {
        const at::Tensor& k = m_context.layers[size_t(layer)].keys; // [kv, T, hd]
        const int64_t kv = k.size(0), t = k.size(1), heads = queries.size(0);
        const int64_t n = queries.size(1), hd = queries.size(2);
        const at::Tensor scores =
            at::matmul(queries.reshape({kv, heads / kv * n, hd}), k.transpose(1, 2))
                .view({kv, heads / kv, n, t})
                .amax(1);
        at::Tensor selected = at::zeros({kv, n, t}, at::kBool);
        selected.scatter_(2, std::get<1>(scores.topk(std::min(m_budget, t), 2)), true);
        calls.push_back({layer, selected});
        return selected;
    }
    int64_t budgetTokens() const override { return m_budget; }
    OffloadCost cost() const override { return {}; }
    const OffloadSettings& settings() const override { return m_settings; }

    mutable std::vector<std::pair<int, at::Tensor>> calls;

  private:
    ContextCache m_context;
    int64_t m_budget;
    OffloadSettings m_settings;
};

// FullCache's tokens and per-forward logits, by extend() without any selector.
std::pair<Generation, std::vector<at::Tensor>> fullCache(const Transformer& model,
                                                         const ContextCache& cache,
                                                         const std::vector<int>& question,
                                                         const GenerateOptions& options)
{
    Continuation c;
    std::vector<at::Tensor> logits;
    Generation gen;
    at::Tensor next = model.extend(cache, CacheEdit{}, c, question).logits.select(0, 0);
    logits.push_back(next);
    int token = greedyStep(next, gen, options, cache.length + c.length, model.maxPositions());
    while (token >= 0) {
        next = model.extend(cache, CacheEdit{}, c, {token}).logits.select(0, 0);
        logits.push_back(next);
        token = greedyStep(next, gen, options, cache.length + c.length, model.maxPositions());
    }
    return {gen, logits};
}

} // namespace

class TestOffloadDecoding : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        m_model = std::make_unique<Transformer>(test::tinyGqaConfig(),
                                                randomModelWeights(test::tinyGqaConfig(), 5, 0.3),
                                                QStringLiteral("tiny/config.json"));
        m_options.maxNewTokens = 8;
    }

    // budget >= T: the same tokens and logits as FullCache, bit for bit, and the same
    // tokens as generateAnswer.
    void fullBudgetIsFullCache()
    {
        c10::InferenceMode guard;
        const ContextCache cache = m_model->prefill(someIds(40));
        const std::vector<int> question = someIds(5, 2);
        TopKIndex index(cache, 40);
        std::vector<at::Tensor> logits;
        const OffloadedDecoding d =
            generateOffloaded(*m_model, index, question, m_options, &logits);
        const auto [gen, expected] = fullCache(*m_model, cache, question, m_options);
        QCOMPARE(d.generation.ids, gen.ids);
        QCOMPARE(d.generation.ids, generateAnswer(*m_model, cache, {}, question, m_options).ids);
        QCOMPARE(logits.size(), expected.size());
        for (size_t i = 0; i < logits.size(); ++i)
            QVERIFY(at::equal(logits[i], expected[i]));
        QVERIFY(d.selectedShare.eq(1.0f).all().item<bool>());
    }

    // A small budget: the shares of each step are what the index returned, summed over
    // layers, kv-heads and rows; every (kv-head, row) selects `budget`, so a step's mean
    // share is budget / T; the map quantises the shares.
    void sharesFollowTheSelection()
    {
        c10::InferenceMode guard;
        const ContextCache cache = m_model->prefill(someIds(40));
        const std::vector<int> question = someIds(5, 2);
        TopKIndex index(cache, 6);
        const OffloadedDecoding d = generateOffloaded(*m_model, index, question, m_options);
        const int64_t layers = m_model->config().numLayers;
        QCOMPARE(int64_t(index.calls.size()), d.steps() * layers);
        QCOMPARE(d.rows.front(), int64_t(question.size()));
        QCOMPARE(d.selectedShare.size(0), d.steps());
        QCOMPARE(d.selectedShare.size(1), int64_t(40));
        for (int64_t s = 0; s < d.steps(); ++s) {
            at::Tensor sum = at::zeros({40}, at::kDouble);
            int64_t selections = 0;
            for (int64_t l = 0; l < layers; ++l) {
                const auto& [layer, selected] = index.calls[size_t(s * layers + l)];
                QCOMPARE(layer, int(l));
                QCOMPARE(selected.size(1), d.rows[size_t(s)]);
                sum += selected.sum(at::IntArrayRef{0, 1}, false, at::kDouble);
                selections += selected.size(0) * selected.size(1);
            }
            QVERIFY(at::allclose(d.selectedShare[s].to(at::kDouble), sum / double(selections), 0,
                                 1e-6));
            QVERIFY(std::abs(d.selectedShare[s].mean().item<double>() - 6.0 / 40.0) < 1e-6);
        }
        // The question's rows select differently: its share is not all 0/1.
        const RetrievalMap map = d.retrievalMap();
        QVERIFY(map.isConsistent());
        QCOMPARE(map.steps, d.steps());
        for (int64_t s = 0; s < map.steps; ++s)
            for (int64_t p = 0; p < 40; ++p)
                QCOMPARE(map.shares[map.index(s, p)],
                         RetrievalMap::quantize(d.selectedShare[s][p].item<double>()));
        // The answer under the budget is the model's own under those masks: a later
        // forward only sees what it selected (checked by the model's hook tests); here
        // the small budget changes at least one step's logits from FullCache.
        std::vector<at::Tensor> logits;
        TopKIndex again(cache, 6);
        generateOffloaded(*m_model, again, question, m_options, &logits);
        const auto [gen, expected] = fullCache(*m_model, cache, question, m_options);
        QVERIFY(!at::equal(logits.front(), expected.front()));
    }

    // The catalogue's offload presses at a budget covering the context are FullCache
    // exactly where their stored context is exact (quest; yakv with exact K/V; shadowkv
    // with exact keys), and FullCache up to the SVD's rounding where shadowkv's rank
    // covers the SVD's width (per kv-head: the head dim; joint: kv-heads x head dim).
    void catalogPressesAtFullBudget_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("tolerance"); // relative to the logits' scale; 0: bitwise
        QTest::newRow("quest") << QStringLiteral("quest:budget=64") << 0.0;
        QTest::newRow("yakv exact kv") << QStringLiteral("yakv:budget=64,kv_bits=0") << 0.0;
        QTest::newRow("shadowkv exact keys") << QStringLiteral("shadowkv:budget=64,rank=0") << 0.0;
        QTest::newRow("shadowkv per-head rank = head dim")
            << QStringLiteral("shadowkv:budget=64,rank=8,svd=per_head") << 1e-4;
        QTest::newRow("shadowkv joint rank = width")
            << QStringLiteral("shadowkv:budget=64,rank=16") << 1e-4;
    }
    void catalogPressesAtFullBudget()
    {
        QFETCH(QString, spec);
        QFETCH(double, tolerance);
        c10::InferenceMode guard;
        const ContextCache cache = m_model->prefill(someIds(40));
        const std::vector<int> question = someIds(5, 2);
        const std::unique_ptr<Press> press = PressCatalog().press(spec);
        const auto* offload = dynamic_cast<const OffloadPress*>(press.get());
        QVERIFY(offload != nullptr);
        const CompressionInput input = compressionInputFor(*m_model, cache);
        const std::unique_ptr<OffloadIndex> index = offload->index(input, 0.5);
        QCOMPARE(index->budgetTokens(), int64_t(40));
        std::vector<at::Tensor> logits;
        const OffloadedDecoding d =
            generateOffloaded(*m_model, *index, question, m_options, &logits);
        const auto [gen, expected] = fullCache(*m_model, cache, question, m_options);
        QCOMPARE(d.generation.ids, gen.ids);
        QCOMPARE(logits.size(), expected.size());
        for (size_t i = 0; i < logits.size(); ++i) {
            const double diff = (logits[i] - expected[i]).abs().max().item<double>() /
                                std::max(1.0, expected[i].abs().max().item<double>());
            QVERIFY2(tolerance == 0.0 ? at::equal(logits[i], expected[i]) : diff < tolerance,
                     qPrintable(QStringLiteral("step %1 differs by %2").arg(i).arg(diff)));
        }
        QVERIFY(d.selectedShare.eq(1.0f).all().item<bool>());
        QVERIFY(d.pressSeconds > 0.0);
    }

    // The gold pass under retrieval (question and answer fed at once, each row selecting
    // for itself) scores the gold answer as feeding it token by token under the same
    // retrieval does; at a full budget it is FullCache's score exactly.
    void goldPassUnderRetrieval()
    {
        c10::InferenceMode guard;
        const ContextCache cache = m_model->prefill(someIds(40));
        const std::vector<int> question = someIds(4, 2), answer = someIds(5, 3);
        for (const int64_t budget : {int64_t(6), int64_t(40)}) {
            TopKIndex index(cache, budget);
            ScoreOptions options;
            options.contextSelector = [&](int l, const at::Tensor& q) {
                return index.select(l, q);
            };
            const AnswerScore gold = scoreAnswer(*m_model, cache, {}, question, answer, options);
            ExtendOptions stepOptions;
            stepOptions.contextSelector = options.contextSelector;
            Continuation c;
            std::vector<int> feed = question;
            feed.insert(feed.end(), answer.begin(), answer.end() - 1);
            std::vector<double> expected;
            for (size_t i = 0; i < feed.size(); ++i) {
                const at::Tensor logits =
                    m_model->extend(cache, {}, c, {feed[i]}, stepOptions).logits.select(0, 0);
                if (i + 1 >= question.size())
                    expected.push_back(
                        at::log_softmax(logits.to(at::kDouble), 0)[answer[i + 1 - question.size()]]
                            .item<double>());
            }
            QCOMPARE(gold.tokenLogprobs.size(), expected.size());
            for (size_t i = 0; i < expected.size(); ++i)
                QVERIFY2(std::abs(gold.tokenLogprobs[i] - expected[i]) < 1e-4,
                         qPrintable(QStringLiteral("budget %1 token %2: %3 vs %4")
                                        .arg(budget)
                                        .arg(i)
                                        .arg(gold.tokenLogprobs[i])
                                        .arg(expected[i])));
            const AnswerScore full = scoreAnswer(*m_model, cache, {}, question, answer);
            if (budget == 40)
                QCOMPARE(gold.tokenLogprobs, full.tokenLogprobs);
            else
                QVERIFY(std::abs(gold.nll - full.nll) > 1e-3);
        }
    }

    // bench --presses: an offloading press gets its decode figures (retrieval cost per
    // token against a FullCache step), a score-based press does not.
    void benchReportsRetrievalCost()
    {
        const PressBench bench = benchPresses(
            *m_model, 40, 0.5, {QStringLiteral("quest:page=4"), QStringLiteral("knorm")}, 1, 4);
        QCOMPARE(int(bench.presses.size()), 2);
        const PressTiming& quest = bench.presses[0];
        QVERIFY2(quest.error.isEmpty(), qPrintable(quest.error));
        QVERIFY(quest.offloadTime);
        QCOMPARE(quest.budgetTokens, int64_t(20));
        QVERIFY(quest.fullStepSeconds > 0.0 && quest.offloadStepSeconds > 0.0);
        QVERIFY(quest.selectSecondsPerToken > 0.0);
        QVERIFY(quest.selectSecondsPerToken < quest.offloadStepSeconds);
        QVERIFY(quest.attendedShare > 0.0 && quest.attendedShare <= 0.5 + 1e-6);
        const QJsonObject o = bench.toJson()
                                  .value(QStringLiteral("presses"))
                                  .toArray()
                                  .first()
                                  .toObject()
                                  .value(QStringLiteral("offload"))
                                  .toObject();
        QCOMPARE(o.value(QStringLiteral("budget_tokens")).toInt(), 20);
        QVERIFY(o.value(QStringLiteral("select_fraction_of_step")).toDouble() > 0.0);
        QVERIFY(!bench.presses[1].offloadTime);
    }

  private:
    std::unique_ptr<Transformer> m_model;
    GenerateOptions m_options;
};

QTEST_GUILESS_MAIN(TestOffloadDecoding)
#include "tst_offloaddecoding.moc"
