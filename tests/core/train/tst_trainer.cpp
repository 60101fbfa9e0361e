// The trainer: a few steps lower the loss, an interrupted run resumes bit-identically,
// and its checkpoints are read by the engine's normal loader with the same logits.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "common/error.h"
#include "common/jsonio.h"
#include "model/transformer.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/tokenizer.h"
#include "train/recallsequences.h"
#include "train/suitesequences.h"
#include "train/trainablellama.h"
#include "train/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

using namespace kvl;

namespace {

TrainSpec tinySpec(int steps)
{
    const QByteArray json = QStringLiteral(R"({
        "model": {"hidden": 32, "layers": 2, "heads": 2, "kv_heads": 1, "intermediate": 64,
                  "max_position": 256},
        "threads": 1, "checkpoint_every": 5, "seed": 3,
        "stages": [{"name": "recall", "steps": %1, "lr": 0.01, "warmup_steps": 2,
                    "batch_sequences": 16, "recall": {"pairs": [4, 4], "filler": [0, 0]}}]})")
                                .arg(steps)
                                .toUtf8();
    return TrainSpec::fromJson(QJsonDocument::fromJson(json).object(), QStringLiteral("tiny"));
}

QString makeTokenizer(const QTemporaryDir& dir)
{
    BpeTrainerOptions options;
    options.vocabSize = 300;
    BpeTrainer trainer(options);
    for (int i = 0; i < 20; ++i)
        trainer.addText(QStringLiteral("the code of Anna is %1. the code of Ben is %2.")
                            .arg(i * 37)
                            .arg(i * 91));
    trainer.train();
    const QString path = dir.filePath(QStringLiteral("tokenizer.json"));
    trainer.save(path);
    return path;
}

// A few steps of tinySpec into dir/name; returns the checkpoint directory.
QString trainTiny(const QTemporaryDir& dir, const QString& tokenizer, const char* name, int steps)
{
    const QString run = dir.filePath(QLatin1String(name));
    Trainer(tinySpec(steps), run, tokenizer, {}).run();
    return run + QStringLiteral("/checkpoint");
}

// Token ids first, ..., last - 1.
std::vector<int> idRange(int first, int last)
{
    std::vector<int> ids;
    for (int id = first; id < last; ++id)
        ids.push_back(id);
    return ids;
}

// Two layers with the bundled model's head layout: d 128, 4 heads, 2 kv-heads.
TrainModelShape bundledHeadLayout()
{
    TrainModelShape shape;
    shape.hidden = 128;
    shape.intermediate = 256;
    shape.layers = 2;
    shape.heads = 4;
    shape.kvHeads = 2;
    shape.maxPosition = 256;
    return shape;
}

QByteArray weightsOf(const QString& runDir)
{
    QFile f(runDir + QStringLiteral("/checkpoint/model.safetensors"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class TestTrainer : public QObject
{
    Q_OBJECT
  private slots:
    void recallSequencesDrawFromThePool()
    {
        const RecallSequences recall(idRange(10, 110), 1, 5);
        RecallMix mix;
        mix.minPairs = mix.maxPairs = 6;
        mix.minFiller = mix.maxFiller = 1;
        mix.pool = 8;
        const std::set<int> keys(recall.keys().begin(), recall.keys().begin() + 8);
        const std::set<int> values(recall.values().begin(), recall.values().begin() + 8);
        std::set<int> seen;
        Rng rng(9);
        for (int n = 0; n < 50; ++n) {
            const TrainSequence seq = recall.make(mix, rng);
            // BOS, 6 × (key value filler), then 6 × (key value): values supervised.
            QCOMPARE(seq.ids.size(), size_t(1 + 6 * 3 + 6 * 2));
            for (size_t i = 1; i < seq.ids.size(); ++i) {
                const bool isKey = i < 19 ? (i - 1) % 3 == 0 : (i - 19) % 2 == 0;
                QVERIFY(isKey ? keys.count(seq.ids[i]) : values.count(seq.ids[i]));
                QCOMPARE(bool(seq.supervised[i]), i >= 19 && !isKey);
                seen.insert(seq.ids[i]);
            }
        }
        // All 16 pool ids are used, none outside it.
        QCOMPARE(seen.size(), size_t(16));

        // Echo triples k v k: the repeated key supervised, nothing else.
        const TrainSequence echo = recall.makeEcho(mix, rng);
        QCOMPARE(echo.ids.size(), size_t(1 + 6 * 3));
        for (size_t i = 1; i < echo.ids.size(); i += 3) {
            QVERIFY(keys.count(echo.ids[i]) && values.count(echo.ids[i + 1]));
            QCOMPARE(echo.ids[i + 2], echo.ids[i]);
            QCOMPARE(int(echo.supervised[i]) + int(echo.supervised[i + 1]) + int(echo.supervised[i + 2]), 1);
            QVERIFY(echo.supervised[i + 2]);
        }

        // Repeated pairs: each listed twice before the queries, always with its value.
        mix.repeats = 2;
        mix.minFiller = mix.maxFiller = 0;
        const TrainSequence twice = recall.make(mix, rng);
        QCOMPARE(twice.ids.size(), size_t(1 + 6 * 2 * 2 + 6 * 2));
        std::map<int, std::vector<int>> valuesOf;
        for (size_t i = 1; i < 25; i += 2)
            valuesOf[twice.ids[i]].push_back(twice.ids[i + 1]);
        QCOMPARE(valuesOf.size(), size_t(6));
        for (const auto& [key, vs] : valuesOf) {
            QCOMPARE(vs.size(), size_t(2));
            QCOMPARE(vs[0], vs[1]);
        }
    }

    // Two-token look-alike keys with two-token values: every key shares a token with
    // another key, keys are distinct, each query repeats a listed key and is followed by
    // that key's whole value, supervised token by token.
    void recallLookAlikeKeys()
    {
        const std::vector<int> ids = idRange(10, 210);
        const RecallSequences recall(ids, 1, 5);
        RecallMix mix;
        mix.minPairs = mix.maxPairs = 12;
        mix.minKeyTokens = mix.maxKeyTokens = 2;
        mix.minValueTokens = mix.maxValueTokens = 2;
        Rng rng(4);
        for (int n = 0; n < 20; ++n) {
            const TrainSequence seq = recall.make(mix, rng);
            QCOMPARE(seq.ids.size(), size_t(1 + 12 * 4 + 12 * 4));
            using Pair = std::pair<int, int>;
            std::map<Pair, Pair> listed;
            std::map<int, int> firstTokenUses;
            for (size_t i = 1; i < 49; i += 4) {
                const Pair key{seq.ids[i], seq.ids[i + 1]};
                QVERIFY(!listed.count(key));
                listed[key] = {seq.ids[i + 2], seq.ids[i + 3]};
                ++firstTokenUses[key.first];
                for (size_t j = i; j < i + 4; ++j)
                    QVERIFY(!seq.supervised[j]);
            }
            QVERIFY(firstTokenUses.size() < 12); // look-alikes: first tokens are shared
            std::set<Pair> asked;
            for (size_t i = 49; i < seq.ids.size(); i += 4) {
                const Pair key{seq.ids[i], seq.ids[i + 1]};
                QVERIFY(listed.count(key));
                asked.insert(key);
                QCOMPARE((Pair{seq.ids[i + 2], seq.ids[i + 3]}), listed[key]);
                QVERIFY(!seq.supervised[i] && !seq.supervised[i + 1]);
                QVERIFY(seq.supervised[i + 2] && seq.supervised[i + 3]);
            }
            QCOMPARE(asked.size(), size_t(12));
        }

        // Digit values: every value token is one of the digits, no key is.
        const std::vector<int> digits = idRange(200, 210);
        const RecallSequences spelled(ids, 1, 5, digits);
        mix.digitValues = true;
        mix.minValueTokens = 3;
        mix.maxValueTokens = 4;
        const std::set<int> digitSet(digits.begin(), digits.end());
        for (int n = 0; n < 20; ++n) {
            const TrainSequence seq = spelled.make(mix, rng);
            size_t i = 1;
            for (int pair = 0; pair < 12; ++pair) {
                QVERIFY(!digitSet.count(seq.ids[i]) && !digitSet.count(seq.ids[i + 1]));
                i += 2;
                const size_t start = i;
                while (i < seq.ids.size() && digitSet.count(seq.ids[i]))
                    ++i;
                QVERIFY(i - start >= 3 && i - start <= 4);
            }
        }
        try {
            recall.make(mix, rng);
            QFAIL("digit values without digit tokens");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("digit")), qPrintable(e.message()));
        }
        mix.digitValues = false;

        // Gaps: one run after every listed key, another after every asked key, then the
        // value; only values supervised.
        mix.minValueTokens = mix.maxValueTokens = 1;
        mix.minKeyTokens = mix.maxKeyTokens = 1;
        mix.minPairs = mix.maxPairs = 5;
        mix.minGapTokens = mix.maxGapTokens = 2;
        const TrainSequence gapped = recall.make(mix, rng);
        QCOMPARE(gapped.ids.size(), size_t(1 + 5 * 4 + 5 * 4));
        std::map<int, int> valueOfKey;
        for (size_t i = 1; i < 21; i += 4) {
            valueOfKey[gapped.ids[i]] = gapped.ids[i + 3];
            if (i > 1) // the same listing gap each time
                QCOMPARE((std::pair{gapped.ids[i + 1], gapped.ids[i + 2]}),
                         (std::pair{gapped.ids[2], gapped.ids[3]}));
        }
        for (size_t i = 21; i < gapped.ids.size(); i += 4) {
            QCOMPARE(gapped.ids[i + 3], valueOfKey.at(gapped.ids[i]));
            QCOMPARE(int(gapped.supervised[i]) + gapped.supervised[i + 1] + gapped.supervised[i + 2], 0);
            QVERIFY(gapped.supervised[i + 3]);
        }
        mix.minGapTokens = mix.maxGapTokens = 0;

        // A pool too small for look-alike keys is refused with the option's name.
        mix.minPairs = mix.maxPairs = 6;
        mix.pool = 6; // two choices per position x four positions = 8 ids needed
        mix.minKeyTokens = mix.maxKeyTokens = 4;
        try {
            recall.make(mix, rng);
            QFAIL("accepted a pool too small for four-token keys");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("key")), qPrintable(e.message()));
        }
    }

    // A retrieval sequence with follow-ups: the sample's question, then other names of the
    // same context, each answer (and only the answers) supervised, and each answer the
    // code the context gives that name.
    void suiteSequencesAskFollowUps()
    {
        const std::shared_ptr<const Tokenizer> byte(loadTokenizer(QStringLiteral("byte")));
        const TaskSequenceFn tasks = makeSuiteSequenceFn(byte);
        static const QRegularExpression record(
            QStringLiteral(R"(The access code of (\w+ \w+) is (\d+)\.)"));
        static const QRegularExpression asked(
            QStringLiteral(R"(\nQuestion: What (?:is|are)[a-z ]* access codes? of ([\w ,]+)\?\nAnswer:$)"));
        int questionsSeen = 0;
        for (int followUps : {0, 3}) {
            Rng rng(11);
            for (int n = 0; n < 6; ++n) {
                const TrainSequence seq = tasks({QStringLiteral("retrieval"), 400, 800, followUps}, rng);
                // Split into the unsupervised runs (context, questions) and supervised runs.
                std::vector<std::pair<QString, QString>> qa; // text before, answer
                std::vector<int> plain, answer;
                for (size_t i = 0; i <= seq.ids.size(); ++i) {
                    const bool sup = i < seq.ids.size() && seq.supervised[i];
                    if (i == seq.ids.size() || (!sup && !answer.empty())) {
                        qa.push_back({byte->decode(plain), byte->decode(answer).trimmed()});
                        plain.clear();
                        answer.clear();
                    }
                    if (i < seq.ids.size())
                        (sup ? answer : plain).push_back(seq.ids[i]);
                }
                QVERIFY(qa.size() >= 1);
                if (followUps == 0)
                    QCOMPARE(int(qa.size()), 1);
                QVERIFY(int(qa.size()) <= 1 + followUps);
                QMap<QString, QStringList> codes;
                for (auto it = record.globalMatch(qa.front().first); it.hasNext();) {
                    const auto m = it.next();
                    codes[m.captured(1)] << m.captured(2);
                }
                QSet<QString> questions;
                for (const auto& [text, gold] : qa) {
                    const auto m = asked.match(text);
                    QVERIFY2(m.hasMatch(), qPrintable(text.right(80)));
                    QVERIFY2(!questions.contains(m.captured(1)), "a question asked twice");
                    questions.insert(m.captured(1));
                    // One name: its codes; several ("A B, C D and E F"): each name with its
                    // code, in the asked order ("A B is 12, C D is 345, ...").
                    QStringList names;
                    for (const QString& part : m.captured(1).split(QStringLiteral(", ")))
                        names << part.split(QStringLiteral(" and "));
                    QStringList expected;
                    for (const QString& name : names)
                        expected << (names.size() == 1 ? codes.value(name).join(QStringLiteral(", "))
                                                       : name + QStringLiteral(" is ") +
                                                             codes.value(name).join(QString()));
                    QCOMPARE(gold, expected.join(QStringLiteral(", ")));
                    ++questionsSeen;
                }
            }
        }
        QVERIFY(questionsSeen > 6 + 6); // follow-ups were asked

        // A "suite/variant" entry draws that variant only: every multivalue sample asks
        // for all the codes of one name.
        Rng rng(5);
        for (int n = 0; n < 4; ++n) {
            const TrainSequence seq =
                tasks({QStringLiteral("retrieval/multivalue"), 400, 800, 0}, rng);
            std::vector<int> unsupervised;
            for (size_t i = 0; i < seq.ids.size(); ++i)
                if (!seq.supervised[i])
                    unsupervised.push_back(seq.ids[i]);
            QVERIFY(byte->decode(unsupervised).contains(QLatin1String("What are all the access codes of")));
        }
    }

    // Follow-ups that would run past the model's positions are left out: sixteen of them
    // after a long context can (a text2json run whose follow-ups asked every set of fields
    // did, at 4,097 tokens).
    void suiteSequencesFitTheModel()
    {
        const std::shared_ptr<const Tokenizer> byte(loadTokenizer(QStringLiteral("byte")));
        const int limit = 1800;
        const TaskSequenceFn unlimited = makeSuiteSequenceFn(byte);
        const TaskSequenceFn limited = makeSuiteSequenceFn(byte, limit);
        Rng a(3), b(3);
        size_t longest = 0;
        for (int n = 0; n < 6; ++n) {
            const TaskDraw draw{QStringLiteral("retrieval"), 1400, 1500, 16};
            const TrainSequence all = unlimited(draw, a);
            const TrainSequence fit = limited(draw, b);
            longest = std::max(longest, all.ids.size());
            QVERIFY(int(fit.ids.size()) <= limit);
            // The same draws: what fits is the sequence with whole follow-ups left out, so
            // it starts with the context, the sample's own question and its answer.
            const auto firstAnswerEnd = [](const TrainSequence& s) {
                size_t i = 0;
                while (i < s.ids.size() && !s.supervised[i])
                    ++i;
                while (i < s.ids.size() && s.supervised[i])
                    ++i;
                return i;
            };
            const size_t own = firstAnswerEnd(all);
            QCOMPARE(firstAnswerEnd(fit), own);
            QVERIFY(std::equal(all.ids.begin(), all.ids.begin() + own, fit.ids.begin()));
            QVERIFY(fit.ids.size() > own); // some follow-ups still fit
        }
        QVERIFY2(int(longest) > limit, "the limit was never reached");
    }

    void fewStepsLowerTheLoss()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        Trainer trainer(tinySpec(30), dir.filePath(QStringLiteral("run")), tokenizer, {});
        std::vector<double> losses;
        trainer.setProgressCallback([&](const QJsonObject& o) {
            if (o.value(QStringLiteral("kind")).toString() == QLatin1String("train"))
                losses.push_back(o.value(QStringLiteral("loss")).toDouble());
        });
        QCOMPARE(trainer.run(), 30);
        // Reported every 10 steps and at each checkpoint (every 5): 5, 10, ..., 30.
        QCOMPARE(losses.size(), size_t(6));
        QVERIFY2(
            losses.back() < losses.front() - 0.5,
            qPrintable(QStringLiteral("loss %1 -> %2").arg(losses.front()).arg(losses.back())));
    }

    void resumeIsBitIdentical()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        const QString straight = dir.filePath(QStringLiteral("straight"));
        const QString interrupted = dir.filePath(QStringLiteral("interrupted"));
        QCOMPARE(Trainer(tinySpec(12), straight, tokenizer, {}).run(), 12);
        // Stop after 7 steps (a checkpoint is written then), resume in a new trainer.
        QCOMPARE(Trainer(tinySpec(12), interrupted, tokenizer, {}).run(7), 7);
        QVERIFY(weightsOf(interrupted) != weightsOf(straight));
        QCOMPARE(Trainer(tinySpec(12), interrupted, tokenizer, {}).run(), 12);
        QVERIFY(!weightsOf(straight).isEmpty());
        QVERIFY(weightsOf(interrupted) == weightsOf(straight));
    }

    // The end of every stage is kept in DIR/stages/<name>: the checkpoint a run stopped
    // right there would have written, and it is not overwritten as the run goes on.
    void stageEndsAreKept()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        TrainSpec spec = tinySpec(7);
        spec.stages.push_back(spec.stages.front());
        spec.stages.back().name = QStringLiteral("more recall");
        spec.stages.back().steps = 5;
        const QString run = dir.filePath(QStringLiteral("run"));
        QCOMPARE(Trainer(spec, run, tokenizer, {}).run(), 12);
        const auto stepOf = [](const QString& checkpoint) {
            return readJsonObject(checkpoint + QStringLiteral("/trainer_state.json"))
                .value(QStringLiteral("step"))
                .toInt();
        };
        QCOMPARE(stepOf(run + QStringLiteral("/stages/recall")), 7);
        QCOMPARE(stepOf(run + QStringLiteral("/stages/more_recall")), 12);
        const QString stopped = dir.filePath(QStringLiteral("stopped"));
        QCOMPARE(Trainer(spec, stopped, tokenizer, {}).run(7), 7);
        QFile kept(run + QStringLiteral("/stages/recall/model.safetensors"));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), weightsOf(stopped));
        QVERIFY(weightsOf(run) != weightsOf(stopped));
    }

    // init_from with more layers: the grown model computes what the checkpoint did, then
    // trains its new layers (their output projections leave zero).
    void grownModelStartsWithTheCheckpointsLogits()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        const QString checkpoint = trainTiny(dir, tokenizer, "small", 5);
        const TrainableLlama source = TrainableLlama::load(checkpoint);
        ModelConfig deeper = source.config();
        deeper.numLayers = 4;
        const TrainableLlama grown = TrainableLlama::grownFrom(checkpoint, deeper, 9);
        QCOMPARE(grown.config().numLayers, 4);
        const torch::Tensor ids = torch::tensor(std::vector<int64_t>{0, 17, 42, 99, 5, 260, 3})
                                      .unsqueeze(0);
        {
            at::NoGradGuard noGrad;
            const double diff = (grown.forward(ids) - source.forward(ids)).abs().max().item<double>();
            QVERIFY2(diff < 1e-5, qPrintable(QString::number(diff)));
            // The new layers are not copies: their q projections are fresh.
            QVERIFY(!grown.named().at(QStringLiteral("model.layers.3.self_attn.q_proj.weight"))
                         .equal(grown.named().at(QStringLiteral("model.layers.1.self_attn.q_proj.weight"))));
        }

        // Through the trainer: the new layers' output projections start to move.
        TrainSpec spec = tinySpec(4);
        spec.model.layers = 4;
        spec.initFrom = checkpoint;
        const QString run = dir.filePath(QStringLiteral("grown"));
        Trainer(spec, run, tokenizer, {}).run();
        const TrainableLlama trained = TrainableLlama::load(run + QStringLiteral("/checkpoint"));
        QCOMPARE(trained.config().numLayers, 4);
        QVERIFY(trained.named().at(QStringLiteral("model.layers.3.mlp.down_proj.weight"))
                    .abs().sum().item<double>() > 0.0);

        // A checkpoint of another width is refused, naming its config.json.
        ModelConfig wider = deeper;
        wider.hiddenSize = 64;
        try {
            TrainableLlama::grownFrom(checkpoint, wider, 9);
            QFAIL("accepted another width");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("config.json")), qPrintable(e.message()));
        }
    }

    // The planted head: layer 0, kv-head 0 attends to the previous token on any tokens,
    // through a shared embedding component (Llama) or the q/k biases (Qwen2 layout).
    void plantedPreviousTokenHeadAttendsToThePreviousToken_data()
    {
        QTest::addColumn<bool>("attentionBias");
        QTest::newRow("llama") << false;
        QTest::newRow("qwen2 biases") << true;
    }

    void plantedPreviousTokenHeadAttendsToThePreviousToken()
    {
        QFETCH(bool, attentionBias);
        QTemporaryDir dir;
        TrainModelShape shape = bundledHeadLayout();
        shape.attentionBias = attentionBias;
        TrainableLlama(shape.config(300, 0, {}), 4, true).save(dir.filePath(QStringLiteral("m")), {});
        const auto model = Transformer::load(dir.filePath(QStringLiteral("m")));
        std::vector<int> ids;
        for (int i = 0; i < 120; ++i)
            ids.push_back((i * 97 + 13) % 300);
        PrefillOptions options;
        for (int64_t row = 1; row < 120; ++row)
            options.attentionRows.push_back(row);
        c10::InferenceMode guard;
        const ContextCache cache = model->prefill(ids, options);
        const at::Tensor rows = cache.layers[0].rowAttention; // [kv, R, T], row r = position r + 1
        for (int64_t r = 0; r < 119; ++r) {
            const double previous = rows[0][r][r].item<double>();
            QVERIFY2(previous > 0.9, qPrintable(QStringLiteral("row %1: %2").arg(r + 1).arg(previous)));
        }
        // kv-head 1 is left as initialised: no such pattern.
        QVERIFY(rows[1][118][118].item<double>() < 0.5);
    }

    // "torch" init: every Linear weight within PyTorch's ±1/sqrt(fan_in) and spread over
    // it (uniform: std = bound/sqrt(3)), embeddings normal(0, 1); "gpt2": std 0.02.
    void torchInitFollowsModuleDefaults()
    {
        const ModelConfig config = bundledHeadLayout().config(300, 0, {});
        const TrainableLlama torchInit(config, 5, false, WeightInit::Torch);
        for (const auto& [name, t] : torchInit.named()) {
            if (name.endsWith(QLatin1String("norm.weight"))) {
                QVERIFY(t.eq(1.0).all().item<bool>());
            } else if (name == QLatin1String("model.embed_tokens.weight")) {
                QVERIFY2(std::abs(t.std().item<double>() - 1.0) < 0.05, qPrintable(name));
            } else {
                const double bound = 1.0 / std::sqrt(double(t.size(1)));
                QVERIFY2(t.abs().max().item<double>() <= bound, qPrintable(name));
                const double ratio = t.std().item<double>() / (bound / std::sqrt(3.0));
                QVERIFY2(std::abs(ratio - 1.0) < 0.1, qPrintable(name));
            }
        }
        const TrainableLlama gpt2(config, 5);
        const double s = gpt2.named().at(QStringLiteral("model.layers.0.mlp.up_proj.weight")).std().item<double>();
        QVERIFY2(std::abs(s - 0.02) < 0.002, qPrintable(QString::number(s)));
    }

    // A stage's frozen parameters keep their values; the others train; a wrong name is
    // refused before training starts.
    void frozenParametersStay()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        TrainSpec spec = tinySpec(4);
        const QString embed = QStringLiteral("model.embed_tokens.weight");
        const QString q0 = QStringLiteral("model.layers.0.self_attn.q_proj.weight");
        spec.stages[0].frozen = {embed, q0};
        const QString run = dir.filePath(QStringLiteral("frozen"));
        Trainer(spec, run, tokenizer, {}).run(1);
        const TrainableLlama before = TrainableLlama::load(run + QStringLiteral("/checkpoint"));
        Trainer(spec, run, tokenizer, {}).run();
        const TrainableLlama after = TrainableLlama::load(run + QStringLiteral("/checkpoint"));
        QVERIFY(before.named().at(embed).equal(after.named().at(embed)));
        QVERIFY(before.named().at(q0).equal(after.named().at(q0)));
        const QString k0 = QStringLiteral("model.layers.0.self_attn.k_proj.weight");
        QVERIFY(!before.named().at(k0).equal(after.named().at(k0)));

        spec.stages[0].frozen = {QStringLiteral("model.no_such.weight")};
        try {
            Trainer(spec, dir.filePath(QStringLiteral("bad")), tokenizer, {}).run();
            QFAIL("accepted an unknown parameter");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("no_such")), qPrintable(e.message()));
        }
    }

    // Held-out evaluations run every eval_every steps and at the end, on each suite of the
    // stage at the stage's lengths, against the checkpoint of that very step; none without
    // an evaluator. Their time is not counted as training time.
    void evaluatesCheckpointsEveryEvalEvery()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        TrainSpec spec = tinySpec(7);
        spec.evalEvery = 3;
        spec.evalSamples = 5;
        spec.stages[0].suites = {{QStringLiteral("retrieval"), 1.0}, {QStringLiteral("multihop"), 1.0}};
        spec.stages[0].recallShare = 0.5;
        spec.stages[0].minContextTokens = 10;
        spec.stages[0].maxContextTokens = 20;
        // A stand-in suite: key-value-like sequences with the answer supervised.
        const TaskSequenceFn tasks = [](const TaskDraw&, Rng& rng) {
            TrainSequence seq;
            for (int i = 0; i < 12; ++i)
                seq.append(5 + int(rng.next() % 200), i >= 10);
            return seq;
        };
        const QString run = dir.filePath(QStringLiteral("eval"));
        Trainer trainer(spec, run, tokenizer, tasks);
        QStringList calls;
        trainer.setCheckpointEvaluator([&](const QString& ckpt, const QString& suite, int lo,
                                           int hi, int n) {
            const int step = QJsonDocument::fromJson([&] {
                                 QFile f(ckpt + QStringLiteral("/trainer_state.json"));
                                 return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                             }())
                                 .object()
                                 .value(QStringLiteral("step"))
                                 .toInt();
            calls << QStringLiteral("%1 %2 %3:%4 n%5").arg(step).arg(suite).arg(lo).arg(hi).arg(n);
            return QJsonObject{{QStringLiteral("suite"), suite}, {QStringLiteral("score"), 0.25}};
        });
        QStringList reported;
        trainer.setProgressCallback([&](const QJsonObject& o) {
            if (o.value(QStringLiteral("kind")).toString() == QLatin1String("eval"))
                reported << QStringLiteral("%1 %2 %3")
                                .arg(o.value(QStringLiteral("step")).toInt())
                                .arg(o.value(QStringLiteral("suite")).toString())
                                .arg(o.value(QStringLiteral("score")).toDouble());
        });
        QCOMPARE(trainer.run(), 7);
        const QStringList expected{"3 retrieval 10:20 n5", "3 multihop 10:20 n5",
                                   "6 retrieval 10:20 n5", "6 multihop 10:20 n5",
                                   "7 retrieval 10:20 n5", "7 multihop 10:20 n5"};
        QCOMPARE(calls, expected);
        QCOMPARE(reported.size(), 6);
        QCOMPARE(reported.first(), QStringLiteral("3 retrieval 0.25"));

        QTemporaryDir other;
        Trainer plain(spec, other.filePath(QStringLiteral("plain")), tokenizer, tasks);
        int evals = 0;
        plain.setProgressCallback([&](const QJsonObject& o) {
            evals += o.value(QStringLiteral("kind")).toString() == QLatin1String("eval");
        });
        QCOMPARE(plain.run(), 7);
        QCOMPARE(evals, 0);
    }

    void engineReadsCheckpointWithSameLogits()
    {
        QTemporaryDir dir;
        const QString tokenizer = makeTokenizer(dir);
        const QString checkpoint = trainTiny(dir, tokenizer, "run", 5);
        QVERIFY(QFile::exists(checkpoint + QStringLiteral("/tokenizer.json")));
        const auto engine = Transformer::load(checkpoint);
        const TrainableLlama trained = TrainableLlama::load(checkpoint);
        const std::vector<int> ids{0, 17, 42, 99, 5, 260, 3, 77};
        at::NoGradGuard noGrad;
        const auto a = engine->forward(ids);
        const auto b = trained.forward(
            torch::tensor(std::vector<int64_t>(ids.begin(), ids.end())).unsqueeze(0))[0];
        QCOMPARE(a.sizes().vec(), b.sizes().vec());
        const double diff = (a - b).abs().max().item<double>();
        QVERIFY2(diff < 1e-4, qPrintable(QString::number(diff)));
    }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
