// The analysis cache: prefill once, then answer under kept masks and logit biases.
// Every expectation comes from an independent route through the model (one full
// forward, a cache with entries physically removed or duplicated, argmax of full
// forwards), never from the code path under test.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "common/error.h"
#include "model/answerdecoder.h"
#include "model/attention.h"
#include "model/benchmark.h"
#include "model/decodebatch.h"
#include "model/transformer.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace kvl;

namespace {

ModelConfig tinyConfig(Architecture arch = Architecture::Llama)
{
    ModelConfig c;
    c.architecture = arch;
    c.vocabSize = 50;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.maxPositionEmbeddings = 64;
    c.ropeTheta = 10000.0;
    c.qkNorm = arch == Architecture::Qwen3;
    c.attentionBias = arch == Architecture::Qwen2;
    return c;
}

std::unique_ptr<Transformer> tinyModel(const ModelConfig& config = tinyConfig())
{
    return std::make_unique<Transformer>(config, randomModelWeights(config, 42, 0.3),
                                         QStringLiteral("tiny/config.json"));
}

std::vector<int> someIds(int n, int seed = 0)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back((7 * i + 3 + 11 * seed) % 50);
    return ids;
}

std::vector<int> slice(const std::vector<int>& v, int begin, int end)
{
    return {v.begin() + begin, v.begin() + end};
}

double maxDiff(const at::Tensor& a, const at::Tensor& b)
{
    return (a - b).abs().max().item<double>();
}

// Logits reached by two routes (one full forward, a prefill then chunks) sum the same
// float32 products in another order, which the CPU's BLAS kernels choose: they differ
// by a few parts per million of the logits' scale (1e-5 of logits near 5 was seen on an
// AVX-512 machine). A wrong position, mask or cache entry moves them by 1e-2 or more.
double logitsDiff(const at::Tensor& a, const at::Tensor& b)
{
    return maxDiff(a, b) / std::max(1.0, b.abs().max().item<double>());
}

} // namespace

class TestContextCache : public QObject
{
    Q_OBJECT

  private slots:
    void prefillThenIncrementalEqualsFullForward_data()
    {
        QTest::addColumn<int>("arch");
        QTest::newRow("llama") << int(Architecture::Llama);
        QTest::newRow("qwen2 biases") << int(Architecture::Qwen2);
        QTest::newRow("qwen3 qk-norm") << int(Architecture::Qwen3);
    }

    void prefillThenIncrementalEqualsFullForward()
    {
        QFETCH(int, arch);
        c10::InferenceMode guard;
        auto model = tinyModel(tinyConfig(Architecture(arch)));
        const std::vector<int> ids = someIds(20);
        const at::Tensor full = model->forward(ids); // [20, vocab]

        const ContextCache context = model->prefill(slice(ids, 0, 12));
        QVERIFY(logitsDiff(context.lastLogits, full[11]) < 1e-5);
        Continuation cont;
        ExtendOptions all;
        all.allLogits = true;
        const ExtendResult chunk = model->extend(context, {}, cont, slice(ids, 12, 15), all);
        QVERIFY(logitsDiff(chunk.logits, full.narrow(0, 12, 3)) < 1e-5);
        for (int i = 15; i < 20; ++i) {
            const ExtendResult step = model->extend(context, {}, cont, {ids[size_t(i)]});
            QVERIFY2(logitsDiff(step.logits[0], full[i]) < 1e-5, qPrintable(QString::number(i)));
        }
        QCOMPARE(cont.length, int64_t(8));
    }

    void allTrueMaskEqualsFullCacheExactly()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache context = model->prefill(someIds(16));
        CacheEdit kept;
        kept.keptMask = at::ones({2, 2, 16}, at::kBool);
        ExtendOptions options;
        options.allLogits = true;
        options.captureAttention = true;
        Continuation a, b;
        const ExtendResult full = model->extend(context, {}, a, someIds(5, 1), options);
        const ExtendResult masked = model->extend(context, kept, b, someIds(5, 1), options);
        QVERIFY(at::equal(full.logits, masked.logits));
        QVERIFY(at::equal(full.contextAttention, masked.contextAttention));
    }

    // Dropping entries by mask equals attention over a cache that physically lacks
    // them (original positions kept, since post-RoPE keys are stored).
    void droppedMaskEqualsPhysicalRemoval()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const int t = 14;
        const ContextCache context = model->prefill(someIds(t));
        const std::vector<std::vector<int64_t>> dropped = {{1, 4, 5, 9}, {0, 2, 7, 8, 10, 13}};
        CacheEdit edit;
        edit.keptMask = at::ones({2, 2, t}, at::kBool);
        ContextCache removed = context;
        for (int l = 0; l < 2; ++l) {
            std::vector<int64_t> keep;
            for (int64_t p = 0; p < t; ++p) {
                if (std::find(dropped[l].begin(), dropped[l].end(), p) == dropped[l].end())
                    keep.push_back(p);
                else
                    edit.keptMask[l].select(1, p).fill_(false);
            }
            const at::Tensor index = at::tensor(keep, at::kLong);
            removed.layers[l].keys = context.layers[l].keys.index_select(1, index);
            removed.layers[l].values = context.layers[l].values.index_select(1, index);
        }
        ExtendOptions options;
        options.allLogits = true;
        Continuation a, b;
        const ExtendResult masked = model->extend(context, edit, a, someIds(4, 2), options);
        const ExtendResult physical = model->extend(removed, {}, b, someIds(4, 2), options);
        QVERIFY(logitsDiff(masked.logits, physical.logits) < 1e-5);
        // Decoding continues the same way.
        const ExtendResult m2 = model->extend(context, edit, a, {3});
        const ExtendResult p2 = model->extend(removed, {}, b, {3});
        QVERIFY(logitsDiff(m2.logits, p2.logits) < 1e-5);
        // And the mask really changes the answer distribution.
        Continuation c;
        QVERIFY(maxDiff(model->extend(context, {}, c, someIds(4, 2), options).logits,
                        masked.logits) > 1e-3);
    }

    void perHeadMaskGivesZeroAttentionOnDroppedEntries()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache context = model->prefill(someIds(12));
        CacheEdit edit;
        edit.keptMask = at::rand({2, 2, 12}) > 0.5;
        ExtendOptions options;
        options.captureAttention = true;
        Continuation cont;
        const ExtendResult r = model->extend(context, edit, cont, someIds(3, 4), options);
        QCOMPARE(r.contextAttention.sizes(), (at::IntArrayRef{2, 2, 3, 12}));
        const at::Tensor onDropped = r.contextAttention.masked_select(
            edit.keptMask.logical_not().unsqueeze(2).expand({2, 2, 3, 12}));
        QVERIFY(onDropped.numel() > 0);
        QCOMPARE(onDropped.abs().max().item<double>(), 0.0);
        // Attention over the context plus the question's own tokens sums to one, so the
        // context part is at most one.
        QVERIFY(r.contextAttention.sum(3).max().item<double>() <= 1.0 + 1e-6);
    }

    // Adding log(beta) to the logits of a set of entries equals having each of them
    // beta times in the cache (beta = 2: duplicated entries).
    void logBetaBiasEqualsDuplicatedEntries()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const int t = 12;
        const ContextCache context = model->prefill(someIds(t, 3));
        const std::vector<std::vector<int64_t>> boosted = {{2, 3, 8}, {0, 5, 6, 11}};
        CacheEdit edit;
        edit.logitBias = at::zeros({2, 2, t}, at::kFloat);
        ContextCache duplicated = context;
        for (int l = 0; l < 2; ++l) {
            const at::Tensor index = at::tensor(boosted[l], at::kLong);
            edit.logitBias[l].index_fill_(1, index, std::log(2.0));
            const LayerCache& src = context.layers[l];
            duplicated.layers[l].keys = at::cat({src.keys, src.keys.index_select(1, index)}, 1);
            duplicated.layers[l].values =
                at::cat({src.values, src.values.index_select(1, index)}, 1);
        }
        ExtendOptions options;
        options.allLogits = true;
        Continuation a, b;
        const ExtendResult biased = model->extend(context, edit, a, someIds(4, 5), options);
        const ExtendResult dup = model->extend(duplicated, {}, b, someIds(4, 5), options);
        QVERIFY(logitsDiff(biased.logits, dup.logits) < 1e-5);
    }

    // What `bench` divides a decode step's time into: every weight read once (not the
    // embedding, of which a step reads one row) and the context's keys and values.
    // Tiny Llama, by hand, in floats: per layer q 32x32, k and v 16x32, o 32x32, gate and
    // up 48x32, down 32x48 and two norms of 32 = 7,744; two layers 15,488; LM head 50x32
    // and the final norm 32: 17,120. K/V of 10 positions: 2 layers x 2 x 2 kv x 10 x 8 =
    // 640. (17,120 + 640) x 4 bytes = 71,040.
    void decodeStepBytesCountsEveryWeightOnce()
    {
        auto model = tinyModel();
        const ContextCache context = model->prefill(someIds(10));
        QCOMPARE(decodeStepBytes(*model, context), 71040.0);
        const DecodeStepBench bench = benchDecodeStep(*model, 10, 3);
        QCOMPARE(bench.bytes, 71040.0);
        QVERIFY(bench.seconds > 0.0);
        QCOMPARE(bench.gbPerSecond, bench.bytes / bench.seconds / 1e9);
        QCOMPARE(bench.bandwidthGbPerSecond, 0.0); // no probe, no limit

        // With a probe, a triad pass beside each step gives the limit the steps ran under.
        TriadProbe probe(4);
        QCOMPARE(probe.bufferBytes(), int64_t(4) << 20);
        QVERIFY(probe.pass() > 0.0);
        const DecodeStepBench probed = benchDecodeStep(*model, 10, 3, &probe);
        QCOMPARE(probed.bytes, 71040.0);
        QVERIFY(probed.bandwidthGbPerSecond > 0.0);
    }

    void contextTooLongNamesConfigAndLengths()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        try {
            model->prefill(someIds(70));
            QFAIL("no error for a context longer than max_position_embeddings");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("tiny/config.json")),
                     qPrintable(e.message()));
            QVERIFY(e.message().contains(QLatin1String("70")));
            QVERIFY(e.message().contains(QLatin1String("max_position_embeddings is 64")));
        }
        // The question may not run past the limit either.
        const ContextCache context = model->prefill(someIds(60));
        Continuation cont;
        QVERIFY_THROWS_EXCEPTION(Error, model->extend(context, {}, cont, someIds(5)));

        ModelConfig mistral = tinyConfig(Architecture::Mistral);
        mistral.slidingWindow = 32;
        auto windowed = tinyModel(mistral);
        try {
            windowed->prefill(someIds(40));
            QFAIL("no error for a context longer than sliding_window");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("sliding_window is 32")),
                     qPrintable(e.message()));
            QVERIFY(e.message().contains(QLatin1String("40")));
        }
    }

    void greedyIsArgmaxOfFullForwardAndStopsAtStopIds()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const std::vector<int> contextIds = someIds(10);
        const std::vector<int> question = someIds(3, 6);
        const ContextCache context = model->prefill(contextIds);
        GenerateOptions options;
        options.maxNewTokens = 8;
        const Generation free = generateAnswer(*model, context, {}, question, options);
        QCOMPARE(int(free.ids.size()), 8);
        QVERIFY(free.stop == Generation::Stop::MaxTokens);
        std::vector<int> sequence = contextIds;
        sequence.insert(sequence.end(), question.begin(), question.end());
        for (int token : free.ids) {
            const at::Tensor logits = model->forward(sequence);
            QCOMPARE(int(logits[int64_t(sequence.size()) - 1].argmax().item<int64_t>()), token);
            sequence.push_back(token);
        }

        const int stop = free.ids[3];
        const auto first = std::find(free.ids.begin(), free.ids.end(), stop);
        options.stopIds = {49, stop};
        const Generation stopped = generateAnswer(*model, context, {}, question, options);
        QVERIFY(stopped.stop == Generation::Stop::StopToken);
        QCOMPARE(stopped.stopId, stop);
        QCOMPARE(stopped.ids, std::vector<int>(free.ids.begin(), first));
    }

    void teacherForcedLogprobsMatchFullForward()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const std::vector<int> contextIds = someIds(10);
        const std::vector<int> question = someIds(3, 7);
        const std::vector<int> answer = {5, 17, 23, 8};
        std::vector<int> sequence = contextIds;
        sequence.insert(sequence.end(), question.begin(), question.end());
        sequence.insert(sequence.end(), answer.begin(), answer.end());
        const at::Tensor logProbs = at::log_softmax(model->forward(sequence).to(at::kDouble), 1);

        ScoreOptions options;
        options.fullDistributions = true;
        options.topK = 5;
        options.captureAttention = true;
        const AnswerScore score =
            generateScore(*model, model->prefill(contextIds), question, answer, options);
        double nll = 0.0;
        for (size_t i = 0; i < answer.size(); ++i) {
            const int64_t row = int64_t(contextIds.size() + question.size() + i) - 1;
            const double expected = logProbs[row][answer[i]].item<double>();
            QVERIFY(std::abs(score.tokenLogprobs[i] - expected) < 1e-4);
            nll -= expected;
            const int64_t rank = (logProbs[row] > expected).sum().item<int64_t>();
            QCOMPARE(score.goldRanks[i], int(rank));
            QCOMPARE(score.topIds[int64_t(i)][0].item<int64_t>(),
                     logProbs[row].argmax().item<int64_t>());
        }
        QVERIFY(std::abs(score.nll - nll) < 1e-3);
        QCOMPARE(score.logProbs.sizes(), (at::IntArrayRef{4, 50}));
        QCOMPARE(score.contextAttention.sizes(), (at::IntArrayRef{2, 2, 6, 10}));
    }

    // The sweep's shared gold pass + replayed decoding against the two separate routes
    // (teacher forcing, then token-by-token greedy decoding).
    void scoreAndGenerateEqualsScoreThenGenerate_data()
    {
        QTest::addColumn<int>("divergeAt"); // -1: the gold answer is the greedy answer
        QTest::addColumn<bool>("withQuestion");
        QTest::addColumn<bool>("masked");
        QTest::addColumn<bool>("stopAfterGold");
        QTest::newRow("gold is greedy, stops") << -1 << true << false << true;
        QTest::newRow("gold is greedy, runs on") << -1 << true << false << false;
        QTest::newRow("diverges at 0") << 0 << true << false << false;
        QTest::newRow("diverges at 2") << 2 << true << false << true;
        QTest::newRow("diverges at 2, masked") << 2 << true << true << false;
        QTest::newRow("no question") << 1 << false << false << false;
        QTest::newRow("no question, greedy") << -1 << false << true << true;
    }

    void scoreAndGenerateEqualsScoreThenGenerate()
    {
        QFETCH(int, divergeAt);
        QFETCH(bool, withQuestion);
        QFETCH(bool, masked);
        QFETCH(bool, stopAfterGold);
        c10::InferenceMode guard;
        auto model = tinyModel();
        const std::vector<int> contextIds = someIds(12);
        const std::vector<int> question = withQuestion ? someIds(3, 5) : std::vector<int>{};
        const ContextCache context = model->prefill(contextIds);
        CacheEdit edit;
        if (masked) {
            edit.keptMask = at::ones({2, 2, 12}, at::kBool);
            edit.keptMask.index_put_({0, 1, at::indexing::Slice(2, 7)}, false);
            edit.keptMask.index_put_({1, 0, at::indexing::Slice(5, 9)}, false);
        }
        GenerateOptions generate;
        generate.maxNewTokens = 10;
        // The greedy answer of 5 tokens, then (optionally) its 6th token as a stop id.
        const Generation greedy = generateAnswer(*model, context, edit, question, generate);
        QCOMPARE(int(greedy.ids.size()), 10);
        std::vector<int> gold(greedy.ids.begin(), greedy.ids.begin() + 5);
        if (stopAfterGold) {
            generate.stopIds = {greedy.ids[5]};
            if (std::find(gold.begin(), gold.end(), greedy.ids[5]) != gold.end())
                QSKIP("the 6th greedy token also occurs earlier");
        }
        if (divergeAt >= 0)
            gold[size_t(divergeAt)] = (gold[size_t(divergeAt)] + 1) % 50;

        ScoreOptions score;
        score.fullDistributions = true;
        score.captureAttention = true;
        const ScoredGeneration both =
            scoreAndGenerate(*model, context, edit, question, gold, score, generate);
        const AnswerScore expectedScore = scoreAnswer(*model, context, edit, question, gold, score);
        const Generation expected = generateAnswer(*model, context, edit, question, generate);

        QCOMPARE(both.generation.ids, expected.ids);
        QVERIFY(both.generation.stop == expected.stop);
        QCOMPARE(both.generation.stopId, expected.stopId);
        QCOMPARE(both.gold.goldRanks, expectedScore.goldRanks);
        for (size_t i = 0; i < gold.size(); ++i)
            QVERIFY(std::abs(both.gold.tokenLogprobs[i] - expectedScore.tokenLogprobs[i]) < 1e-5);
        QVERIFY(maxDiff(both.gold.logProbs, expectedScore.logProbs) < 1e-5);
        QCOMPARE(both.gold.contextAttention.sizes(), expectedScore.contextAttention.sizes());
        QVERIFY(maxDiff(both.gold.contextAttention, expectedScore.contextAttention) < 1e-6);
        // Replayed steps: up to and including the first one that leaves the gold answer.
        const int followed = divergeAt >= 0 ? divergeAt : 5;
        QCOMPARE(both.replayedSteps, followed + 1);
    }

    // Lockstep decoding of several configurations (different edits, divergence points,
    // continuation lengths, stop tokens) against decoding each alone.
    void lockstepEqualsDecodingEachAlone_data()
    {
        QTest::addColumn<int>("arch");
        QTest::newRow("llama") << int(Architecture::Llama);
        QTest::newRow("qwen2 (q/k/v bias)") << int(Architecture::Qwen2);
        QTest::newRow("qwen3 (q/k norm)") << int(Architecture::Qwen3);
    }
    void lockstepEqualsDecodingEachAlone()
    {
        QFETCH(int, arch);
        c10::InferenceMode guard;
        auto model = tinyModel(tinyConfig(Architecture(arch)));
        const ContextCache context = model->prefill(someIds(12));
        const std::vector<int> question = someIds(3, 5);
        std::vector<CacheEdit> edits(5);
        edits[1].keptMask = at::ones({2, 2, 12}, at::kBool);
        edits[1].keptMask.index_put_({0, 1, at::indexing::Slice(2, 7)}, false);
        edits[2].logitBias = at::zeros({2, 2, 12}, at::kFloat);
        edits[2].logitBias.index_put_({1, 0, at::indexing::Slice(3, 6)}, std::log(4.0));
        edits[3].keptMask = at::rand({2, 2, 12}, at::TensorOptions().dtype(at::kFloat)) > 0.5;
        edits[3].keptMask.index_put_({at::indexing::Slice(), at::indexing::Slice(), 0}, true);
        edits[4] = edits[1];

        GenerateOptions generate;
        generate.maxNewTokens = 9;
        ScoreOptions score;
        score.topK = 0;
        std::vector<ScoredGeneration> expected, replayed(edits.size());
        std::vector<PendingDecode> pending(edits.size());
        std::vector<LockstepRow> rows;
        for (size_t i = 0; i < edits.size(); ++i) {
            // Gold answers that leave the greedy path at different steps (row 0 never).
            const Generation greedy = generateAnswer(*model, context, edits[i], question, generate);
            std::vector<int> gold(greedy.ids.begin(), greedy.ids.begin() + 4);
            if (i > 0)
                gold[size_t(i - 1) % 4] = (gold[size_t(i - 1) % 4] + 1) % 50;
            GenerateOptions own = generate;
            expected.push_back(
                scoreAndGenerate(*model, context, edits[i], question, gold, score, own));
            replayed[i] =
                scoreAndReplay(*model, context, edits[i], question, gold, score, own, pending[i]);
            rows.push_back({&edits[i], &pending[i], &replayed[i].generation});
        }
        // One batched step against extend() of each row alone: the same logits.
        {
            std::vector<const CacheEdit*> stepEdits;
            std::vector<const Continuation*> stepContinuations;
            std::vector<int> tokens;
            for (size_t i = 0; i < edits.size(); ++i) {
                if (pending[i].token < 0)
                    continue;
                stepEdits.push_back(&edits[i]);
                stepContinuations.push_back(&pending[i].continuation);
                tokens.push_back(pending[i].token);
            }
            QVERIFY(tokens.size() >= 3);
            DecodeBatch batch = DecodeBatch::build(context, stepEdits, stepContinuations, 2);
            const at::Tensor logits = model->decodeStep(context, batch, tokens);
            for (size_t r = 0; r < tokens.size(); ++r) {
                Continuation alone = *stepContinuations[r];
                const ExtendResult one = model->extend(context, *stepEdits[r], alone, {tokens[r]});
                const double diff = logitsDiff(logits[int64_t(r)], one.logits[0]);
                QVERIFY2(diff < 1e-5, qPrintable(QString::number(diff)));
                QCOMPARE(batch.lengths[r], alone.length);
            }
        }
        decodeLockstep(*model, context, rows, generate);
        for (size_t i = 0; i < edits.size(); ++i) {
            QCOMPARE(replayed[i].generation.ids, expected[i].generation.ids);
            QVERIFY(replayed[i].generation.stop == expected[i].generation.stop);
            QCOMPARE(pending[i].token, -1);
        }
        // Row 0 followed its gold answer for 4 tokens, the others left it earlier: the
        // rows entered the batch with different continuation lengths.
        QVERIFY(pending[0].continuation.length != pending[1].continuation.length);
    }

    // The batched gold pass of several edits against one gold pass per edit.
    void batchedGoldPassEqualsOnePassPerEdit_data() { lockstepEqualsDecodingEachAlone_data(); }
    void batchedGoldPassEqualsOnePassPerEdit()
    {
        QFETCH(int, arch);
        c10::InferenceMode guard;
        auto model = tinyModel(tinyConfig(Architecture(arch)));
        const ContextCache context = model->prefill(someIds(12));
        std::vector<CacheEdit> edits(4);
        edits[1].keptMask = at::ones({2, 2, 12}, at::kBool);
        edits[1].keptMask.index_put_({1, 0, at::indexing::Slice(0, 9)}, false);
        edits[2].logitBias = at::zeros({2, 2, 12}, at::kFloat);
        edits[2].logitBias.index_put_({0, 1, at::indexing::Slice(3, 6)}, std::log(4.0));
        edits[3] = edits[1];
        edits[3].logitBias = edits[2].logitBias;
        std::vector<const CacheEdit*> pointers;
        for (const CacheEdit& e : edits)
            pointers.push_back(&e);
        const std::vector<int> question = someIds(3, 5);
        const std::vector<int> gold = someIds(4, 2);
        ScoreOptions score;
        score.fullDistributions = true;
        score.captureAttention = true;
        GenerateOptions generate;
        generate.maxNewTokens = 6;
        model->setBlockRows(2); // several query blocks in the batched attention
        std::vector<PendingDecode> pending;
        const std::vector<ScoredGeneration> each =
            scoreAndReplayEach(*model, context, pointers, question, gold, score, generate, pending);
        QCOMPARE(each.size(), edits.size());
        for (size_t i = 0; i < edits.size(); ++i) {
            PendingDecode alonePending;
            const ScoredGeneration alone = scoreAndReplay(*model, context, edits[i], question, gold,
                                                          score, generate, alonePending);
            QVERIFY(maxDiff(each[i].gold.logProbs, alone.gold.logProbs) < 1e-5);
            QVERIFY(maxDiff(each[i].gold.contextAttention, alone.gold.contextAttention) < 1e-6);
            QCOMPARE(each[i].generation.ids, alone.generation.ids);
            QCOMPARE(pending[i].token, alonePending.token);
            QCOMPARE(pending[i].continuation.length, alonePending.continuation.length);
            for (int l = 0; l < 2; ++l)
                QVERIFY(maxDiff(pending[i].continuation.values[size_t(l)],
                                alonePending.continuation.values[size_t(l)]) < 1e-5);
        }
        // The edits matter: the masked row's distributions differ from FullCache's.
        QVERIFY(maxDiff(each[1].gold.logProbs, each[0].gold.logProbs) > 1e-3);
    }

    // generateEach (one batched question pass, lockstep decoding) against generateAnswer.
    void generateEachEqualsGenerateAnswer()
    {
        c10::InferenceMode guard;
        auto model = tinyModel(tinyConfig(Architecture::Qwen2));
        const ContextCache context = model->prefill(someIds(11));
        std::vector<CacheEdit> edits(3);
        edits[1].keptMask = at::ones({2, 2, 11}, at::kBool);
        edits[1].keptMask.index_put_({0, 0, at::indexing::Slice(1, 9)}, false);
        edits[2].logitBias = at::zeros({2, 2, 11}, at::kFloat);
        edits[2].logitBias.index_put_({1, 1, at::indexing::Slice(2, 5)}, 2.0);
        std::vector<const CacheEdit*> pointers{&edits[0], &edits[1], &edits[2]};
        GenerateOptions generate;
        generate.maxNewTokens = 7;
        for (const std::vector<int>& question : {someIds(3, 4), std::vector<int>{}}) {
            const std::vector<Generation> each =
                generateEach(*model, context, pointers, question, generate);
            for (size_t i = 0; i < edits.size(); ++i) {
                const Generation alone =
                    generateAnswer(*model, context, edits[i], question, generate);
                QCOMPARE(each[i].ids, alone.ids);
                QVERIFY(each[i].stop == alone.stop);
            }
        }
    }

    // A stop token ends one row while the others decode on.
    void lockstepRowsStopIndependently()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const ContextCache context = model->prefill(someIds(10));
        std::vector<CacheEdit> edits(3);
        edits[1].keptMask = at::ones({2, 2, 10}, at::kBool);
        edits[1].keptMask.index_put_(
            {at::indexing::Slice(), at::indexing::Slice(), at::indexing::Slice(1, 8)}, false);
        edits[2].logitBias =
            at::full({2, 2, 10}, 0.0f).index_fill_(2, at::tensor(std::vector<int64_t>{4}), 3.0);
        GenerateOptions generate;
        generate.maxNewTokens = 12;
        const Generation first = generateAnswer(*model, context, edits[0], {}, generate);
        generate.stopIds = {first.ids[3]}; // row 0 stops early (maybe others too)
        std::vector<Generation> expected, got(3);
        std::vector<PendingDecode> pending(3);
        std::vector<LockstepRow> rows;
        for (size_t i = 0; i < 3; ++i) {
            expected.push_back(generateAnswer(*model, context, edits[i], {}, generate));
            // No question, nothing replayed: each row starts from the context's logits.
            const int token = int(context.lastLogits.argmax().item<int64_t>());
            if (std::find(generate.stopIds.begin(), generate.stopIds.end(), token) ==
                generate.stopIds.end()) {
                got[i].ids.push_back(token);
                pending[i].token = token;
            }
            rows.push_back({&edits[i], &pending[i], &got[i]});
        }
        decodeLockstep(*model, context, rows, generate);
        for (size_t i = 0; i < 3; ++i)
            QCOMPARE(got[i].ids, expected[i].ids);
        QVERIFY(expected[0].stop == Generation::Stop::StopToken);
    }

    void prefillKeepsWindowQueriesPreRopeKeysAndRows()
    {
        c10::InferenceMode guard;
        auto model = tinyModel(tinyConfig(Architecture::Qwen3));
        const std::vector<int> ids = someIds(12);
        PrefillOptions options;
        options.window = 5;
        options.attentionRows = {11, 4};
        const ContextCache context = model->prefill(ids, options);
        const LayerCache& l = context.layers[1];
        QCOMPARE(l.windowQueries.sizes(), (at::IntArrayRef{4, 5, 8}));
        QCOMPARE(l.windowQueriesPreRope.sizes(), (at::IntArrayRef{4, 5, 8}));
        QCOMPARE(l.keys.sizes(), (at::IntArrayRef{2, 12, 8}));
        // Rotating the pre-RoPE keys by their positions gives the cached keys.
        auto [cos, sin] = model->rope().cosSin(at::arange(12, at::kLong));
        const at::Tensor rotated =
            Rope::apply(l.keysPreRope.permute({1, 0, 2}), cos, sin).permute({1, 0, 2});
        QVERIFY(maxDiff(rotated, l.keys) < 1e-5);
        auto [wcos, wsin] = model->rope().cosSin(at::arange(7, 12, at::kLong));
        const at::Tensor wq =
            Rope::apply(l.windowQueriesPreRope.permute({1, 0, 2}), wcos, wsin).permute({1, 0, 2});
        QVERIFY(maxDiff(wq, l.windowQueries) < 1e-5);

        // Row 11 attends over keys 0..11; the same token processed after an 11-token
        // context attends identically over keys 0..10.
        QCOMPARE(l.rowAttention.sizes(), (at::IntArrayRef{2, 2, 12}));
        const ContextCache shorter = model->prefill(slice(ids, 0, 11));
        Continuation cont;
        ExtendOptions capture;
        capture.captureAttention = true;
        const ExtendResult r = model->extend(shorter, {}, cont, {ids[11]}, capture);
        for (int layer = 0; layer < 2; ++layer) {
            const at::Tensor row = context.layers[layer].rowAttention.select(1, 1);
            QVERIFY(maxDiff(row.narrow(1, 0, 11), r.contextAttention[layer].select(1, 0)) < 1e-5);
        }
        // The window queries' attention (recomputed from the cache) agrees for row 11,
        // the last window row.
        const at::Tensor window = windowAttention(l).view({2, 2, 5, 12}).mean(1);
        QVERIFY(maxDiff(window.select(1, 4), l.rowAttention.select(1, 1)) < 1e-5);
        QVERIFY(window.sum(2).sub(1.0).abs().max().item<double>() < 1e-5);
        // Row 4 cannot see later keys.
        QCOMPARE(l.rowAttention.select(1, 0).narrow(1, 5, 7).abs().max().item<double>(), 0.0);
    }

    void batchedForwardEqualsSingle()
    {
        c10::InferenceMode guard;
        auto model = tinyModel();
        const std::vector<int> a = someIds(9, 1), b = someIds(9, 2);
        std::vector<int64_t> both(a.begin(), a.end());
        both.insert(both.end(), b.begin(), b.end());
        const at::Tensor batch = model->forward(at::tensor(both, at::kLong).view({2, 9}));
        QVERIFY(logitsDiff(batch[0], model->forward(a)) < 1e-5);
        QVERIFY(logitsDiff(batch[1], model->forward(b)) < 1e-5);
    }

    // The trainer reuses forward() with parameters that require gradients.
    void forwardIsDifferentiable()
    {
        auto model = tinyModel();
        for (auto& [name, tensor] : model->weights().named(model->config()))
            *tensor = tensor->detach().clone().requires_grad_(true);
        model->setBlockRows(4);
        const std::vector<int> ids = someIds(10);
        const at::Tensor logits = model->forward(ids);
        const at::Tensor targets = at::tensor(std::vector<int64_t>(ids.begin() + 1, ids.end()));
        const at::Tensor loss = at::cross_entropy_loss(logits.narrow(0, 0, 9), targets);
        loss.backward();
        const at::Tensor grad = model->weights().layers[0].q.grad();
        QVERIFY(grad.defined());
        QVERIFY(grad.abs().sum().item<double>() > 0.0);
        QVERIFY(at::isfinite(grad).all().item<bool>());
    }

  private:
    static AnswerScore generateScore(const Transformer& model, const ContextCache& context,
                                     const std::vector<int>& question,
                                     const std::vector<int>& answer, const ScoreOptions& options)
    {
        return scoreAnswer(model, context, {}, question, answer, options);
    }
};

QTEST_GUILESS_MAIN(TestContextCache)
#include "tst_contextcache.moc"
