// The offloading presses' landmark and retrieval rules (issue 19) on hand-built keys, the
// budget layout's invariants, and the presses on a real prefill of a random GQA model.
#include <torch/types.h>

#include "cache/pressprefill.h"
#include "common/error.h"
#include "compressors/npyarray.h"
#include "compressors/offloadindex.h"
#include "compressors/offloadpress.h"
#include "compressors/offloadrules.h"
#include "compressors/presscatalog.h"
#include "model/modelweights.h"
#include "model/rope.h"
#include "model/transformer.h"
#include "pressfixture.h"
#include "tinygqaconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace kvl;
using kvl::test::PressFixture;

namespace {

// keys = RoPE(pre-RoPE keys) at positions 0..T-1, as prefill makes them.
void ropeKeys(PressFixture& f)
{
    const Rope rope(f.config);
    const auto [cos, sin] = rope.cosSin(torch::arange(f.cache.length, torch::kLong));
    for (LayerCache& l : f.cache.layers)
        l.keys = Rope::apply(l.keysPreRope.transpose(0, 1), cos, sin).transpose(0, 1).contiguous();
}

OffloadSettings settingsFor(const QString& spec, const CompressionInput& input)
{
    const auto press = PressCatalog().press(spec);
    const auto* offload = dynamic_cast<const OffloadPress*>(press.get());
    if (!offload)
        throw std::runtime_error("not an offload press");
    return offload->resolvedSettings(input);
}

std::unique_ptr<OffloadIndex> indexFor(const QString& spec, const CompressionInput& input,
                                       double ratio)
{
    const auto press = PressCatalog().press(spec);
    const auto* offload = dynamic_cast<const OffloadPress*>(press.get());
    if (!offload)
        throw std::runtime_error("not an offload press");
    return offload->index(input, ratio);
}

// The always-attended tokens the documented layout gives: local window, then outlier
// chunks worth min(outliers, floor(3/16 budget), budget - local) tokens in whole chunks.
std::pair<int64_t, int64_t> localAndOutliers(const OffloadSettings& s, int64_t budget)
{
    const int64_t local = std::min(s.localWindow, budget);
    const int64_t outliers =
        std::min({s.outliers, int64_t(std::floor(budget * 384.0 / 2048.0)), budget - local});
    return {local, outliers / s.chunk * s.chunk};
}

} // namespace

class TestOffloadRules : public QObject
{
    Q_OBJECT

  private slots:
    // Chunk 0 holds one key aligned with the query among seven opposed ones, so its mean
    // scores below chunk 1's eight mildly aligned keys. A budget of 8 tokens: mean landmarks
    // at chunk 8 take chunk 1 and miss the strong key; per-token landmarks (chunk 1) find
    // it, and so do Quest's page bounds (an upper bound sees the one key).
    void meanHidesOneStrongKey_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("found");
        QTest::newRow("shadowkv chunk 8") << "shadowkv:chunk=8,rank=0,local=0,outliers=0" << false;
        QTest::newRow("shadowkv chunk 1") << "shadowkv:chunk=1,rank=0,local=0,outliers=0" << true;
        QTest::newRow("yakv chunk 1, 2-bit landmarks") << "yakv:local=0" << true;
        QTest::newRow("yakv chunk 8") << "yakv:chunk=8,local=0" << false;
        QTest::newRow("quest page 8") << "quest:page=8,local=0" << true;
    }
    void meanHidesOneStrongKey()
    {
        QFETCH(QString, spec);
        QFETCH(bool, found);
        PressFixture f(1, 1, 1, 24, 4, 1);
        std::vector<std::vector<float>> rows;
        for (int t = 0; t < 24; ++t) {
            if (t < 8)
                rows.push_back(t == 3 ? std::vector<float>{10, 0, 0, 0}
                                      : std::vector<float>{-1.5, 0, 0, 0});
            else if (t < 16)
                rows.push_back({1, 0, 0, 0});
            else
                rows.push_back({0, 1, 0, 0});
        }
        f.setKeys(0, 0, rows);
        const auto index = indexFor(spec + QStringLiteral(",budget=8"), f.input, 0.5);
        QCOMPARE(index->budgetTokens(), int64_t(8));
        const at::Tensor q = torch::tensor({1.0f, 0.0f, 0.0f, 0.0f}).view({1, 1, 4});
        const at::Tensor got = index->select(0, q);
        QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{1, 1, 24}));
        QVERIFY(got.sum().item<int64_t>() <= 8);
        QCOMPARE(got[0][0][3].item<bool>(), found);
        if (!found) // the mean landmark took the mildly aligned chunk instead
            QVERIFY(got[0][0].narrow(0, 8, 8).all().item<bool>());
    }

    // Attention reads low-rank keys with RoPE re-applied: a rank at or above the SVD's width
    // (head dim per kv-head, kv_heads x head dim jointly) gives the exact keys and so the
    // exact attention scores; a joint rank of one head dim over two heads does not.
    void rankAtWidthIsExact_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("exact");
        QTest::newRow("per_head rank = d") << "shadowkv:svd=per_head,rank=8" << true;
        QTest::newRow("per_head rank > d") << "shadowkv:svd=per_head,rank=20" << true;
        QTest::newRow("joint rank = kv x d") << "shadowkv:rank=16" << true;
        QTest::newRow("joint rank = d") << "shadowkv:rank=8" << false;
        QTest::newRow("per_head rank < d") << "shadowkv:svd=per_head,rank=4" << false;
        QTest::newRow("no projection") << "shadowkv:rank=0" << true;
    }
    void rankAtWidthIsExact()
    {
        QFETCH(QString, spec);
        QFETCH(bool, exact);
        PressFixture f(2, 2, 4, 96, 8, 4);
        f.randomize(5);
        ropeKeys(f);
        const auto index = indexFor(spec + QStringLiteral(",local=0,outliers=0"), f.input, 0.5);
        const at::Tensor q = torch::randn({4, 3, 8});
        for (int l = 0; l < 2; ++l) {
            const at::Tensor exactKeys = f.cache.layers[size_t(l)].keys;
            const at::Tensor keys = index->context().layers[size_t(l)].keys;
            const double keyError = (keys - exactKeys).abs().max().item<double>();
            // Attention logits of 4 query heads (2 per kv-head) on every key.
            const at::Tensor k2 = exactKeys.repeat_interleave(2, 0);
            const at::Tensor scoreError =
                (torch::matmul(q, keys.repeat_interleave(2, 0).transpose(1, 2)) -
                 torch::matmul(q, k2.transpose(1, 2)))
                    .abs()
                    .max();
            if (exact) {
                QVERIFY2(keyError < 1e-4, qPrintable(QString::number(keyError)));
                QVERIFY(scoreError.item<double>() < 1e-3);
            } else {
                QVERIFY2(keyError > 0.1, qPrintable(QString::number(keyError)));
            }
        }
        // Values are never rewritten by shadowkv.
        QVERIFY(index->context().layers[0].values.equal(f.cache.layers[0].values));
    }

    // Local window and outlier chunks are read exact even at a low rank.
    void alwaysAttendedKeysStayExact()
    {
        PressFixture f(1, 2, 4, 200, 8, 4);
        f.randomize(9);
        ropeKeys(f);
        const auto index = indexFor(QStringLiteral("shadowkv:rank=2,budget=128"), f.input, 0.0);
        const at::Tensor sel = index->select(0, torch::randn({4, 2, 8})); // [kv, 2, T]
        // Exact keys: local 32 + outliers min(384, floor(128 x 3/16) = 24) = 3 chunks of 8,
        // in both rows of both kv-heads.
        const at::Tensor exact = f.cache.layers[0].keys;
        const at::Tensor got = index->context().layers[0].keys;
        const at::Tensor same = (got - exact).abs().amax(-1) < 1e-5; // [kv, T]
        QCOMPARE(same.sum(-1).min().item<int64_t>(), int64_t(32 + 24));
        QCOMPARE(same.sum(-1).max().item<int64_t>(), int64_t(32 + 24));
        QVERIFY(same.narrow(1, 200 - 32, 32).all().item<bool>());
        QVERIFY(sel.masked_select(same.unsqueeze(1).expand_as(sel)).all().item<bool>());
        QVERIFY(sel.sum(-1).max().item<int64_t>() <= 128);
    }

    // Quest's page score bounds q . k of every key in the page (max over the GQA group),
    // and equals it for a one-key page.
    void questBoundsEveryKey_data()
    {
        QTest::addColumn<int>("page");
        QTest::addColumn<int>("length");
        QTest::newRow("page 1") << 1 << 40;
        QTest::newRow("page 5, short last page") << 5 << 43;
        QTest::newRow("page 16") << 16 << 64;
    }
    void questBoundsEveryKey()
    {
        QFETCH(int, page);
        QFETCH(int, length);
        at::manual_seed(3);
        const at::Tensor keys = torch::randn({2, length, 8});
        const at::Tensor q = torch::randn({4, 3, 8});
        const offload::ChunkGrid grid = offload::chunkGrid(length, length, page);
        const auto [lo, hi] = offload::chunkBounds(keys, grid);
        const at::Tensor bound = offload::pageScores(
            q, lo, hi, torch::ones({2, grid.count}, torch::kBool)); // [kv, n, C]
        // Exact q . k, max over the 2 query heads of each kv-head: [kv, n, T].
        const at::Tensor dots =
            torch::matmul(q.view({2, 2, 3, 8}), keys.unsqueeze(1).transpose(2, 3)).amax(1);
        const at::Tensor perToken = bound.index_select(2, grid.tokenChunk);
        QVERIFY((perToken - dots).min().item<double>() >= -1e-5);
        if (page == 1)
            QVERIFY((perToken - dots).abs().max().item<double>() < 1e-5);
    }

    // At most budget() context entries per (layer, kv-head, row); local window and outliers
    // in every row; a budget of T (r = 0 or budget >= T) selects everything.
    void budgetInvariants_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<double>("ratio");
        for (const char* spec : {"shadowkv", "shadowkv:chunk=1", "shadowkv:chunk=5,outliers=40",
                                 "quest", "quest:page=7,local=3", "yakv", "yakv:chunk=4,outliers=8",
                                 "shadowkv:budget=1000", "yakv:budget=300"})
            for (double r : {0.0, 0.5, 0.8, 0.97})
                QTest::newRow(qPrintable(QStringLiteral("%1 r=%2").arg(spec).arg(r)))
                    << QString::fromLatin1(spec) << r;
    }
    void budgetInvariants()
    {
        QFETCH(QString, spec);
        QFETCH(double, ratio);
        const int64_t length = 300;
        PressFixture f(2, 2, 4, int(length), 8, 4);
        f.randomize(17);
        ropeKeys(f);
        const auto index = indexFor(spec, f.input, ratio);
        const OffloadSettings s = index->settings();
        const int64_t budget = index->budgetTokens();
        const int64_t expected =
            s.budgetTokens > 0 ? std::min(s.budgetTokens, length)
                               : std::max<int64_t>(1, int64_t(std::floor(length * (1 - ratio))));
        QCOMPARE(budget, expected);
        const auto [local, outliers] = localAndOutliers(s, budget);
        for (int l = 0; l < 2; ++l) {
            const at::Tensor sel = index->select(l, torch::randn({4, 5, 8}));
            QCOMPARE(sel.sizes().vec(), (std::vector<int64_t>{2, 5, length}));
            QCOMPARE(sel.scalar_type(), at::kBool);
            const at::Tensor counts = sel.sum(-1);
            if (budget >= length) {
                QVERIFY(sel.all().item<bool>());
                continue;
            }
            QVERIFY(counts.max().item<int64_t>() <= budget);
            // Whole chunks fill what local and outliers leave, the last one may be short.
            QVERIFY(counts.min().item<int64_t>() > budget - 3 * s.chunk);
            QVERIFY(sel.narrow(2, length - local, local).all().item<bool>());
            QVERIFY(sel.all(1).sum(-1).min().item<int64_t>() >= local + outliers);
        }
    }

    void badInputIsRefused()
    {
        PressFixture f(1, 2, 4, 50, 8, 4);
        const auto index = indexFor(QStringLiteral("quest"), f.input, 0.5);
        QVERIFY_THROWS_EXCEPTION(kvl::Error, index->select(1, torch::zeros({4, 1, 8})));
        QVERIFY_THROWS_EXCEPTION(kvl::Error, index->select(0, torch::zeros({2, 1, 8})));
        QVERIFY_THROWS_EXCEPTION(kvl::Error,
                                 PressCatalog().press(QStringLiteral("shadowkv:svd=both")));
        QVERIFY_THROWS_EXCEPTION(kvl::Error,
                                 PressCatalog().press(QStringLiteral("yakv:kv_bits=9")));
        QVERIFY_THROWS_EXCEPTION(kvl::Error, PressCatalog().press(QStringLiteral("quest:chunk=4")));
        QVERIFY_THROWS_EXCEPTION(kvl::Error, indexFor(QStringLiteral("quest"), f.input, 1.0));
        // Low-rank keys need the prefill's pre-RoPE keys.
        f.cache.layers[0].keysPreRope = at::Tensor();
        QVERIFY_THROWS_EXCEPTION(kvl::Error, indexFor(QStringLiteral("shadowkv"), f.input, 0.5));
    }

    // The catalogue lists the three with every parameter and its default; the automatic
    // rank is 160 for Llama-3-8B's 8 x 128 and its share of a narrower SVD width.
    void catalogueAndDefaults()
    {
        const PressCatalog catalog;
        const std::map<QString, QStringList> params{
            {QStringLiteral("shadowkv"), {"chunk", "rank", "svd", "budget", "local", "outliers"}},
            {QStringLiteral("quest"), {"page", "budget", "local", "outliers"}},
            {QStringLiteral("yakv"),
             {"chunk", "budget", "local", "outliers", "landmark_bits", "kv_bits"}}};
        for (const auto& [name, expected] : params) {
            const PressEntry* e = catalog.find(name);
            QVERIFY(e);
            QStringList got;
            for (const auto& p : e->params)
                got << p.name;
            QCOMPARE(got, expected);
            const std::vector<QString> examples = catalog.exampleSpecs();
            QVERIFY(std::find(examples.begin(), examples.end(), name) != examples.end());
        }
        QCOMPARE(catalog.press(QStringLiteral("yakv"))->spec(),
                 QStringLiteral("yakv:chunk=1,budget=0,local=64,outliers=0,landmark_bits=2,"
                                "kv_bits=4"));
        PressFixture llama(1, 8, 32, 16, 128, 1);
        QCOMPARE(settingsFor(QStringLiteral("shadowkv"), llama.input).rank, 160);
        PressFixture bundled(1, 2, 4, 16, 32, 1); // the bundled model's 2 x 32
        QCOMPARE(settingsFor(QStringLiteral("shadowkv"), bundled.input).rank, 10);
        QCOMPARE(settingsFor(QStringLiteral("shadowkv:svd=per_head"), bundled.input).rank, 5);
        QCOMPARE(settingsFor(QStringLiteral("shadowkv:rank=7"), bundled.input).rank, 7);
    }

    // ShadowKV's selection against tests/reference/offload_reference.py, written from the
    // study's ShadowKVCache (float64, local window and outliers outside its sparse budget):
    // the same positions for every kv-head and query row.
    void shadowKvMatchesThePythonReference()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/offload_reference.py"),
                      dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QFile file(dir.filePath(QStringLiteral("expected.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        const at::Tensor keys = readNpy(dir.filePath(QStringLiteral("keys.npy")));
        const at::Tensor queries = readNpy(dir.filePath(QStringLiteral("queries.npy")));
        PressFixture f(1, int(keys.size(0)), int(queries.size(0)), int(keys.size(1)),
                       int(keys.size(2)), 1);
        f.cache.layers[0].keys = keys;
        const QString spec =
            QStringLiteral("shadowkv:rank=0,chunk=%1,local=%2,outliers=%3,budget=%4")
                .arg(expected.value(QStringLiteral("chunk")).toInt())
                .arg(expected.value(QStringLiteral("local")).toInt())
                .arg(expected.value(QStringLiteral("outliers")).toInt())
                .arg(expected.value(QStringLiteral("budget")).toInt());
        const at::Tensor got = indexFor(spec, f.input, 0.0)->select(0, queries);
        const QJsonArray heads = expected.value(QStringLiteral("selected")).toArray();
        QCOMPARE(got.size(0), int64_t(heads.size()));
        for (qsizetype h = 0; h < heads.size(); ++h) {
            const QJsonArray rows = heads[h].toArray();
            QCOMPARE(got.size(1), int64_t(rows.size()));
            for (qsizetype r = 0; r < rows.size(); ++r) {
                const at::Tensor positions = got[h][r].nonzero().flatten();
                std::vector<int64_t> mine(positions.data_ptr<int64_t>(),
                                          positions.data_ptr<int64_t>() + positions.numel());
                std::vector<int64_t> want;
                for (const QJsonValue& p : rows[r].toArray())
                    want.push_back(p.toInteger());
                QVERIFY2(mine == want, qPrintable(QStringLiteral("head %1 row %2").arg(h).arg(r)));
            }
        }
    }

    // A real prefill of a random GQA checkpoint: every entry kept, the context attention
    // reads (exact for quest, low-rank for shadowkv, quantized for yakv), and the selection
    // for the question's own queries within the budget; a full budget under exact keys
    // answers exactly as FullCache.
    void realPrefill_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("landmark");
        QTest::addColumn<bool>("exactKeys");
        QTest::addColumn<bool>("exactValues");
        QTest::newRow("shadowkv") << "shadowkv"
                                  << "low_rank_mean" << false << true;
        QTest::newRow("shadowkv full rank") << "shadowkv:rank=16"
                                            << "low_rank_mean" << true << true;
        QTest::newRow("quest") << "quest"
                               << "page_bounds" << true << true;
        QTest::newRow("yakv") << "yakv"
                              << "quantized_keys" << false << false;
    }
    void realPrefill()
    {
        QFETCH(QString, spec);
        QFETCH(QString, landmark);
        QFETCH(bool, exactKeys);
        QFETCH(bool, exactValues);
        c10::InferenceMode guard;
        const ModelConfig config = test::tinyGqaConfig();
        const Transformer model(config, randomModelWeights(config, 7, 0.3),
                                QStringLiteral("tiny/config.json"));
        std::vector<int> ids;
        for (int i = 0; i < 240; ++i)
            ids.push_back((17 * i + 3) % 50);
        const auto press = PressCatalog().press(spec);
        const ContextCache cache = model.prefill(ids, prefillOptionsFor({press.get()}, 240));
        const CompressionInput input = compressionInputFor(model, cache);
        const double ratio = 0.5; // budget 120: room beyond yakv's 64-token local window
        const CompressionResult r = press->compress(input, ratio);
        QVERIFY(r.kept.all().item<bool>());
        QVERIFY(r.rewritten.has_value());
        QCOMPARE(r.details.value(QStringLiteral("landmark")).toString(), landmark);
        QCOMPARE(r.details.value(QStringLiteral("budget_tokens")).toInteger(), qint64(120));
        QVERIFY(r.keptBytes <= r.fullBytes);
        QVERIFY(r.details.value(QStringLiteral("fetched_bytes_per_step")).toDouble() > 0);
        QCOMPARE(*r.keyError < 1e-4, exactKeys);
        QCOMPARE(*r.valueError == 0.0, exactValues);

        // The question's queries (layer by layer, under the full cache) select within budget.
        const auto* offload = dynamic_cast<const OffloadPress*>(press.get());
        QVERIFY(offload);
        const auto index = offload->index(input, ratio);
        Continuation cont;
        ExtendOptions keep;
        keep.keepQueries = true;
        const std::vector<int> question{4, 9, 16};
        const ExtendResult ext = model.extend(index->context(), {}, cont, question, keep);
        for (int l = 0; l < config.numLayers; ++l) {
            const at::Tensor sel = index->select(l, ext.queries[size_t(l)]);
            QCOMPARE(sel.sizes().vec(), (std::vector<int64_t>{2, 3, 240}));
            QVERIFY(sel.sum(-1).max().item<int64_t>() <= 120);
        }

        // One token under the selection of a full budget (every entry) answers as FullCache
        // when attention reads the exact keys.
        const auto full = offload->index(input, 0.0);
        CacheEdit edit;
        std::vector<at::Tensor> masks;
        for (int l = 0; l < config.numLayers; ++l)
            masks.push_back(full->select(l, ext.queries[size_t(l)].narrow(1, 0, 1)).select(1, 0));
        edit.keptMask = torch::stack(masks);
        QVERIFY(edit.keptMask.all().item<bool>());
        Continuation a, b;
        const at::Tensor got = model.extend(full->context(), edit, a, {4}).logits;
        const at::Tensor want = model.extend(cache, {}, b, {4}).logits;
        const double logitError = (got - want).abs().max().item<double>();
        QVERIFY2((logitError < 1e-4) == (exactKeys && exactValues),
                 qPrintable(QString::number(logitError)));
    }
};

QTEST_APPLESS_MAIN(TestOffloadRules)
#include "tst_offloadrules.moc"
