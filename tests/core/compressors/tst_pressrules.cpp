// Every press on a tiny hand-made cache whose kept set follows from the press's rule;
// each expectation is worked out by hand in the comment above it (no press code is
// used to compute an expectation).
#include "pressfixture.h"

#include "cache/repeatprompts.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "model/transformer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>
#include <cmath>

using namespace kvl;
using namespace kvl::test;
using Ints = std::vector<int>;

namespace {

CompressionResult run(const QString& spec, test::PressFixture& f, double ratio)
{
    f.bind();
    return PressCatalog().press(spec)->compress(f.input, ratio);
}

// Keys [n, 0] whose norms are the given values.
std::vector<std::vector<float>> normRows(const std::vector<float>& norms)
{
    std::vector<std::vector<float>> rows;
    for (float n : norms)
        rows.push_back({n, 0.0f});
    return rows;
}

// A NumPy .npy (format 1.0) of little-endian float32 with the given shape literal.
void writeNpy(const QString& path, const char* shape, const std::vector<float>& values)
{
    QByteArray header = QByteArray("{'descr': '<f4', 'fortran_order': False, 'shape': ") + shape +
                        QByteArray(", }");
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header;
    bytes += QByteArray(reinterpret_cast<const char*>(values.data()),
                        qsizetype(values.size() * sizeof(float)));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// The model pass kvzip() and kvCompose() re-read their context with: f's shape (two query
// heads, head_dim 4) with random weights, except zero q/k weights, q biases [0,2,0,0]
// (head 0) and [0,0,0,2] (head 1) and zero k biases, so every re-read query is its head's
// bias and every re-read key 0 (RoPE theta 1e12 leaves dims 1 and 3 unrotated).
// compress() binds it, with the context ids and repeat prompts, to f's input.
struct RereadPass
{
    PressFixture& f;
    Transformer model;
    std::vector<int> ids;
    const RepeatPrompts* prompts = nullptr;

    static Transformer rereadModel(const ModelConfig& shape, const QString& source)
    {
        ModelConfig config = shape;
        config.vocabSize = 10;
        config.intermediateSize = 8;
        config.maxPositionEmbeddings = 64;
        config.ropeTheta = 1e12;
        config.attentionBias = true;
        ModelWeights weights = randomModelWeights(config, 3, 0.3);
        for (LayerWeights& w : weights.layers) {
            w.q.zero_();
            w.k.zero_();
            w.qBias = torch::tensor({0.0f, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 2.0f});
            w.kBias = torch::zeros({config.numKvHeads * config.headDim});
        }
        return Transformer(config, std::move(weights), source);
    }

    RereadPass(PressFixture& fixture, std::vector<int> contextIds, const QString& source,
               const RepeatPrompts* repeatPrompts = nullptr)
        : f(fixture), model(rereadModel(fixture.config, source)), ids(std::move(contextIds)),
          prompts(repeatPrompts)
    {}

    CompressionResult compress(const QString& spec, double ratio)
    {
        f.bind();
        f.input.model = &model;
        f.input.contextIds = &ids;
        f.input.repeatPrompts = prompts;
        return PressCatalog().press(spec)->compress(f.input, ratio);
    }
};

} // namespace

class TestPressRules : public QObject
{
    Q_OBJECT

  private slots:
    void knorm()
    {
        // Norms 5, 1, 2, 10; r = 0.5 keeps int(4 * 0.5) = 2: the smallest norms, 1 and 2.
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setKeys(0, 0, {{3, 4}, {1, 0}, {0, 2}, {6, 8}});
        const CompressionResult r = run(QStringLiteral("knorm"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{1, 2}));
        QCOMPARE(r.scores[0][0][0].item<float>(), -5.0f);
        QCOMPARE(coverageTypeName(r.coverage), QStringLiteral("measured_token_coverage"));
        // uniform(knorm) is the same press written out.
        QCOMPARE(keptAt(run(QStringLiteral("uniform(knorm)"), f, 0.5).kept, 0, 0), (Ints{1, 2}));
    }

    void streamingLlm()
    {
        // n_sink 1, T 6, r 0.5: keep 3 = the sink 0 and the 2 most recent, 4 and 5.
        PressFixture f(1, 1, 1, 6, 2, 1);
        QCOMPARE(keptAt(run(QStringLiteral("streamingllm:n_sink=1"), f, 0.5).kept, 0, 0),
                 (Ints{0, 4, 5}));
        // Default n_sink 4, T 10, r 0.5: keep 5 = sinks 0-3 and the last token 9.
        PressFixture g(1, 1, 1, 10, 2, 1);
        QCOMPARE(keptAt(run(QStringLiteral("streamingllm"), g, 0.5).kept, 0, 0),
                 (Ints{0, 1, 2, 3, 9}));
    }

    void randomIsSeeded()
    {
        // T 40, r 0.5: 20 per head, the same set for the same seed, another for another.
        PressFixture f(2, 2, 2, 40, 2, 1);
        const CompressionResult a = run(QStringLiteral("random:seed=3"), f, 0.5);
        const CompressionResult b = run(QStringLiteral("random:seed=3"), f, 0.5);
        const CompressionResult c = run(QStringLiteral("random:seed=4"), f, 0.5);
        QVERIFY(a.kept.equal(b.kept));
        QVERIFY(!a.kept.equal(c.kept));
        QCOMPARE(a.kept.sum(-1).min().item<int64_t>(), 20);
        QCOMPARE(a.kept.sum(-1).max().item<int64_t>(), 20);
    }

    void snapKv()
    {
        // Window 2 (positions 4, 5), both queries [1, 0]; keys [x, 0] with x = 1, 3, -3,
        // 1.5 at 0-3: attention (mean over the window) s1 > s3 > s0 > s2. r 0.3 keeps
        // int(6 * 0.7) = 4: the window (max score) and 2 context entries.
        // kernel 1: best s1, s3 -> {1, 3, 4, 5}.
        // kernel 3 (zero-padded): p1 = (s0+s1+s2)/3 < p2 = (s1+s2+s3)/3 since s3 > s0;
        // p0 = (s0+s1)/3 < p1; p3 = (s2+s3)/3 < p1 -> {1, 2, 4, 5}.
        PressFixture f(1, 1, 1, 6, 2, 2);
        f.setKeys(0, 0, {{1, 0}, {3, 0}, {-3, 0}, {1.5, 0}, {0, 0}, {0, 0}});
        f.cache.layers[0].windowQueries.select(2, 0).fill_(1.0);
        QCOMPARE(keptAt(run(QStringLiteral("snapkv:window=2,kernel=1"), f, 0.3).kept, 0, 0),
                 (Ints{1, 3, 4, 5}));
        QCOMPARE(keptAt(run(QStringLiteral("snapkv:window=2,kernel=3"), f, 0.3).kept, 0, 0),
                 (Ints{1, 2, 4, 5}));
        // Kernel 1, window 2: s0 = mean of e^(1/√2)/Z4 and e^(1/√2)/Z5 with
        // Z4 = e^(1/√2) + e^(3/√2) + e^(-3/√2) + e^(1.5/√2) + 1, Z5 = Z4 + 1.
        const double e = std::exp(1 / std::sqrt(2.0));
        const double z4 = e + std::exp(3 / std::sqrt(2.0)) + std::exp(-3 / std::sqrt(2.0)) +
                          std::exp(1.5 / std::sqrt(2.0)) + 1.0;
        const CompressionResult r = run(QStringLiteral("snapkv:window=2,kernel=1"), f, 0.3);
        QVERIFY(std::abs(r.scores[0][0][0].item<double>() - (e / z4 + e / (z4 + 1)) / 2) < 1e-6);
        // A window the prefill did not capture is an error, not a guess.
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("snapkv:window=3"), f, 0.3));
        // n_kept = window: r 0.6 keeps int(6 * 0.4) = 2, the window {4, 5} alone. The
        // window scores the context's maximum s1 + 1 (kvpress pads with max + 1); padded
        // with s1 itself, s1 would tie with it and win as the earlier entry: {1, 4}.
        const CompressionResult w = run(QStringLiteral("snapkv:window=2,kernel=1"), f, 0.6);
        QCOMPARE(keptAt(w.kept, 0, 0), (Ints{4, 5}));
        QCOMPARE(w.scores[0][0][5].item<float>(), w.scores[0][0][1].item<float>() + 1.0f);
    }

    void tovaSharesOneScoreAcrossHeads()
    {
        // Head 0 (q [1,0]) reads kv-head 0 whose key 0 is [4,0]: attention
        // [e^(4/√2), 1, 1, 1] / Z0. Head 1 (q [0,1]) reads kv-head 1 whose key 1 is [0,3]:
        // [1, e^(3/√2), 1, 1] / Z1. Mean over heads: position 0 ≈ 0.469 > position 1 ≈
        // 0.393 > 2 ≈ 0.069; the last token gets the max + 1. r 0.5 keeps 2: {0, 3} for BOTH
        // kv-heads (kv-head 1 on its own would prefer 1).
        PressFixture f(1, 2, 2, 4, 2, 1);
        f.setKeys(0, 0, {{4, 0}});
        f.setKeys(0, 1, {{0, 0}, {0, 3}});
        f.cache.layers[0].windowQueries[0][0][0] = 1.0;
        f.cache.layers[0].windowQueries[1][0][1] = 1.0;
        const CompressionResult r = run(QStringLiteral("tova"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 3}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{0, 3}));
        const double a = std::exp(4 / std::sqrt(2.0)), b = std::exp(3 / std::sqrt(2.0));
        const double expected0 = (a / (a + 3) + 1 / (b + 3)) / 2;
        QVERIFY(std::abs(r.scores[0][1][0].item<double>() - expected0) < 1e-6);
        QVERIFY(std::abs(r.scores[0][0][3].item<double>() - (expected0 + 1)) < 1e-6);
    }

    void chunkKvKeepsTovasLastToken()
    {
        // Query [1,0], keys [3,0], [3,0], 0, 0: the last token's attention is e/Z, e/Z,
        // 1/Z (Z = 2e + 2, e = e^(3/√2) ≈ 8.34): a ≈ 0.446, a, b ≈ 0.054; the last token
        // is padded with a + 1. chunk 2, r 0.5 keeps int(2 * 0.5) = 1 chunk: means a for
        // {0, 1} and (b + a + 1)/2 ≈ 0.75 for {2, 3}: {2, 3}, the last token kept, as in
        // kvpress. Padded with a alone, (b + a)/2 < a would evict it: {0, 1}.
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setKeys(0, 0, {{3, 0}, {3, 0}});
        f.cache.layers[0].windowQueries[0][0][0] = 1.0;
        const CompressionResult r = run(QStringLiteral("chunkkv(tova):chunk=2"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 3}));
    }

    void observedAttention()
    {
        // Zero query weights make every query attend uniformly to the keys it sees: query
        // p gives 1/(p+1) to each of keys 0..p. Over 3 tokens, received: key 0 = 1 + 1/2 +
        // 1/3, key 1 = 1/2 + 1/3, key 2 = 1/3; divided by the 3, 2, 1 queries that see
        // them: 11/18, 5/12, 1/3, in every layer and kv-head. r 0.3 keeps int(2.1) = 2:
        // {0, 1}. Prefill accumulates it (blocks of 2 rows, so across blocks too).
        ModelConfig config;
        config.vocabSize = 10;
        config.hiddenSize = 8;
        config.intermediateSize = 8;
        config.numLayers = 2;
        config.numHeads = 2;
        config.numKvHeads = 1;
        config.headDim = 4;
        config.maxPositionEmbeddings = 64;
        config.ropeTheta = 10000.0;
        Transformer model(config, randomModelWeights(config, 3, 0.3), QStringLiteral("h2o"));
        for (LayerWeights& w : model.weights().layers) {
            w.q.zero_();
            if (w.qBias.defined())
                w.qBias.zero_();
        }
        model.setBlockRows(2);
        c10::InferenceMode guard;
        PrefillOptions options;
        options.window = 1;
        options.receivedAttention = true;
        const ContextCache cache = model.prefill({1, 2, 3}, options);
        CompressionInput input;
        input.cache = &cache;
        input.config = &model.config();
        const CompressionResult r =
            PressCatalog().press(QStringLiteral("observed"))->compress(input, 0.3);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1}));
        const at::Tensor expected = torch::tensor({11.0f / 18, 5.0f / 12, 1.0f / 3});
        QVERIFY(r.scores.allclose(expected.expand_as(r.scores), 1e-6, 1e-6));

        // Without the accumulation the scorer says so rather than guessing.
        options.receivedAttention = false;
        const ContextCache plain = model.prefill({1, 2, 3}, options);
        input.cache = &plain;
        QVERIFY_THROWS_EXCEPTION(
            Error, PressCatalog().press(QStringLiteral("observed"))->compress(input, 0.3));

        // Presses ask for it through any wrapper; the captured window is not needed.
        const PressCatalog catalog;
        for (const char* spec : {"observed", "block(observed)", "adakv(whitelist(observed))",
                                 "composed(knorm+observed)", "criticalkv(observed)"})
            QVERIFY2(catalog.press(QString::fromLatin1(spec))->needsReceivedAttention(), spec);
        QVERIFY(!catalog.press(QStringLiteral("snapkv"))->needsReceivedAttention());
        QCOMPARE(catalog.press(QStringLiteral("observed"))->queryWindow(100), int64_t(0));
    }

    void expectedAttention()
    {
        // head_dim 2 (inverse frequency 1), one future position (T = 4): the mean query
        // is rotated by 4 rad. Pre-RoPE query [cos 4, -sin 4] = R(-4)[1,0] becomes [1,0];
        // keys [cos φ, sin φ] at φ = 0, 1, 2, 3 score softmax(cos φ / √2): 0 > 1 > 2 > 3.
        // r 0.5 keeps 2: {0, 1}. With ||v|| = 100 at position 3 it beats position 1: {0, 3}.
        PressFixture f(1, 1, 1, 4, 2, 1);
        std::vector<std::vector<float>> keys;
        for (int p = 0; p < 4; ++p)
            keys.push_back({float(std::cos(p)), float(std::sin(p))});
        f.setKeys(0, 0, keys);
        f.cache.layers[0].windowQueriesPreRope[0][0][0] = float(std::cos(4.0));
        f.cache.layers[0].windowQueriesPreRope[0][0][1] = float(-std::sin(4.0));
        f.setValues(0, 0, {{1, 0}, {1, 0}, {1, 0}, {100, 0}});
        const QString base =
            QStringLiteral("expected:n_future_positions=1,n_sink=0,use_covariance=false");
        const CompressionResult plain = run(base + QStringLiteral(",use_vnorm=false"), f, 0.5);
        QCOMPARE(keptAt(plain.kept, 0, 0), (Ints{0, 1}));
        double z = 0;
        for (int p = 0; p < 4; ++p)
            z += std::exp(std::cos(p) / std::sqrt(2.0));
        QVERIFY(std::abs(plain.scores[0][0][0].item<double>() - std::exp(1 / std::sqrt(2.0)) / z) <
                1e-5);
        QCOMPARE(keptAt(run(base, f, 0.5).kept, 0, 0), (Ints{0, 3}));
        // A sink scores the layer's maximum + 1, as kvpress pads it.
        const CompressionResult sink = run(
            QStringLiteral("expected:n_future_positions=1,n_sink=1,use_covariance=false"), f, 0.5);
        QCOMPARE(sink.scores[0][0][0].item<float>(),
                 sink.scores[0][0].narrow(0, 1, 3).max().item<float>() + 1.0f);
    }

    void keyDiff()
    {
        // Normalised keys [1,0], [1,0], [0,1]: anchor [2/3, 1/3]; cos = 0.894, 0.894,
        // 0.447; score -cos: the odd key 2 is the most distinctive. r 0.5 keeps 1: {2}.
        PressFixture f(1, 1, 1, 3, 2, 1);
        f.setKeys(0, 0, {{1, 0}, {1, 0}, {0, 1}});
        QCOMPARE(keptAt(run(QStringLiteral("keydiff"), f, 0.5).kept, 0, 0), (Ints{2}));
    }

    void lagKv()
    {
        // n_sink 1, lag 2, T 6: partitions {1,2} and {3,4} (+ remainder 5 = tail). Keys and
        // values of 3, 4 are [0,0], [1,1]: min 0, max 1 per channel, so partition {1,2} is
        // unchanged: [0.5,0.5] has std 0, [0,1] std √0.5. softmax -> 1/(1+e^√0.5) ≈ 0.330
        // and ≈ 0.670; by default replaced by the rank in the partition / lag: 0 and 1/2.
        // Sink and tail 1. r 0.1 keeps int(5.4) = 5: all but 1.
        PressFixture f(1, 1, 1, 6, 2, 1);
        const std::vector<std::vector<float>> rows{{9, 9}, {0.5, 0.5}, {0, 1},
                                                   {0, 0}, {1, 1},     {7, 7}};
        f.setKeys(0, 0, rows);
        f.setValues(0, 0, rows);
        const CompressionResult r = run(QStringLiteral("lagkv:n_sink=1,lag=2"), f, 0.1);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 2, 3, 4, 5}));
        QCOMPARE(r.scores[0][0][1].item<float>(), 0.0f);
        QCOMPARE(r.scores[0][0][2].item<float>(), 0.5f);
        QCOMPARE(r.scores[0][0][5].item<float>(), 1.0f);
        // cross_scoring keeps the softmax values.
        const CompressionResult c =
            run(QStringLiteral("lagkv:n_sink=1,lag=2,cross_scoring=true"), f, 0.1);
        QCOMPARE(keptAt(c.kept, 0, 0), (Ints{0, 2, 3, 4, 5}));
        const double low = 1 / (1 + std::exp(std::sqrt(0.5)));
        QVERIFY(std::abs(c.scores[0][0][1].item<double>() - low) < 1e-6);
        QVERIFY(std::abs(c.scores[0][0][2].item<double>() - (1 - low)) < 1e-6);
        // Shorter than n_sink + 2 lag (defaults 4 + 256): sinks 1, then recency i / (T - 4):
        // T 10, r 0.5 keeps 5: the sinks and the last token.
        PressFixture g(1, 1, 1, 10, 2, 1);
        const CompressionResult s = run(QStringLiteral("lagkv"), g, 0.5);
        QCOMPARE(keptAt(s.kept, 0, 0), (Ints{0, 1, 2, 3, 9}));
        QVERIFY(std::abs(s.scores[0][0][5].item<double>() - 1.0 / 6) < 1e-6);
    }

    void cur()
    {
        // Key norms² 1, 3, 2, 2 in windows of 2: leverage 1/4, 3/4 | 1/2, 1/2. key only,
        // r 0.7 keeps int(1.2) = 1: {1}. Value norms² 3, 1, 1, 1: leverage 3/4, 1/4 |
        // 1/2, 1/2; value only keeps {0}. kv product 3/16, 3/16, 1/4, 1/4, normalised over
        // the head (sum 7/8): 3/14, 3/14, 2/7, 2/7: r 0.5 keeps {2, 3}. num_sinks 1 sets
        // position 0 to 1: kept with 2 (the earlier of the tied 2, 3).
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setKeys(
            0, 0,
            normRows({1, float(std::sqrt(3.0)), float(std::sqrt(2.0)), float(std::sqrt(2.0))}));
        f.setValues(0, 0, normRows({float(std::sqrt(3.0)), 1, 1, 1}));
        QCOMPARE(
            keptAt(run(QStringLiteral("cur:num_sinks=0,window=2,leverage=key"), f, 0.7).kept, 0, 0),
            (Ints{1}));
        QCOMPARE(keptAt(run(QStringLiteral("cur:num_sinks=0,window=2,leverage=value"), f, 0.7).kept,
                        0, 0),
                 (Ints{0}));
        const CompressionResult r = run(QStringLiteral("cur:num_sinks=0,window=2"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 3}));
        QVERIFY(std::abs(r.scores[0][0][2].item<double>() - 2.0 / 7) < 1e-6);
        QVERIFY(std::abs(r.scores[0][0][0].item<double>() - 3.0 / 14) < 1e-6);
        const CompressionResult sink = run(QStringLiteral("cur:num_sinks=1,window=2"), f, 0.5);
        QCOMPARE(keptAt(sink.kept, 0, 0), (Ints{0, 2}));
        QCOMPARE(sink.scores[0][0][0].item<float>(), 1.0f);
        // Without the local approximation, norms² k 9, 4.5 and v 1, 4.5: kv_avg 5 > 4.5
        // keeps {0}; kv_product 9 < 20.25 keeps {1}.
        PressFixture h(1, 1, 1, 2, 2, 1);
        h.setKeys(0, 0, normRows({3, float(std::sqrt(4.5))}));
        h.setValues(0, 0, normRows({1, float(std::sqrt(4.5))}));
        const QString global = QStringLiteral("cur:num_sinks=0,local=false");
        QCOMPARE(keptAt(run(global + QStringLiteral(",leverage=kv_avg"), h, 0.5).kept, 0, 0),
                 (Ints{0}));
        QCOMPARE(keptAt(run(global, h, 0.5).kept, 0, 0), (Ints{1}));
        // Key norms² 1, 3, 20, 40: locally 1/4, 3/4 | 1/3, 2/3 keeps {1, 3}; without the
        // local approximation the plain norms keep {2, 3}.
        PressFixture g(1, 1, 1, 4, 2, 1);
        g.setKeys(
            0, 0,
            normRows({1, float(std::sqrt(3.0)), float(std::sqrt(20.0)), float(std::sqrt(40.0))}));
        const QString key = QStringLiteral("cur:num_sinks=0,window=2,leverage=key");
        QCOMPARE(keptAt(run(key, g, 0.5).kept, 0, 0), (Ints{1, 3}));
        QCOMPARE(keptAt(run(key + QStringLiteral(",local=false"), g, 0.5).kept, 0, 0),
                 (Ints{2, 3}));
        // The random projection is seeded: the same spec gives the same scores.
        const QString random = QStringLiteral("cur:random_leverage=true,seed=3");
        QVERIFY(run(random, f, 0.5).scores.equal(run(random, f, 0.5).scores));
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("cur:leverage=k"), f, 0.5));
    }

    void qfilter()
    {
        // Filter [1, 0]; keys [2,0], [-1,0], [0,5]: score -<f,k> = -2, 1, 0.
        // r 0.5 keeps 1: {1}; r 0.3 keeps 2: {1, 2}.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("filters.safetensors"));
        const float filters[] = {1.0f, 0.0f};
        SafetensorsWriter writer;
        writer.addF32(QStringLiteral("q_filters"), {1, 1, 2}, filters);
        writer.write(path);
        PressFixture f(1, 1, 1, 3, 2, 1);
        f.setKeys(0, 0, {{2, 0}, {-1, 0}, {0, 5}});
        QCOMPARE(keptAt(run(QStringLiteral("qfilter:file=") + path, f, 0.5).kept, 0, 0), (Ints{1}));
        QCOMPARE(keptAt(run(QStringLiteral("qfilter:file=") + path, f, 0.3).kept, 0, 0),
                 (Ints{1, 2}));
        QVERIFY_THROWS_EXCEPTION(Error, PressCatalog().press(QStringLiteral("qfilter")));
    }

    void criticalKv()
    {
        // Inner streamingllm (n_sink 0) scores 0, 1, 2, 3. r 0.5: n_kept 2, first stage
        // int(0.5 * 4 * 0.5) = 1 keeps position 3. W_o = I, ||v||₁ = 1, 10, 1, 1:
        // (t + 1e-4) ||v||₁ = 1e-4, 10.001, 2.0002 -> position 1 joins: {1, 3}
        // (streamingllm alone keeps {2, 3}).
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setValues(0, 0, {{1, 0}, {10, 0}, {1, 0}, {1, 0}});
        QCOMPARE(keptAt(run(QStringLiteral("streamingllm:n_sink=0"), f, 0.5).kept, 0, 0),
                 (Ints{2, 3}));
        QCOMPARE(
            keptAt(run(QStringLiteral("criticalkv(streamingllm:n_sink=0)"), f, 0.5).kept, 0, 0),
            (Ints{1, 3}));
    }

    // GQA: kv-head c's entry scores ||W_o,h v||₁ averaged over the query heads h of its
    // group, W_o,h = the columns h·d … (h+1)·d of o_proj. With zero keys KNorm scores 0
    // and at r = 0.75 the first stage keeps nothing (int(0.25 · 4 · 0.5) = 0), so the
    // scores are 1e-4 times that mean.
    void criticalKvGqaProjection()
    {
        PressFixture f(1, 2, 4, 4, 2, 1);
        at::manual_seed(3);
        f.weights.layers[0].o = torch::randn({8, 8});
        f.cache.layers[0].values = torch::randn({2, 4, 2});
        const at::Tensor scores = run(QStringLiteral("criticalkv(knorm)"), f, 0.75).scores;
        const at::Tensor& o = f.weights.layers[0].o;
        const at::Tensor& v = f.cache.layers[0].values;
        for (int64_t c = 0; c < 2; ++c)
            for (int64_t t = 0; t < 4; ++t) {
                double mean = 0;
                for (int64_t h = 2 * c; h < 2 * c + 2; ++h)
                    mean +=
                        at::matmul(o.narrow(1, h * 2, 2), v[c][t]).abs().sum().item<double>() / 2;
                const double got = scores[0][c][t].item<double>();
                QVERIFY2(std::abs(got - 1e-4 * mean) < 1e-9,
                         qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(1e-4 * mean)));
            }
        // r = 0.5 with keys: the first stage keeps int(0.5 * 4 * 0.5) = 1 entry per kv-head
        // outright (the largest -||k||, scored at the float maximum, its value never
        // projected); the other three are rescored (-||k|| + 1e-4) x the group's mean
        // ||W_o,h v||_1, worked out here from the weights.
        f.cache.layers[0].keys = torch::randn({2, 4, 2});
        const at::Tensor two = run(QStringLiteral("criticalkv(knorm)"), f, 0.5).scores;
        const at::Tensor& k = f.cache.layers[0].keys;
        for (int64_t c = 0; c < 2; ++c) {
            const int64_t best = (-k[c].norm(2, -1)).argmax().item<int64_t>();
            for (int64_t t = 0; t < 4; ++t) {
                const double got = two[0][c][t].item<double>();
                if (t == best) {
                    QCOMPARE(got, double(std::numeric_limits<float>::max()));
                    continue;
                }
                double mean = 0;
                for (int64_t h = 2 * c; h < 2 * c + 2; ++h)
                    mean +=
                        at::matmul(o.narrow(1, h * 2, 2), v[c][t]).abs().sum().item<double>() / 2;
                const double want = (-k[c][t].norm().item<double>() + 1e-4) * mean;
                QVERIFY2(std::abs(got - want) < 1e-5 * std::max(1.0, std::abs(want)),
                         qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(want)));
            }
        }
    }

    void whitelist()
    {
        // Norms 1..6; the span [4, 6) is protected. r 0.5 keeps 3: 4, 5 and the best
        // remaining by knorm, 0. r 0.8 keeps int(1.2) = 1 < 2 protected: both kept anyway.
        PressFixture f(1, 1, 1, 6, 2, 1);
        f.setKeys(0, 0, normRows({1, 2, 3, 4, 5, 6}));
        f.input.spans = {{4, 6, QStringLiteral("system_rule")}};
        QCOMPARE(keptAt(run(QStringLiteral("whitelist(knorm)"), f, 0.5).kept, 0, 0),
                 (Ints{0, 4, 5}));
        QCOMPARE(keptAt(run(QStringLiteral("whitelist(knorm)"), f, 0.8).kept, 0, 0), (Ints{4, 5}));
        // Only the roles asked for are protected.
        QCOMPARE(keptAt(run(QStringLiteral("whitelist(knorm):roles=evidence"), f, 0.5).kept, 0, 0),
                 (Ints{0, 1, 2}));
        // Evidence spans are not protected unless asked for (roles=all or roles=evidence).
        f.input.spans = {{4, 6, QStringLiteral("evidence")}};
        QCOMPARE(keptAt(run(QStringLiteral("whitelist(knorm)"), f, 0.5).kept, 0, 0),
                 (Ints{0, 1, 2}));
        QCOMPARE(keptAt(run(QStringLiteral("whitelist(knorm):roles=all"), f, 0.5).kept, 0, 0),
                 (Ints{0, 4, 5}));
        f.input.spans = {{4, 6, QStringLiteral("system_rule")}};
        // Whitelisting composes with head-wise allocation and chunks.
        QCOMPARE(keptAt(run(QStringLiteral("adakv(whitelist(knorm))"), f, 0.5).kept, 0, 0),
                 (Ints{0, 4, 5}));
    }

    void pyramidKv()
    {
        // window 1, beta 2, T 8, r 0.5: max capacity 1 + 4 = 5, min = 4/2 = 2,
        // max = 4*2 - 2 = 6; 8 >= 6 >= 2 >= 1 holds; step (6-2)/2 = 2: layers keep 6, 4, 2.
        // Norms 8..1 so the kept entries are the last ones.
        PressFixture f(3, 1, 1, 8, 2, 1);
        for (int l = 0; l < 3; ++l)
            f.setKeys(l, 0, normRows({8, 7, 6, 5, 4, 3, 2, 1}));
        const CompressionResult r = run(QStringLiteral("pyramidkv(knorm):window=1,beta=2"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 3, 4, 5, 6, 7}));
        QCOMPARE(keptAt(r.kept, 1, 0), (Ints{4, 5, 6, 7}));
        QCOMPARE(keptAt(r.kept, 2, 0), (Ints{6, 7}));
        QCOMPARE(r.details.value(QStringLiteral("uniform_fallback")).toBool(), false);
        // Defaults (window 64, beta 20): max 8 - 0.2 >= 8 - 64, clamped to T - 64 = -56,
        // min = 8 + 56 = 64 > max -> uniform round(8 * 0.5) = 4.
        const CompressionResult u = run(QStringLiteral("pyramidkv(knorm)"), f, 0.5);
        for (int l = 0; l < 3; ++l)
            QCOMPARE(keptAt(u.kept, l, 0), (Ints{4, 5, 6, 7}));
        QCOMPARE(u.details.value(QStringLiteral("uniform_fallback")).toBool(), true);
    }

    void pyramidKvClampsTheLargestBudget()
    {
        // kvpress get_layer_budget at T 310, window 64, beta 20, 3 layers.
        // r 0.25: T(1-r) = 232.5, min 11.625, max 465 - 11.625 >= 310 - 64: max = 246,
        // min = 465 - 246 = 219; 310 >= 246 >= 219 >= 64; steps 13.5: 246, round(232.5) =
        // 232 (ties to even), 219. r 0.5: 155, max 246, min 310 - 246 = 64; steps 91:
        // 246, 155, 64. Without the clamp min < 64 and every layer kept round(T(1-r)).
        PressFixture f(3, 1, 1, 310, 2, 1);
        const auto perLayer = [&](double ratio) {
            const CompressionResult r = run(QStringLiteral("pyramidkv(knorm)"), f, ratio);
            std::vector<int64_t> kept;
            for (int l = 0; l < 3; ++l)
                kept.push_back(r.kept[l][0].sum().item<int64_t>());
            return std::make_pair(kept, r.details);
        };
        const auto [quarter, quarterDetails] = perLayer(0.25);
        QCOMPARE(quarter, (std::vector<int64_t>{246, 232, 219}));
        QCOMPARE(quarterDetails.value(QStringLiteral("uniform_fallback")).toBool(), false);
        QCOMPARE(quarterDetails.value(QStringLiteral("layer_budgets")).toArray().size(), 3);
        QCOMPARE(quarterDetails.value(QStringLiteral("layer_budgets")).toArray()[1].toInt(), 232);
        QCOMPARE(perLayer(0.5).first, (std::vector<int64_t>{246, 155, 64}));
        // r 0.75: T(1-r) = 77.5, min 3.875, max 155 - 3.875 < 246 (no clamp); min < 64 ->
        // uniform round(77.5) = 78 (ties to even).
        const auto [most, mostDetails] = perLayer(0.75);
        QCOMPARE(most, (std::vector<int64_t>{78, 78, 78}));
        QCOMPARE(mostDetails.value(QStringLiteral("uniform_fallback")).toBool(), true);
        // T 200, r 0.25: rT = 50 < 64: clamped max 136, min 300 - 136 = 164 > max ->
        // uniform round(150) = 150.
        PressFixture g(3, 1, 1, 200, 2, 1);
        const CompressionResult u = run(QStringLiteral("pyramidkv(knorm)"), g, 0.25);
        QCOMPARE(u.kept.sum(-1).min().item<int64_t>(), 150);
        QCOMPARE(u.kept.sum(-1).max().item<int64_t>(), 150);
        QCOMPARE(u.details.value(QStringLiteral("uniform_fallback")).toBool(), true);
    }

    void adaKv()
    {
        // n_kept 2 per head, 4 in the layer; alpha 0.5 -> safeguard int(2 * 0.5) = 1.
        // Head 0 norms 1..4, head 1 norms 10..40 (knorm: head 0 scores higher). Safeguard:
        // position 0 in each head; the other 2 go to head 0's best: 1, 2.
        PressFixture f(1, 2, 2, 4, 2, 1);
        f.setKeys(0, 0, normRows({1, 2, 3, 4}));
        f.setKeys(0, 1, normRows({10, 20, 30, 40}));
        const CompressionResult r = run(QStringLiteral("adakv(knorm):alpha_safeguard=0.5"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1, 2}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{0}));
        // alpha 1: the safeguard is the whole budget, i.e. uniform.
        const CompressionResult u = run(QStringLiteral("adakv(knorm):alpha_safeguard=1"), f, 0.5);
        QCOMPARE(keptAt(u.kept, 0, 0), (Ints{0, 1}));
        QCOMPARE(keptAt(u.kept, 0, 1), (Ints{0, 1}));
    }

    void chunkKv()
    {
        // chunk 2, T 5: chunks {0,1}, {2,3}, {4}. Norms head 0: 1,1,9,9,9; head 1: 8,8,1,1,9.
        // knorm summed over heads: -9,-9,-10,-10,-18; chunk means -9, -10, -18.
        // r 0.5 keeps max(1, int(1.5)) = 1 chunk: {0,1} in BOTH heads (head 1 alone would
        // keep 2, 3). r 0.2 keeps int(2.4) = 2 chunks: {0,1,2,3}.
        PressFixture f(1, 2, 2, 5, 2, 1);
        f.setKeys(0, 0, normRows({1, 1, 9, 9, 9}));
        f.setKeys(0, 1, normRows({8, 8, 1, 1, 9}));
        const CompressionResult r = run(QStringLiteral("chunkkv(knorm):chunk=2"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{0, 1}));
        QCOMPARE(coverageTypeName(r.coverage), QStringLiteral("projected_token_coverage"));
        QCOMPARE(keptAt(run(QStringLiteral("chunkkv(knorm):chunk=2"), f, 0.2).kept, 0, 1),
                 (Ints{0, 1, 2, 3}));
    }

    void block()
    {
        // Norms 5,1,4,2,6,3, r 0.5 keeps 3, block 2. Start with {0,1,2}; + block {3,4}:
        // the 3 smallest of norms 5,1,4,2,6 are 1,2,3 -> {1,2,3}; + block {5}: norms
        // 1,4,2,3 -> {1,3,5}. (KNorm does not depend on the set, so this is also the
        // global top-3.)
        PressFixture f(1, 1, 1, 6, 2, 1);
        f.setKeys(0, 0, normRows({5, 1, 4, 2, 6, 3}));
        const CompressionResult r = run(QStringLiteral("block(knorm):block=2"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{1, 3, 5}));
        QVERIFY(!r.scores.defined());
        // Over any entry-wise scorer the blocks keep the global top-k, ties included
        // (integer norms tie often): the same mask as the uniform selector.
        PressFixture g(2, 2, 4, 61, 2, 1);
        g.randomize(3);
        for (LayerCache& l : g.cache.layers)
            l.keys = l.keys.mul(2).round();
        for (double ratio : {0.0, 0.3, 0.5, 0.9})
            QVERIFY(run(QStringLiteral("block(knorm):block=7"), g, ratio)
                        .kept.equal(run(QStringLiteral("knorm"), g, ratio).kept));
    }

    void perLayer()
    {
        // ratios 0 and 0.5: layer 0 keeps all 4, layer 1 int(2) = 2 (smallest norms 2, 3).
        PressFixture f(2, 1, 1, 4, 2, 1);
        for (int l = 0; l < 2; ++l)
            f.setKeys(l, 0, normRows({4, 3, 2, 1}));
        const CompressionResult r = run(QStringLiteral("perlayer(knorm):ratios=0;0.5"), f, 0.3);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1, 2, 3}));
        QCOMPARE(keptAt(r.kept, 1, 0), (Ints{2, 3}));
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("perlayer(knorm):ratios=0.5"), f, 0.3));
    }

    void fairEviction()
    {
        // T 10, span [0, 4) and the rest (6 tokens), recency scores. r 0.5: n_kept 5 split
        // 4*0.5 = 2 and 6*0.5 = 3: {2,3} + {7,8,9} (uniform keeps 5..9, the span loses all).
        // r 0.3: n_kept 7; exact shares 2.8 and 4.2 -> floors 2, 4, the one left goes to the
        // larger remainder (the span): {1,2,3} + {6,7,8,9}.
        PressFixture f(1, 1, 1, 10, 2, 1);
        f.input.spans = {{0, 4, QStringLiteral("system_rule")}};
        const QString spec = QStringLiteral("fair(streamingllm:n_sink=0)");
        QCOMPARE(keptAt(run(spec, f, 0.5).kept, 0, 0), (Ints{2, 3, 7, 8, 9}));
        QCOMPARE(keptAt(run(spec, f, 0.3).kept, 0, 0), (Ints{1, 2, 3, 6, 7, 8, 9}));
        QCOMPARE(keptAt(run(QStringLiteral("streamingllm:n_sink=0"), f, 0.5).kept, 0, 0),
                 (Ints{5, 6, 7, 8, 9}));
    }

    void composed()
    {
        // Stage 1 streamingllm (n_sink 0) at 0.5 keeps 4..7; stage 2 knorm at 0.5 keeps
        // int(4 * 0.5) = 2 of them with the smallest norms (1 at 5, 2 at 7): {5, 7}; the
        // small norms at 0..3 were already gone. r 0.75 splits evenly: 1 - sqrt(0.25) = 0.5.
        PressFixture f(1, 1, 1, 8, 2, 1);
        f.setKeys(0, 0, normRows({0.1f, 0.2f, 0.3f, 0.4f, 3, 1, 4, 2}));
        QCOMPARE(keptAt(run(QStringLiteral("composed(streamingllm:n_sink=0+knorm):ratios=0.5;0.5"),
                            f, 0.1)
                            .kept,
                        0, 0),
                 (Ints{5, 7}));
        QCOMPARE(keptAt(run(QStringLiteral("composed(streamingllm:n_sink=0+knorm)"), f, 0.75).kept,
                        0, 0),
                 (Ints{5, 7}));
    }

    void keyRerotation()
    {
        // head_dim 2, inverse frequency 1: the key of [1,0] at position p is [cos p, sin p].
        // streamingllm (n_sink 0) at r 0.5 keeps 2, 3; re-rotated to ranks 0, 1 they become
        // [1, 0] and [cos 1, sin 1]; evicted keys are untouched.
        PressFixture f(1, 1, 1, 4, 2, 1);
        std::vector<std::vector<float>> keys;
        for (int p = 0; p < 4; ++p)
            keys.push_back({float(std::cos(p)), float(std::sin(p))});
        f.setKeys(0, 0, keys);
        const CompressionResult r =
            run(QStringLiteral("keyrerotation(streamingllm:n_sink=0)"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 3}));
        QVERIFY(r.rewritten.has_value());
        const at::Tensor k = r.rewritten->layers[0].keys[0];
        const auto near = [](const at::Tensor& row, double x, double y) {
            return std::abs(row[0].item<double>() - x) < 1e-5 &&
                   std::abs(row[1].item<double>() - y) < 1e-5;
        };
        QVERIFY(near(k[2], 1.0, 0.0));
        QVERIFY(near(k[3], std::cos(1.0), std::sin(1.0)));
        QVERIFY(near(k[1], std::cos(1.0), std::sin(1.0)));
    }

    void quantized()
    {
        // 2 bits, group 4, residual 1, T 2: token 0 [0, 0.4, 1.2, 3] has min 0, max 3,
        // scale 1 -> [0, 0, 1, 3] (error² 0.16 + 0.04); token 1 stays exact.
        // Key error sqrt(0.2 / (0.16 + 1.44 + 9 + 1 + 4 + 9 + 16)).
        // Bytes (K and V): token 0: 4 * 2/8 + 1 group * (2 + 2) = 5 each; token 1: 4 * 2
        // each: 2 * 5 + 2 * 8 = 26 of a full 2 * 2 * 8 = 32.
        PressFixture f(1, 1, 1, 2, 4, 1);
        const std::vector<std::vector<float>> rows{{0, 0.4f, 1.2f, 3}, {1, 2, 3, 4}};
        f.setKeys(0, 0, rows);
        f.setValues(0, 0, rows);
        const CompressionResult r =
            run(QStringLiteral("quantized:bits=2,group=4,residual=1"), f, 0.5);
        QVERIFY(r.kept.all().item<bool>());
        QCOMPARE(coverageTypeName(r.coverage),
                 QStringLiteral("structural_position_addressability"));
        const at::Tensor k = r.rewritten->layers[0].keys[0][0];
        QVERIFY(k.allclose(torch::tensor({0.0f, 0.0f, 1.0f, 3.0f}), 1e-5, 1e-5));
        QVERIFY(std::abs(*r.keyError - std::sqrt(0.2 / 40.6)) < 1e-5);
        QCOMPARE(r.keptBytes, 26.0);
        QCOMPARE(r.fullBytes, 32.0);
        // bits from the ratio: r 0.5 -> 4 bits; r 0 -> untouched.
        QCOMPARE(run(QStringLiteral("quantized:group=4"), f, 0.5).details.value("bits").toInt(), 4);
        QCOMPARE(*run(QStringLiteral("quantized:group=4"), f, 0.0).keyError, 0.0);
    }

    void think()
    {
        // window 1, query [0.1, 1, 1, 10] -> mean q² [0.01, 1, 1, 100]; keys [1, 0.2, 2, 0.5]
        // -> mean k² [1, 0.04, 4, 0.25]; channel scores 0.01, 0.04, 4, 25. r 0.5 prunes
        // int(4 * 0.5) = 2 channels: 0 and 1 (by keys alone it would be 1 and 3).
        PressFixture f(1, 1, 1, 2, 4, 1);
        f.setKeys(0, 0, {{1, 0.2f, 2, 0.5f}, {1, 0.2f, 2, 0.5f}});
        f.cache.layers[0].windowQueries[0][0] = torch::tensor({0.1f, 1.0f, 1.0f, 10.0f});
        const CompressionResult r = run(QStringLiteral("think:window=1"), f, 0.5);
        QVERIFY(r.kept.all().item<bool>());
        QVERIFY(
            r.rewritten->layers[0].keys[0][1].allclose(torch::tensor({0.0f, 0.0f, 2.0f, 0.5f})));
        QCOMPARE(r.keptBytes, r.fullBytes * 0.75);
    }

    void finch()
    {
        // Window 2 = the question after the delimiter: the 'request' span starts at 4 of
        // T 6. Window queries [1,0] (row 0, position 4) and [-1,0] (row 1, position 5);
        // keys [x, 0], x = 1, 3, -3, 1.5, 0, 0, scaled by 1/√2. Row 0 sees keys 0-4, row 1
        // keys 0-5. Normalised score_j = (4 a0_j + 5 a1_j) / 2: key 2 (read by row 1)
        // ≈ 1.862 > key 1 ≈ 1.187 > 3 > 0. r 0.5 keeps 3: the window and key 2.
        PressFixture f(1, 1, 1, 6, 2, 2);
        f.setKeys(0, 0, {{1, 0}, {3, 0}, {-3, 0}, {1.5, 0}, {0, 0}, {0, 0}});
        f.cache.layers[0].windowQueries[0][0][0] = 1.0;
        f.cache.layers[0].windowQueries[0][1][0] = -1.0;
        f.input.spans = {{4, 6, QStringLiteral("request")}};
        const CompressionResult r = run(QStringLiteral("finch"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 4, 5}));
        const double s = 1 / std::sqrt(2.0);
        const double xs[] = {1, 3, -3, 1.5, 0, 0};
        double z0 = 0, z1 = 0;
        for (int j = 0; j < 6; ++j) {
            if (j < 5)
                z0 += std::exp(xs[j] * s);
            z1 += std::exp(-xs[j] * s);
        }
        const auto a0 = [&](int j) { return std::exp(xs[j] * s) / z0; };
        const auto a1 = [&](int j) { return std::exp(-xs[j] * s) / z1; };
        for (int j = 0; j < 4; ++j)
            QVERIFY(std::abs(r.scores[0][0][j].item<double>() - (4 * a0(j) + 5 * a1(j)) / 2) <
                    1e-6);
        // The window gets the layer's max + 1.
        QVERIFY(std::abs(r.scores[0][0][4].item<double>() - ((4 * a0(2) + 5 * a1(2)) / 2 + 1)) <
                1e-5);
        // Without normalisation: the plain mean over the window.
        const CompressionResult plain = run(QStringLiteral("finch:normalize_scores=false"), f, 0.5);
        QVERIFY(std::abs(plain.scores[0][0][1].item<double>() - (a0(1) + a1(1)) / 2) < 1e-6);
        // A window given explicitly is the same press without the span; neither is an error.
        f.input.spans.clear();
        QVERIFY(run(QStringLiteral("finch:window=2"), f, 0.5).kept.equal(r.kept));
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("finch"), f, 0.5));
    }

    void simLayerKv()
    {
        // T 8, n_initial 1, n_recent 3, n_last 1: the last query (position 7, [1,0]) reads
        // all 8 keys. Layer 0: key 0 = [4,0] -> e = e^(4/√2) ≈ 16.9 of Z = e + 7: mass on
        // key 0 + keys 5-7 = (e + 3)/Z ≈ 0.83 > 0.5: lazy, keeps {0} and the last
        // n_recent - n_last = 2: {0, 6, 7}. Layer 1: key 3 = [4,0]: mass 4/Z ≈ 0.17: all kept.
        PressFixture f(2, 1, 1, 8, 2, 1);
        f.setKeys(0, 0, {{4, 0}});
        f.setKeys(1, 0, {{0, 0}, {0, 0}, {0, 0}, {4, 0}});
        for (int l = 0; l < 2; ++l)
            f.cache.layers[size_t(l)].windowQueries[0][0][0] = 1.0;
        const QString spec =
            QStringLiteral("simlayerkv:lazy_threshold=0.5,n_last=1,n_recent=3,n_initial=1");
        const CompressionResult r = run(spec, f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 6, 7}));
        QCOMPARE(keptAt(r.kept, 1, 0), (Ints{0, 1, 2, 3, 4, 5, 6, 7}));
        const double e = std::exp(4 / std::sqrt(2.0));
        QVERIFY(std::abs(r.scores[0][0][0].item<double>() - (e + 3) / (e + 7)) < 1e-5);
        QCOMPARE(r.details.value(QStringLiteral("lazy_layers")).toArray().size(), 1);
        // Threshold 0.9 above both masses: nothing lazy. r 0 keeps all. A context shorter
        // than n_initial + n_recent is left whole.
        QVERIFY(run(QStringLiteral("simlayerkv:lazy_threshold=0.9,n_recent=3,n_initial=1"), f, 0.5)
                    .kept.all()
                    .item<bool>());
        QVERIFY(run(spec, f, 0.0).kept.all().item<bool>());
        QVERIFY(run(QStringLiteral("simlayerkv:lazy_threshold=0.5,n_recent=8,n_initial=1"), f, 0.5)
                    .kept.all()
                    .item<bool>());
    }

    void nonCausalAttention()
    {
        // T 5, chunk 2: chunks {0,1}, {2,3}, {4 + padding}. Zero queries attend uniformly
        // inside their chunk, so every key receives exactly 1 (key 4: its one query, the
        // padded key masked; unmasked it would get 1/2). x ||v|| with norms 1, 2, 3, 4, 10:
        // 1, 2, 3, 4, 10; avg-pool 3 (zero padding counted): 1, 2, 3, 17/3, 14/3.
        // z-scores over those (mean 49/15, unbiased std). r 0.6 keeps 2: {3, 4} (with the
        // padded key unmasked, 4 pools to 3 = position 2's 3 and {2, 3} would be kept).
        PressFixture f(1, 1, 1, 5, 2, 5);
        f.setValues(0, 0, {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {10, 0}});
        const CompressionResult r =
            run(QStringLiteral("non_causal_attention:chunk_size=2"), f, 0.6);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{3, 4}));
        const std::vector<double> pooled{1, 2, 3, 17.0 / 3, 14.0 / 3};
        double mean = 0, var = 0;
        for (double p : pooled)
            mean += p / 5;
        for (double p : pooled)
            var += (p - mean) * (p - mean) / 4;
        for (int j = 0; j < 5; ++j)
            QVERIFY(std::abs(r.scores[0][0][j].item<double>() -
                             (pooled[size_t(j)] - mean) / std::sqrt(var)) < 1e-5);
        // It needs every query: a short captured window is an error, not a guess.
        PressFixture g(1, 1, 1, 5, 2, 2);
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("non_causal_attention"), g, 0.5));
    }

    void leverage()
    {
        // Pre-RoPE keys [20,0], [-10,0], [-10,0], [0,10], [0,-10] (mean zero): X^T X =
        // diag(600, 200), leverage h = 400/600, 100/600, 100/600, 100/200, 100/200. A
        // Gaussian sketch of rank 2 leaves leverage unchanged (jitter 1e-2 moves it by
        // ~1e-5). z-scores: mean 0.4, unbiased std sqrt(0.05). r 0.75 keeps key 0 alone;
        // r 0.4 keeps 3: {0, 3, 4}. Post-RoPE keys (all zero here) play no part.
        PressFixture f(1, 1, 1, 5, 2, 1);
        const std::vector<std::vector<float>> keys{{20, 0}, {-10, 0}, {-10, 0}, {0, 10}, {0, -10}};
        for (size_t t = 0; t < keys.size(); ++t)
            for (size_t c = 0; c < 2; ++c)
                f.cache.layers[0].keysPreRope[0][int64_t(t)][int64_t(c)] = keys[t][c];
        const CompressionResult r = run(QStringLiteral("leverage"), f, 0.75);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0}));
        QCOMPARE(keptAt(run(QStringLiteral("leverage"), f, 0.4).kept, 0, 0), (Ints{0, 3, 4}));
        const double h[] = {2.0 / 3, 1.0 / 6, 1.0 / 6, 0.5, 0.5};
        for (int j = 0; j < 5; ++j)
            QVERIFY2(std::abs(r.scores[0][0][j].item<double>() - (h[j] - 0.4) / std::sqrt(0.05)) <
                         1e-3,
                     qPrintable(QString::number(r.scores[0][0][j].item<double>())));
        // Another sketch seed, the same leverage.
        QVERIFY(
            run(QStringLiteral("leverage:seed=9"), f, 0.75).scores.allclose(r.scores, 1e-3, 1e-3));
    }

    void compactor()
    {
        // T 7 with sink_size_start 1 and sink_size_end 1: positions 1-5 hold the leverage
        // case (pre-RoPE keys) and the non-causal case (value norms 1, 2, 3, 4, 10, zero
        // queries and keys, chunk 2), each z-scored over those 5:
        // z_lev ≈ 1.193, -1.043, -1.043, 0.447, 0.447; z_nc ≈ -1.189, -0.665, -0.140,
        // 1.259, 0.734. r 0.5 keeps int(3.5) = 3: the 2 protected + the best of
        // 0.5 z_lev + z_nc ≈ -0.593, -1.186, -0.661, 1.483, 0.958: position 4.
        // blending 5: 4.77, -5.88, -5.36, 3.49, 2.97: position 1.
        PressFixture f(1, 1, 1, 7, 2, 7);
        const std::vector<std::vector<float>> keys{{20, 0}, {-10, 0}, {-10, 0}, {0, 10}, {0, -10}};
        for (size_t t = 0; t < keys.size(); ++t)
            for (size_t c = 0; c < 2; ++c)
                f.cache.layers[0].keysPreRope[0][int64_t(t + 1)][int64_t(c)] = keys[t][c];
        f.setValues(0, 0, {{1, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {10, 0}, {1, 0}});
        const QString base =
            QStringLiteral("compactor:sink_size_start=1,sink_size_end=1,chunk_size=2");
        const CompressionResult r = run(base, f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 4, 6}));
        QCOMPARE(keptAt(run(base + QStringLiteral(",blending=5"), f, 0.5).kept, 0, 0),
                 (Ints{0, 1, 6}));
        QVERIFY(std::abs(r.scores[0][0][4].item<double>() - (0.5 * 0.4472 + 1.2591)) < 2e-3);
        QVERIFY(std::abs(r.scores[0][0][0].item<double>() -
                         (r.scores[0][0][4].item<double>() + 1)) < 1e-5);
        // The default blending is the ratio: the scores change with it.
        QVERIFY(PressCatalog().scorer(PressSpec::parse(base))->usesRatio());
        QVERIFY(!PressCatalog()
                     .scorer(PressSpec::parse(base + QStringLiteral(",blending=0.3")))
                     ->usesRatio());
    }

    void lukv()
    {
        // Budget curve [99, 1 layer, 2 kv-heads], row 49 (r 0.5) = prune 0.23, 0.35 ->
        // ideal keeps 7.7, 6.5 of T 10: round(14.2) = 14 = 7 + 6 + 1 remainder, to head 0
        // (fraction .7 > .5): 8 and 6. Other rows 0.5. KNorm scores; sink 1 and window 1
        // protect 0 and 9 (norm 100). Norms 8..1 at 1-8: head 0 keeps 0, 9 and the 6
        // smallest (3-8); head 1 keeps 0, 9 and 5-8.
        QTemporaryDir dir;
        const QString curve = dir.filePath(QStringLiteral("curve.npy"));
        std::vector<float> values(99 * 2, 0.5f);
        values[49 * 2] = 0.23f;
        values[49 * 2 + 1] = 0.35f;
        writeNpy(curve, "(99, 1, 2)", values);
        PressFixture f(1, 2, 2, 10, 2, 1);
        for (int h = 0; h < 2; ++h)
            f.setKeys(0, h, normRows({100, 8, 7, 6, 5, 4, 3, 2, 1, 100}));
        const QString spec = QStringLiteral("lukv(knorm):curve=%1,sink=1,window=1").arg(curve);
        const CompressionResult r = run(spec, f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{0, 5, 6, 7, 8, 9}));
        QCOMPARE(r.details.value(QStringLiteral("curve_row")).toInt(), 49);
        // r 0.3 reads row 29 (0.5 each): 5 per head. Without a curve (kvpress's uniform
        // fallback) r 0.3 prunes 0.3: 7 per head.
        QCOMPARE(int(run(spec, f, 0.3).kept.sum().item<int64_t>()), 10);
        const CompressionResult u = run(QStringLiteral("lukv(knorm):sink=1,window=1"), f, 0.3);
        // (1 - 0.3f) x 10 = 6.99999988 rounds to 7.0f in float32 (as kvpress computes):
        // 7 per head, the protected 0 and 9 and norms 5..1 (4-8).
        QCOMPARE(keptAt(u.kept, 0, 0), (Ints{0, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(keptAt(u.kept, 0, 1), (Ints{0, 4, 5, 6, 7, 8, 9}));
        // A curve for another shape names the file.
        const QString wrong = dir.filePath(QStringLiteral("wrong.npy"));
        writeNpy(wrong, "(99, 2, 2)", std::vector<float>(99 * 4, 0.5f));
        try {
            run(QStringLiteral("lukv(knorm):curve=%1").arg(wrong), f, 0.5);
            QFAIL("accepted a curve for 2 layers");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(wrong), qPrintable(e.message()));
        }
    }

    void cap()
    {
        // Zero queries give a zero anchor: every alignment is 0 and w = exp(0) = 1. Then
        // the score is v_i^T A^-1 v_i with A = I + (1 + eps) sum v v^T. n_sink 1, values
        // after the sink [1,0], [2,0], [0,1]: A ≈ diag(6, 2): 1/6, 4/6, 1/2; the sink gets
        // 4/6 + 1. r 0.5 keeps 2: {0, 2}; r 0.25 keeps 3: {0, 2, 3}.
        PressFixture f(1, 1, 1, 4, 2, 4);
        f.setValues(0, 0, {{5, 5}, {1, 0}, {2, 0}, {0, 1}});
        const QString spec = QStringLiteral("cap:n_sink=1");
        const CompressionResult r = run(spec, f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 2}));
        QCOMPARE(keptAt(run(spec, f, 0.25).kept, 0, 0), (Ints{0, 2, 3}));
        const double a0 = 1 + 5 * (1 + 1e-6), a1 = 1 + (1 + 1e-6);
        QVERIFY(std::abs(r.scores[0][0][1].item<double>() - 1 / a0) < 1e-5);
        QVERIFY(std::abs(r.scores[0][0][2].item<double>() - 4 / a0) < 1e-5);
        QVERIFY(std::abs(r.scores[0][0][3].item<double>() - 1 / a1) < 1e-5);
        QVERIFY(std::abs(r.scores[0][0][0].item<double>() - (4 / a0 + 1)) < 1e-5);
    }

    void duoAttention()
    {
        // q_len 2, kv-heads 0 and 1 (one query head each). Head 0: zero mean query and key:
        // the last query splits 1/2, 1/2, area under the cumsum (1/2 + 1)/2 = 0.75. Head 1:
        // mean query = mean key = [2, 0]: at position 1 the query and key 1 are both
        // rotated by 1 rad (logit 4/√2), key 0 is not (4 cos 1/√2): a0 = 1/(1 +
        // e^((4 - 4 cos 1)/√2)), area (a0 + 1)/2 < 0.75. r 0.5 makes round(0.5 x 2) = 1
        // streaming head, the lower: head 1, which keeps sink 1 + recent 2 = {0, 4, 5}.
        PressFixture f(1, 2, 2, 6, 2, 6);
        for (int t = 0; t < 6; ++t) {
            f.cache.layers[0].keysPreRope[1][t][0] = 2.0;
            f.cache.layers[0].windowQueriesPreRope[1][t][0] = 2.0;
        }
        f.input.rope = nullptr;
        const QString spec = QStringLiteral("duo_attention:sink_size=1,recent_size=2,q_len=2");
        const CompressionResult r = run(spec, f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1, 2, 3, 4, 5}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{0, 4, 5}));
        const QJsonArray scores = r.details.value(QStringLiteral("head_scores")).toArray();
        const double a0 = 1 / (1 + std::exp((4 - 4 * std::cos(1.0)) / std::sqrt(2.0)));
        QVERIFY(std::abs(scores[0].toDouble() - 0.75) < 1e-6);
        QVERIFY(std::abs(scores[1].toDouble() - (a0 + 1) / 2) < 1e-5);
        // r 0 streams no head; r 0.9 rounds to 2: both.
        QVERIFY(run(spec, f, 0.0).kept.all().item<bool>());
        QCOMPARE(keptAt(run(spec, f, 0.9).kept, 0, 0), (Ints{0, 4, 5}));
    }

    void merging()
    {
        // KNorm keeps the 2 smallest keys of [1,0], [0,2], [3,0], [1,4]: 0 and 1. Evicted
        // 2 is most similar to 0 (cos 1): weight 1 x |v2| / (|v2| + |v0|) = 3/4; evicted 3
        // to 1 (cos 4/√17): weight 4/√17 x 2/3. v0 = ([1,0] + 0.75 [0,3]) / 1.75,
        // v1 = ([0,1] + w [2,0]) / (1 + w); keys and evicted values unchanged.
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setKeys(0, 0, {{1, 0}, {0, 2}, {3, 0}, {1, 4}});
        f.setValues(0, 0, {{1, 0}, {0, 1}, {0, 3}, {2, 0}});
        const CompressionResult r = run(QStringLiteral("merging(knorm)"), f, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1}));
        const at::Tensor v = r.rewritten->layers[0].values[0];
        QVERIFY(v[0].allclose(torch::tensor({1.0f / 1.75f, 2.25f / 1.75f}), 1e-5, 1e-5));
        const float w = float(4 / std::sqrt(17.0) * 2 / 3);
        QVERIFY(v[1].allclose(torch::tensor({2 * w / (1 + w), 1 / (1 + w)}), 1e-5, 1e-5));
        QVERIFY(v[2].equal(torch::tensor({0.0f, 3.0f})));
        QVERIFY(r.rewritten->layers[0].keys.equal(f.cache.layers[0].keys));
        // merge_fraction 0.5: the quantile of the similarities (1, 0.970) at 0.5 is 0.985:
        // only 2 merges, v1 stays. similarity_threshold 0.99 does the same.
        for (const char* spec :
             {"merging(knorm):merge_fraction=0.5", "merging(knorm):similarity_threshold=0.99"}) {
            const at::Tensor g =
                run(QString::fromLatin1(spec), f, 0.5).rewritten->layers[0].values[0];
            QVERIFY2(g[1].equal(torch::tensor({0.0f, 1.0f})), spec);
            QVERIFY2(g[0].allclose(v[0]), spec);
        }
    }

    void dms()
    {
        // KNorm scores -1, -3, -2, -5; threshold -2.5 evicts what lies outside the last
        // sliding_window_size = 1 and below it: position 1 (3, in the window, stays).
        PressFixture f(1, 1, 1, 4, 2, 1);
        f.setKeys(0, 0, normRows({1, 3, 2, 5}));
        const QString spec = QStringLiteral("dms(knorm):threshold=-2.5,sliding_window_size=1");
        QCOMPARE(keptAt(run(spec, f, 0.5).kept, 0, 0), (Ints{0, 2, 3}));
        QVERIFY(run(spec, f, 0.0).kept.all().item<bool>());
    }

    void kvzap()
    {
        // An MLP KVzap model, 1 layer: hidden 4 -> 1 (weight [1,0,0,0]) -> GELU -> x2 -> 1
        // kv-head. Attention inputs' first channel 1, -1, 0.5, 3: scores 2 GELU(x) =
        // 1.683, -0.317, 0.691, 5.992; r 0.5 keeps {0, 3}.
        QTemporaryDir dir;
        QFile config(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "kvzap", "input_dim": 4, "output_dim": 1,
                        "hidden_dim": 1, "n_modules": 1})");
        config.close();
        SafetensorsWriter w;
        const float w1[] = {1, 0, 0, 0}, b1[] = {0}, w2[] = {2}, b2[] = {0};
        w.addF32(QStringLiteral("module_list.0.0.weight"), {1, 4}, w1);
        w.addF32(QStringLiteral("module_list.0.0.bias"), {1}, b1);
        w.addF32(QStringLiteral("module_list.0.2.weight"), {1, 1}, w2);
        w.addF32(QStringLiteral("module_list.0.2.bias"), {1}, b2);
        w.write(dir.filePath(QStringLiteral("model.safetensors")));
        PressFixture f(1, 1, 2, 4, 2, 1);
        f.cache.layers[0].attentionInputs = torch::zeros({4, 4});
        const float x[] = {1, -1, 0.5f, 3};
        for (int t = 0; t < 4; ++t)
            f.cache.layers[0].attentionInputs[t][0] = x[t];
        const auto press = PressCatalog().press(QStringLiteral("kvzap:dir=%1").arg(dir.path()));
        QVERIFY(press->needsAttentionInputs());
        f.bind();
        const CompressionResult r = press->compress(f.input, 0.5);
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 3}));
        const auto gelu = [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); };
        for (int t = 0; t < 4; ++t)
            QVERIFY(std::abs(r.scores[0][0][t].item<double>() - 2 * gelu(x[t])) < 1e-5);
        // Without the attention inputs, or for another model shape, it says so.
        f.cache.layers[0].attentionInputs = at::Tensor();
        QVERIFY_THROWS_EXCEPTION(Error, press->compress(f.input, 0.5));
        PressFixture g(2, 1, 2, 4, 2, 1);
        g.bind();
        QVERIFY_THROWS_EXCEPTION(Error, press->compress(g.input, 0.5));
        QVERIFY_THROWS_EXCEPTION(Error,
                                 PressCatalog().press(QStringLiteral("kvzap:dir=/nonexistent")));
    }

    void kvzip()
    {
        // One kv-head, two query heads, head_dim 4, T 6, prefix 1, n_sink 1, chunk 3: chunks
        // A = 1..3 and B = 4..5 are re-read, each after sink key 0. Zero q/k weights with q
        // biases [0,2,0,0] (head 0) and [0,0,0,2] (head 1): every re-read query is that
        // (RoPE theta 1e12 leaves dims 1 and 3 unrotated), every re-read key 0. Cached key
        // j = [0, ln u_j, 0, ln v_j]: head 0 weighs it u_j, head 1 v_j, each re-read key 1;
        // the first re-read row sees one of them, so it attends most: share = w_j / (sink +
        // chunk + 1). Layer 0 u = 1,1,2,4,6,8 v = 1,6,4,.5,8,1: A head 0 /9, head 1 /12.5:
        // max .48 .32 .444; B head 0 /16, head 1 /11: .727 .5. Layer 1 u = 1,6,6,2,.5,3
        // v = 1,4,8,3,2,3: A /16 and /17: .375 .4706 .1765; B /5.5 and /7: .2857 .5455.
        // Position 0 scores 1. r 0.5, N 12: threshold = 6th smallest (.375) -> layer 0
        // drops 2 (.32 .444), layer 1 drops 4: kept {0,1,4,5} and {0,5}. Layerwise drops 3
        // per layer: {0,4,5} and {0,2,5}. Softmax over the whole cache, or a group mean
        // instead of the max, keeps other sets.
        PressFixture f(2, 1, 2, 6, 4, 1);
        const double u[2][6] = {{1, 1, 2, 4, 6, 8}, {1, 6, 6, 2, 0.5, 3}};
        const double v[2][6] = {{1, 6, 4, 0.5, 8, 1}, {1, 4, 8, 3, 2, 3}};
        for (int l = 0; l < 2; ++l) {
            std::vector<std::vector<float>> keys;
            for (int j = 0; j < 6; ++j)
                keys.push_back({0.0f, float(std::log(u[l][j])), 0.0f, float(std::log(v[l][j]))});
            f.setKeys(l, 0, keys);
        }
        const RepeatPrompts prompts{{7}, {8}, {9}, 1};
        RereadPass pass(f, {1, 2, 3, 4, 5, 6}, QStringLiteral("kvzip"), &prompts);
        const QString spec = QStringLiteral("kvzip:n_sink=1,chunk_size=3");
        // Without the model the press says what it needs.
        try {
            run(spec, f, 0.5);
            QFAIL("scored without the model");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("re-reads")), qPrintable(e.message()));
        }
        const CompressionResult r = pass.compress(spec, 0.5);
        const at::Tensor expected =
            torch::tensor({{1.0, 0.48, 0.32, 4.0 / 9, 8.0 / 11, 0.5},
                           {1.0, 0.375, 8.0 / 17, 3.0 / 17, 2.0 / 7, 6.0 / 11}},
                          torch::kFloat);
        QVERIFY(r.scores.select(1, 0).allclose(expected, 1e-4, 1e-5));
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{0, 1, 4, 5}));
        QCOMPARE(keptAt(r.kept, 1, 0), (Ints{0, 5}));
        const CompressionResult layerwise =
            pass.compress(spec + QStringLiteral(",layerwise=true"), 0.5);
        QCOMPARE(keptAt(layerwise.kept, 0, 0), (Ints{0, 4, 5}));
        QCOMPARE(keptAt(layerwise.kept, 1, 0), (Ints{0, 2, 5}));
        QVERIFY(pass.compress(spec, 0.0).kept.all().item<bool>());
    }

    void kvCompose()
    {
        // Two kv-heads, one query head each, head_dim 4, T 4. As in kvzip(): zero q/k
        // weights, q biases [0,2,0,0] and [0,0,0,2], cached keys [0, ln u_j, 0, 0] (kv-head
        // 0) and [0, 0, 0, ln v_j] (kv-head 1), so head 0 weighs entry j u_j, head 1 v_j,
        // every re-read key 1. The context itself is re-read; row 0 sees one own key, so
        // its share w_j / (W + 1) is the max over rows. Layer 0 u = 3,1,4,8 (/17), v =
        // 2,4,4,8 (/19); layer 1 u = 4,4,6,3 (/18), v = 8,6,2,6 (/23). Plus the layer's
        // mean over the two heads: layer 0 .3173 .1935 .4582 .9164 | .2461 .3452 .4334
        // .8669; layer 1 .5072 .4638 .5435 .3804 | .6329 .5024 .2971 .4746. Sorted curves
        // averaged per layer: .8917 .4458 .3313 .2198 and .5882 .5048 .4692 .3388; layer 0
        // lifted to the max: .8917 .5048 .4692 .3388. r 0.5 gives int(8 x 0.5) = 4 slots:
        // .8917, .5882, .5048 twice: 2 per layer. Kept {2,3} {2,3} | {0,2} {0,1}. Without
        // the lift layer 0 would get 1. Unstructured: 8 of the 16 per-head curve values:
        // 1, 1, 3, 3 per head: {3} {3} | {0,1,2} {0,1,3}.
        PressFixture f(2, 2, 2, 4, 4, 1);
        const double u[2][4] = {{3, 1, 4, 8}, {4, 4, 6, 3}};
        const double v[2][4] = {{2, 4, 4, 8}, {8, 6, 2, 6}};
        for (int l = 0; l < 2; ++l) {
            std::vector<std::vector<float>> k0, k1;
            for (int j = 0; j < 4; ++j) {
                k0.push_back({0.0f, float(std::log(u[l][j])), 0.0f, 0.0f});
                k1.push_back({0.0f, 0.0f, 0.0f, float(std::log(v[l][j]))});
            }
            f.setKeys(l, 0, k0);
            f.setKeys(l, 1, k1);
        }
        RereadPass pass(f, {1, 2, 3, 4}, QStringLiteral("kvcompose"));
        QVERIFY_THROWS_EXCEPTION(Error, run(QStringLiteral("kvcompose"), f, 0.5));
        const CompressionResult r = pass.compress(QStringLiteral("kvcompose"), 0.5);
        const at::Tensor expected =
            torch::tensor({{{.3173, .1935, .4582, .9164}, {.2461, .3452, .4334, .8669}},
                           {{.5072, .4638, .5435, .3804}, {.6329, .5024, .2971, .4746}}},
                          torch::kFloat);
        QVERIFY(r.scores.allclose(expected, 0, 1e-4));
        QCOMPARE(keptAt(r.kept, 0, 0), (Ints{2, 3}));
        QCOMPARE(keptAt(r.kept, 0, 1), (Ints{2, 3}));
        QCOMPARE(keptAt(r.kept, 1, 0), (Ints{0, 2}));
        QCOMPARE(keptAt(r.kept, 1, 1), (Ints{0, 1}));
        const CompressionResult perHead =
            pass.compress(QStringLiteral("kvcompose:structured=false"), 0.5);
        QCOMPARE(keptAt(perHead.kept, 0, 0), (Ints{3}));
        QCOMPARE(keptAt(perHead.kept, 0, 1), (Ints{3}));
        QCOMPARE(keptAt(perHead.kept, 1, 0), (Ints{0, 1, 2}));
        QCOMPARE(keptAt(perHead.kept, 1, 1), (Ints{0, 1, 3}));
        QVERIFY(pass.compress(QStringLiteral("kvcompose"), 0.0).kept.all().item<bool>());
    }

    void unavailablePressesSayWhy()
    {
        const PressCatalog catalog;
        const std::vector<const char*> unavailable{"restorekv", "dms_trained"};
        for (const char* name : unavailable) {
            const PressEntry* e = catalog.find(QString::fromLatin1(name));
            QVERIFY2(e && !e->unavailable.isEmpty(), name);
            try {
                catalog.press(QString::fromLatin1(name));
                QFAIL("built an unavailable press");
            } catch (const Error& err) {
                QVERIFY2(err.message().contains(QLatin1String("not available")),
                         qPrintable(err.message()));
            }
            for (const QString& spec : catalog.exampleSpecs())
                QVERIFY(!spec.startsWith(QString::fromLatin1(name) + u':') &&
                        spec != QString::fromLatin1(name));
        }
        int available = 0, listed = 0;
        for (const QJsonValue& v : catalog.toJson()) {
            ++listed;
            available += v.toObject().value(QStringLiteral("available")).toBool() ? 1 : 0;
        }
        QCOMPARE(listed, int(catalog.entries().size()));
        QCOMPARE(listed - available, int(unavailable.size()));
    }
};

QTEST_GUILESS_MAIN(TestPressRules)
#include "tst_pressrules.moc"
