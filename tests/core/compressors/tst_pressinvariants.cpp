// Invariants every press keeps, swept over the whole catalog x ratios on a random
// cache: the budget (per head, per layer for head-wise allocation, whole chunks for
// ChunkKV, the product rule for ComposedPress), r = 0 keeps everything, bad ratios are
// rejected, protected spans survive whitelisting, fair eviction evicts every span at r.
#include "pressfixture.h"

#include "cache/repeatprompts.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "model/transformer.h"

#include <QtTest>
#include <cmath>
#include <map>

using namespace kvl;
using namespace kvl::test;

namespace {

constexpr int kLayers = 3, kKv = 2, kHeads = 4, kLength = 300, kDim = 8;

PressFixture& fixture()
{
    static PressFixture f = [] {
        PressFixture g(kLayers, kKv, kHeads, kLength, kDim, kLength);
        g.randomize(7);
        return g;
    }();
    // A random model of the cache's shape, for the presses that re-read the context
    // (KVzip): it runs over the random cache as if that were its prefill.
    static const Transformer model = [] {
        ModelConfig c = f.config;
        c.vocabSize = 50;
        c.intermediateSize = 48;
        return Transformer(c, randomModelWeights(c, 9, 0.3), QStringLiteral("invariants"));
    }();
    static const std::vector<int> ids = [] {
        std::vector<int> v;
        for (int i = 0; i < kLength; ++i)
            v.push_back((7 * i + 3) % 50);
        return v;
    }();
    static const RepeatPrompts prompts{{11, 12, 13}, {14, 15}, {16}, 0};
    f.bind();
    f.input.model = &model;
    f.input.contextIds = &ids;
    f.input.repeatPrompts = &prompts;
    return f;
}

// How a press spends its budget (hand-written per catalog entry).
QString budgetKind(const QString& spec)
{
    if (spec.startsWith(QLatin1String("adakv")))
        return QStringLiteral("layer");
    if (spec.startsWith(QLatin1String("chunkkv")))
        return QStringLiteral("chunk");
    if (spec.startsWith(QLatin1String("composed")))
        return QStringLiteral("composed");
    if (spec.startsWith(QLatin1String("quantized")) || spec.startsWith(QLatin1String("hqq")) ||
        spec.startsWith(QLatin1String("think")))
        return QStringLiteral("all");
    // Offloading keeps every entry; the budget applies per decoding step (tst_offloadrules).
    if (spec.startsWith(QLatin1String("shadowkv")) || spec.startsWith(QLatin1String("quest")) ||
        spec.startsWith(QLatin1String("yakv")))
        return QStringLiteral("all");
    if (spec.startsWith(QLatin1String("pyramidkv")))
        return QStringLiteral("pyramid");
    if (spec.startsWith(QLatin1String("kvzip")))
        return QStringLiteral("global");
    if (spec.startsWith(QLatin1String("kvcompose")))
        return QStringLiteral("compose");
    if (spec.startsWith(QLatin1String("lukv")))
        return QStringLiteral("lukv");
    // Their defaults need longer contexts than T 300 (n_initial + n_recent 1028, sink +
    // recent 384): kvpress leaves such contexts whole.
    if (spec.startsWith(QLatin1String("simlayerkv")) || spec.startsWith(QLatin1String("duo")))
        return QStringLiteral("whole");
    // Decode-time presses leave the prefill whole (kvpress's pipeline); prefill_decoding's
    // prefill is its first press's (snapkv here: the head budget).
    if (spec.startsWith(QLatin1String("decoding")) ||
        spec.startsWith(QLatin1String("compression_ratio_decoding")) ||
        spec.startsWith(QLatin1String("cam")))
        return QStringLiteral("whole");
    if (spec.startsWith(QLatin1String("dms")))
        return QStringLiteral("dms");
    return QStringLiteral("head");
}

int64_t pyInt(double x)
{
    return int64_t(x);
}

} // namespace

class TestPressInvariants : public QObject
{
    Q_OBJECT

  private:
    void specsAndRatios()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("ratio");
        for (const QString& spec : PressCatalog().exampleSpecs())
            for (double r : {0.0, 0.25, 0.5, 0.75, 0.9})
                QTest::newRow(qPrintable(QStringLiteral("%1 r=%2").arg(spec).arg(r))) << spec << r;
    }

  private slots:
    void budget_data() { specsAndRatios(); }
    void budget()
    {
        QFETCH(QString, spec);
        QFETCH(double, ratio);
        PressFixture& f = fixture();
        const CompressionResult r = PressCatalog().press(spec)->compress(f.input, ratio);
        QCOMPARE(r.kept.sizes().vec(), (std::vector<int64_t>{kLayers, kKv, kLength}));
        QCOMPARE(r.kept.scalar_type(), at::kBool);
        if (r.scores.defined())
            QCOMPARE(r.scores.sizes().vec(), r.kept.sizes().vec());
        const at::Tensor perHead = r.kept.sum(-1);
        const int64_t n = pyInt(kLength * (1.0 - ratio));
        const QString kind = budgetKind(spec);
        if (ratio == 0.0) {
            QVERIFY2(r.kept.all().item<bool>(), "r = 0 keeps everything");
        } else if (kind == QLatin1String("head")) {
            QCOMPARE(perHead.min().item<int64_t>(), n);
            QCOMPARE(perHead.max().item<int64_t>(), n);
        } else if (kind == QLatin1String("pyramid")) {
            // kvpress get_layer_budget, T 300, window 64, beta 20, 3 layers. r 0.25: max
            // 450 - 11.25 clamped to 300 - 64 = 236, min 450 - 236 = 214, steps 11. r 0.5:
            // max 236, min 300 - 236 = 64, steps 86. r 0.75, 0.9: max 2T(1-r) - T(1-r)/20 < 236
            // (no clamp) and min T(1-r)/20 < 64 -> every layer round(T(1-r)).
            const std::map<double, std::vector<int64_t>> layers{{0.25, {236, 225, 214}},
                                                                {0.5, {236, 150, 64}},
                                                                {0.75, {75, 75, 75}},
                                                                {0.9, {30, 30, 30}}};
            for (int l = 0; l < kLayers; ++l) {
                QCOMPARE(perHead[l].min().item<int64_t>(), layers.at(ratio)[size_t(l)]);
                QCOMPARE(perHead[l].max().item<int64_t>(), layers.at(ratio)[size_t(l)]);
            }
        } else if (kind == QLatin1String("global")) {
            // KVzip: one threshold over every layer's scores, the max(int(N r) - 1, 0)-th
            // smallest, drops max(int(N r), 1) entries in all (random scores do not tie
            // below the sinks' 1), however they fall across layers and heads.
            const int64_t all = int64_t(kLayers) * kKv * kLength;
            QCOMPARE(r.kept.sum().item<int64_t>(),
                     all - std::max<int64_t>(pyInt(double(all) * ratio), 1));
        } else if (kind == QLatin1String("compose")) {
            // KVCompose (structured): every head of a layer keeps the same count; the
            // layers share max(1, int(L T (1 - r))) composite slots, a layer with none
            // keeping 1.
            const at::Tensor perLayer = perHead.select(1, 0);
            QVERIFY(perHead.eq(perLayer.unsqueeze(1)).all().item<bool>());
            const int64_t places = pyInt(double(kLayers * kLength) * (1.0 - ratio));
            const int64_t total = perLayer.sum().item<int64_t>();
            QVERIFY2(total >= places && total < places + kLayers,
                     qPrintable(QString::number(total)));
        } else if (kind == QLatin1String("lukv")) {
            // Uniform curve (no file): row round(100 r) - 1 prunes (row + 1) / 100 in
            // float32, per head floor((1 - p) T) plus the rounding remainder: r 0.9 keeps
            // 30 (1 - 0.9f = 0.100000024), where int(T(1 - r)) would give 29.
            const std::map<double, int64_t> kept{{0.25, 225}, {0.5, 150}, {0.75, 75}, {0.9, 30}};
            QCOMPARE(perHead.min().item<int64_t>(), kept.at(ratio));
            QCOMPARE(perHead.max().item<int64_t>(), kept.at(ratio));
        } else if (kind == QLatin1String("whole")) {
            QVERIFY(r.kept.all().item<bool>());
        } else if (kind == QLatin1String("dms")) {
            // KNorm scores are all below the default threshold 0: everything outside the
            // sliding window of 128 goes.
            QCOMPARE(perHead.min().item<int64_t>(), 128);
            QCOMPARE(perHead.max().item<int64_t>(), 128);
            QVERIFY(r.kept.narrow(2, kLength - 128, 128).all().item<bool>());
        } else if (kind == QLatin1String("layer")) {
            const at::Tensor perLayer = r.kept.sum({1, 2});
            QCOMPARE(perLayer.min().item<int64_t>(), kKv * n);
            QCOMPARE(perLayer.max().item<int64_t>(), kKv * n);
        } else if (kind == QLatin1String("chunk")) {
            // 300 / 20 = 15 whole chunks: max(1, int(15(1-r))) of them, same in every head.
            const int64_t chunks = std::max<int64_t>(1, pyInt(15 * (1.0 - ratio)));
            QCOMPARE(perHead.min().item<int64_t>(), chunks * 20);
            QCOMPARE(perHead.max().item<int64_t>(), chunks * 20);
            QVERIFY(r.kept.eq(r.kept.select(1, 0).unsqueeze(1)).all().item<bool>());
            const at::Tensor byChunk = r.kept.reshape({kLayers, kKv, 15, 20}).sum(-1);
            QVERIFY((byChunk.eq(0) | byChunk.eq(20)).all().item<bool>());
        } else if (kind == QLatin1String("composed")) {
            // Two stages at r_i = 1 - sqrt(1 - r): int(int(T(1 - r_i))(1 - r_i)).
            const double ri = 1.0 - std::pow(1.0 - ratio, 0.5);
            const int64_t expected = pyInt(double(pyInt(kLength * (1.0 - ri))) * (1.0 - ri));
            QCOMPARE(perHead.min().item<int64_t>(), expected);
            QCOMPARE(perHead.max().item<int64_t>(), expected);
        } else {
            QVERIFY(r.kept.all().item<bool>());
            QVERIFY(r.rewritten.has_value());
            QCOMPARE(coverageTypeName(r.coverage),
                     QStringLiteral("structural_position_addressability"));
        }
        QVERIFY(r.keptBytes <= r.fullBytes);
    }

    // A sweep shares one scoring per scorer across the ratios of a sample (ScoreMemo):
    // every press must give the masks it gives without the memo, ratio after ratio.
    void scoreMemoChangesNoMask_data()
    {
        QTest::addColumn<QString>("spec");
        for (const QString& spec : PressCatalog().exampleSpecs())
            QTest::newRow(qPrintable(spec)) << spec;
        QTest::newRow("criticalkv(snapkv)") << QStringLiteral("criticalkv(snapkv)");
        QTest::newRow("whitelist(criticalkv)") << QStringLiteral("whitelist(criticalkv(knorm))");
    }
    void scoreMemoChangesNoMask()
    {
        QFETCH(QString, spec);
        PressFixture& f = fixture();
        const auto press = PressCatalog().press(spec);
        ScoreMemo memo;
        CompressionInput shared = f.input;
        shared.scoreMemo = &memo;
        for (double ratio : {0.25, 0.5, 0.75}) {
            const CompressionResult plain = press->compress(f.input, ratio);
            const CompressionResult memoized = press->compress(shared, ratio);
            QVERIFY2(plain.kept.equal(memoized.kept), qPrintable(QString::number(ratio)));
        }
    }

    void badRatiosRejected_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("ratio");
        for (const QString& spec : PressCatalog().exampleSpecs())
            for (double r : {-0.1, 1.0, 1.5, double(NAN)})
                QTest::newRow(qPrintable(QStringLiteral("%1 r=%2").arg(spec).arg(r))) << spec << r;
    }
    void badRatiosRejected()
    {
        QFETCH(QString, spec);
        QFETCH(double, ratio);
        try {
            PressCatalog().press(spec)->compress(fixture().input, ratio);
            QFAIL("accepted a ratio outside [0, 1)");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("compression ratio must be in [0, 1)")),
                     qPrintable(e.message()));
        }
    }

    void whitelistKeepsProtected_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("ratio");
        for (const char* inner : {"random", "streamingllm", "knorm", "snapkv", "tova", "observed",
                                  "expected", "keydiff", "lagkv", "cur", "finch:window=64",
                                  "non_causal_attention", "leverage", "compactor", "cap"})
            for (const char* outer : {"whitelist(%1)", "adakv(whitelist(%1))",
                                      "chunkkv(whitelist(%1))", "criticalkv(whitelist(%1))"})
                for (double r : {0.25, 0.5, 0.9}) {
                    const QString spec = QString::fromLatin1(outer).arg(QLatin1String(inner));
                    QTest::newRow(qPrintable(QStringLiteral("%1 r=%2").arg(spec).arg(r)))
                        << spec << r;
                }
    }
    void whitelistKeepsProtected()
    {
        QFETCH(QString, spec);
        QFETCH(double, ratio);
        PressFixture& f = fixture();
        // Early spans, the ones recency-biased presses evict first: 25 + 10 = 35 protected
        // entries. At r 0.9 the budget int(300 * 0.1) = 30 is smaller: the protected ones
        // go beyond it and must still all be there.
        f.input.spans = {{5, 30, QStringLiteral("system_rule")},
                         {100, 110, QStringLiteral("defense")}};
        const CompressionResult r = PressCatalog().press(spec)->compress(f.input, ratio);
        f.input.spans.clear();
        QVERIFY(r.kept.narrow(2, 5, 25).all().item<bool>());
        QVERIFY(r.kept.narrow(2, 100, 10).all().item<bool>());
        if (spec.startsWith(QLatin1String("whitelist"))) {
            const int64_t n = std::max<int64_t>(pyInt(kLength * (1.0 - ratio)), 35);
            QCOMPARE(r.kept.sum(-1).max().item<int64_t>(), n);
            QCOMPARE(r.kept.sum(-1).min().item<int64_t>(), n);
        }
    }

    void fairEvictionRates_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("ratio");
        for (const char* inner : {"random", "streamingllm", "knorm", "snapkv", "tova", "observed",
                                  "expected", "keydiff", "lagkv", "cur", "finch:window=64",
                                  "non_causal_attention", "leverage", "compactor", "cap"})
            for (double r : {0.1, 0.25, 0.5, 0.75, 0.9})
                QTest::newRow(qPrintable(QStringLiteral("fair(%1) r=%2").arg(inner).arg(r)))
                    << QStringLiteral("fair(%1)").arg(QLatin1String(inner)) << r;
    }
    void fairEvictionRates()
    {
        QFETCH(QString, spec);
        QFETCH(double, ratio);
        PressFixture& f = fixture();
        const std::vector<ContextSpan> spans{{0, 17, QStringLiteral("system_rule")},
                                             {40, 77, QStringLiteral("format_rule")},
                                             {200, 203, QStringLiteral("request")}};
        f.input.spans = spans;
        const CompressionResult r = PressCatalog().press(spec)->compress(f.input, ratio);
        f.input.spans.clear();
        // Each span keeps within one entry of L(1 - r), in every head; so does the rest
        // (300 - 57 = 243 tokens); the total is the uniform budget.
        int64_t inSpans = 0;
        for (const ContextSpan& s : spans) {
            const at::Tensor kept = r.kept.narrow(2, s.begin, s.end - s.begin).sum(-1);
            const double exact = double(s.end - s.begin) * (1.0 - ratio);
            QVERIFY2((kept.to(at::kDouble) - exact).abs().max().item<double>() <= 1.0,
                     qPrintable(s.role));
            inSpans += s.end - s.begin;
        }
        const at::Tensor total = r.kept.sum(-1);
        const at::Tensor rest = total - r.kept.narrow(2, 0, 17).sum(-1) -
                                r.kept.narrow(2, 40, 37).sum(-1) - r.kept.narrow(2, 200, 3).sum(-1);
        QVERIFY((rest.to(at::kDouble) - double(kLength - inSpans) * (1.0 - ratio))
                    .abs()
                    .max()
                    .item<double>() <= 1.0);
        QCOMPARE(total.min().item<int64_t>(), pyInt(kLength * (1.0 - ratio)));
        QCOMPARE(total.max().item<int64_t>(), pyInt(kLength * (1.0 - ratio)));
    }

    void specErrorsNameTheProblem()
    {
        const PressCatalog catalog;
        const auto message = [&](const QString& spec) {
            try {
                catalog.press(spec);
            } catch (const Error& e) {
                return e.message();
            }
            return QString();
        };
        QVERIFY(
            message(QStringLiteral("nosuch")).contains(QLatin1String("unknown press 'nosuch'")));
        QVERIFY(message(QStringLiteral("snapkv:windw=3")).contains(QLatin1String("'windw'")));
        QVERIFY(
            message(QStringLiteral("snapkv:window=x")).contains(QLatin1String("not an integer")));
        QVERIFY(message(QStringLiteral("adakv")).contains(QLatin1String("one scorer")));
        QVERIFY(message(QStringLiteral("adakv(chunkkv(knorm))"))
                    .contains(QLatin1String("not a scorer")));
        QVERIFY(message(QStringLiteral("adakv(snapkv")).contains(QLatin1String("expected ')'")));
        // Canonical specs carry every default.
        QCOMPARE(catalog.press(QStringLiteral("adakv(snapkv)"))->spec(),
                 QStringLiteral("adakv(snapkv:window=64,kernel=5):alpha_safeguard=0.2"));
    }
};

QTEST_GUILESS_MAIN(TestPressInvariants)
#include "tst_pressinvariants.moc"
