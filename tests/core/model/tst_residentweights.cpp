// F16/BF16 checkpoints kept 16-bit in memory (issue 21, item 4): the loaded matrices
// are the memory map itself, kvl::linear widens them exactly (whole or in row blocks),
// logits equal the float32 path, bf16 products stay within 1e-2 of it, and a compute
// dtype the machine lacks is an error naming the weights file.
#include <torch/types.h> // before Qt: its `slots` macro breaks torch's headers

#include "checkpoint/checkpointdir.h"
#include "checkpoint/halfconvert.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/safetensorsfile.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "model/engineinfo.h"
#include "model/linear.h"
#include "model/modelweights.h"
#include "model/randomcheckpoint.h"
#include "model/transformer.h"

#include <c10/core/InferenceMode.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>

using namespace kvl;

namespace {

ModelConfig tinyConfig(Architecture architecture, bool tied)
{
    ModelConfig c;
    c.architecture = architecture;
    c.vocabSize = 300;
    c.hiddenSize = 64;
    c.intermediateSize = 160;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 16;
    c.maxPositionEmbeddings = 256;
    c.tieWordEmbeddings = tied;
    c.attentionBias = architecture == Architecture::Qwen2;
    c.qkNorm = architecture == Architecture::Qwen3;
    return c;
}

double relativeError(const at::Tensor& a, const at::Tensor& b)
{
    return (a - b).norm().item<double>() / b.norm().item<double>();
}

std::vector<int> someIds(int n, int vocab)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back((i * 37 + 11) % vocab);
    return ids;
}

// The float32 path: every tensor converted on load (what the trainer gets).
at::Tensor float32Logits(const QString& dir, const std::vector<int>& ids)
{
    const auto checkpoint = CheckpointDir::open(dir);
    const Transformer model(checkpoint->config(), loadModelWeights(*checkpoint),
                            QStringLiteral("float32"));
    c10::InferenceMode guard;
    return model.forward(ids).clone();
}

at::ScalarType scalarTypeOf(DType dtype)
{
    return dtype == DType::F16 ? at::kHalf : at::kBFloat16;
}

} // namespace

class TestResidentWeights : public QObject
{
    Q_OBJECT

  private slots:
    void residentMatchesFloat32_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("architecture");
        QTest::addColumn<bool>("tied");
        QTest::newRow("bf16 llama tied") << int(DType::BF16) << int(Architecture::Llama) << true;
        QTest::newRow("bf16 qwen2 untied") << int(DType::BF16) << int(Architecture::Qwen2) << false;
        QTest::newRow("bf16 qwen3 tied") << int(DType::BF16) << int(Architecture::Qwen3) << true;
        QTest::newRow("f16 llama untied") << int(DType::F16) << int(Architecture::Llama) << false;
        QTest::newRow("f16 qwen3 tied") << int(DType::F16) << int(Architecture::Qwen3) << true;
    }
    void residentMatchesFloat32()
    {
        QFETCH(int, dtype);
        QFETCH(int, architecture);
        QFETCH(bool, tied);
        QTemporaryDir tmp;
        const ModelConfig config = tinyConfig(Architecture(architecture), tied);
        writeRandomCheckpoint(tmp.path(), config, 7, DType(dtype), 0.3);

        const auto model = Transformer::load(tmp.path());
        const ModelWeights& w = model->weights();
        const at::ScalarType stored = scalarTypeOf(DType(dtype));
        // Matrices are the mapped file bytes themselves, not copies.
        QCOMPARE(w.layers[1].gate.scalar_type(), stored);
        QCOMPARE(w.embed.scalar_type(), stored);
        QCOMPARE(w.lmHead.scalar_type(), stored);
        const CheckpointDir& checkpoint = *model->checkpoint();
        QCOMPARE(w.layers[1].gate.data_ptr(),
                 checkpoint.tensor(QStringLiteral("model.layers.1.mlp.gate_proj.weight")).data);
        QCOMPARE(w.embed.data_ptr(),
                 checkpoint.tensor(QStringLiteral("model.embed_tokens.weight")).data);
        // Vectors are float32 (a few KB), so norms and biases need no widening.
        QCOMPARE(w.layers[0].inputNorm.scalar_type(), at::kFloat);
        if (config.attentionBias)
            QCOMPARE(w.layers[0].qBias.scalar_type(), at::kFloat);

        const std::vector<int> ids = someIds(40, config.vocabSize);
        at::Tensor resident;
        {
            c10::InferenceMode guard;
            resident = model->forward(ids);
        }
        const at::Tensor reference = float32Logits(tmp.path(), ids);
        QCOMPARE(resident.scalar_type(), at::kFloat);
        QCOMPARE(resident.sizes(), reference.sizes());
        // The same values, widened exactly: only the BLAS's summation order may differ.
        const double error = relativeError(resident, reference);
        QVERIFY2(error < 1e-5, qPrintable(QString::number(error)));

        // Prefill and a decode step run the same projections.
        c10::InferenceMode guard;
        const ContextCache cache = model->prefill(ids);
        QVERIFY(relativeError(cache.lastLogits, reference[39]) < 1e-5);
    }

    void bf16ComputeWithin1e2()
    {
        QTemporaryDir tmp;
        const ModelConfig config = tinyConfig(Architecture::Qwen3, true);
        // Weights of std 0.1: 0.3 makes the tiny random model chaotic, so that bf16's
        // rounding of every activation (2^-9 relative) is amplified to ~1e-2 by the logits.
        writeRandomCheckpoint(tmp.path(), config, 3, DType::BF16, 0.1);
        const QString file = QDir(tmp.path()).filePath(QStringLiteral("model.safetensors"));
        try {
            checkComputeDType(at::kBFloat16, file);
        } catch (const Error& e) {
            QSKIP(qPrintable(QStringLiteral("no bf16 products here: %1").arg(e.message())));
        }
        const auto model = Transformer::load(tmp.path(), at::kBFloat16);
        QCOMPARE(model->weights().layers[0].q.scalar_type(), at::kBFloat16);
        QCOMPARE(model->weights().compute, at::kBFloat16);
        const std::vector<int> ids = someIds(40, config.vocabSize);
        at::Tensor logits;
        {
            c10::InferenceMode guard;
            logits = model->forward(ids);
        }
        const at::Tensor reference = float32Logits(tmp.path(), ids);
        QCOMPARE(logits.scalar_type(), at::kFloat);
        const double error = relativeError(logits, reference);
        qInfo("bf16 products vs float32: relative error %.2e", error);
        QVERIFY2(error < 1e-2, qPrintable(QString::number(error)));
        QVERIFY(error > 0.0); // the products did run in bf16
    }

    // F16 products on a CPU libtorch without the kernel: a kvl::Error naming the
    // weights file and the option, before any pass; with the kernel, a model within 1e-2.
    void f16ComputeNamesFileOrWorks()
    {
        QTemporaryDir tmp;
        const ModelConfig config = tinyConfig(Architecture::Llama, true);
        writeRandomCheckpoint(tmp.path(), config, 5, DType::F16, 0.3);
        const QString file = QDir(tmp.path()).filePath(QStringLiteral("model.safetensors"));
        bool machineCan = true;
        try {
            c10::InferenceMode guard;
            const at::Tensor x = at::ones({2, 4}, at::kHalf);
            (void)at::linear(x, x);
        } catch (const c10::Error&) {
            machineCan = false;
        }
        if (!machineCan) {
            try {
                Transformer::load(tmp.path(), at::kHalf);
                QFAIL("F16 products were accepted by a libtorch without the kernel");
            } catch (const Error& e) {
                QVERIFY2(e.message().contains(file), qPrintable(e.message()));
                QVERIFY2(e.message().contains(QStringLiteral("--dtype f16")),
                         qPrintable(e.message()));
            }
            return;
        }
        const auto model = Transformer::load(tmp.path(), at::kHalf);
        const std::vector<int> ids = someIds(20, config.vocabSize);
        c10::InferenceMode guard;
        QVERIFY(relativeError(model->forward(ids), float32Logits(tmp.path(), ids)) < 1e-2);
    }

    void computeDTypeNames()
    {
        QCOMPARE(computeDTypeFromName(QStringLiteral("f32")), at::kFloat);
        QCOMPARE(computeDTypeFromName(QStringLiteral("BF16")), at::kBFloat16);
        QCOMPARE(computeDTypeFromName(QStringLiteral("half")), at::kHalf);
        QVERIFY_THROWS_EXCEPTION(Error, computeDTypeFromName(QStringLiteral("int8")));
        QCOMPARE(computeDTypeName(at::kBFloat16), QStringLiteral("bf16"));
    }

    // Row blocks (a matrix larger than the workspace) and the whole-matrix path give
    // what at::linear gives on the widened matrix, with and without a bias, for 3-D
    // inputs, and autograd through x still works.
    void linearMatchesWidened_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<qint64>("workspace");
        QTest::newRow("bf16 whole") << int(at::kBFloat16) << qint64(kLinearWorkspaceElements);
        QTest::newRow("bf16 blocks of 5 rows") << int(at::kBFloat16) << qint64(100);
        QTest::newRow("bf16 blocks of 1 row") << int(at::kBFloat16) << qint64(1);
        QTest::newRow("f16 whole") << int(at::kHalf) << qint64(kLinearWorkspaceElements);
        QTest::newRow("f16 blocks of 5 rows") << int(at::kHalf) << qint64(100);
    }
    void linearMatchesWidened()
    {
        QFETCH(int, type);
        QFETCH(qint64, workspace);
        at::manual_seed(1);
        const at::Tensor weight = at::randn({37, 20}).to(at::ScalarType(type));
        const at::Tensor x = at::randn({3, 5, 20});
        const at::Tensor bias = at::randn({37});
        const at::Tensor wide = weight.to(at::kFloat);
        {
            c10::InferenceMode guard;
            for (const at::Tensor& b : {bias, at::Tensor()}) {
                const at::Tensor y = linear(x, weight, b, at::kFloat, workspace);
                QCOMPARE(y.sizes(), (std::vector<int64_t>{3, 5, 37}));
                QVERIFY(at::allclose(y, at::linear(x, wide, b), 1e-5, 1e-5));
            }
        }
        {
            at::NoGradGuard noGrad;
            QVERIFY(at::allclose(linear(x, weight, bias, at::kFloat, workspace),
                                 at::linear(x, wide, bias), 1e-5, 1e-5));
        }
        const at::Tensor xg = x.clone().set_requires_grad(true);
        linear(xg, weight, bias, at::kFloat, workspace).sum().backward();
        QVERIFY(at::allclose(xg.grad(), wide.sum(0).expand({3, 5, 20}), 1e-5, 1e-5));
    }

    // Widening is exact for every bit pattern, with the engine's flush-to-zero modes on
    // (subnormal F16 weights must not become zero).
    void widenRowsExact_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("bf16") << int(at::kBFloat16);
        QTest::newRow("f16") << int(at::kHalf);
    }
    void widenRowsExact()
    {
        QFETCH(int, type);
        flushDenormals();
        std::vector<uint16_t> patterns(65536);
        for (int i = 0; i < 65536; ++i)
            patterns[size_t(i)] = uint16_t(i);
        const at::Tensor weight = at::from_blob(patterns.data(), {256, 256},
                                                at::TensorOptions().dtype(at::ScalarType(type)));
        std::vector<float> out(65536);
        widenRows(weight, 0, 256, out.data());
        for (int i = 0; i < 65536; ++i) {
            const float expected =
                type == int(at::kHalf) ? halfToFloat(uint16_t(i)) : bf16ToFloat(uint16_t(i));
            const float got = out[size_t(i)];
            if (std::isnan(expected)) {
                QVERIFY2(std::isnan(got), qPrintable(QString::number(i, 16)));
                continue;
            }
            QVERIFY2(std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(expected),
                     qPrintable(QStringLiteral("pattern %1: %2 vs %3")
                                    .arg(i, 4, 16, QLatin1Char('0'))
                                    .arg(double(got))
                                    .arg(double(expected))));
        }
        // A block from the middle.
        std::vector<float> rows(3 * 256);
        widenRows(weight, 100, 3, rows.data());
        QCOMPARE(std::bit_cast<uint32_t>(rows[5]), std::bit_cast<uint32_t>(out[100 * 256 + 5]));
    }

    // Damaged 16-bit weights kept resident are still refused, naming file and tensor.
    void nonFinite16BitRefused_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("bits");
        QTest::addColumn<QString>("what");
        QTest::newRow("bf16 NaN") << int(DType::BF16) << 0x7fc0 << QStringLiteral("NaN");
        QTest::newRow("bf16 -inf") << int(DType::BF16) << 0xff80 << QStringLiteral("an infinity");
        QTest::newRow("f16 NaN") << int(DType::F16) << 0x7e00 << QStringLiteral("NaN");
        QTest::newRow("f16 inf") << int(DType::F16) << 0x7c00 << QStringLiteral("an infinity");
    }
    void nonFinite16BitRefused()
    {
        QFETCH(int, dtype);
        QFETCH(int, bits);
        QFETCH(QString, what);
        QTemporaryDir tmp;
        const ModelConfig config = tinyConfig(Architecture::Llama, true);
        const QString damaged = QStringLiteral("model.layers.1.mlp.down_proj.weight");
        SafetensorsWriter writer;
        forEachRandomTensor(config, 1, 0.02, [&](const QString& name, const at::Tensor& t) {
            at::Tensor stored = t.to(scalarTypeOf(DType(dtype))).contiguous();
            if (name == damaged)
                stored.view(at::kShort).view(-1)[123] = int16_t(uint16_t(bits));
            writer.add(name, DType(dtype), stored.sizes().vec(),
                       QByteArray(static_cast<const char*>(stored.data_ptr()),
                                  qsizetype(stored.numel() * 2)));
        });
        const QString file = QDir(tmp.path()).filePath(QStringLiteral("model.safetensors"));
        writer.write(file);
        writeModelConfig(QDir(tmp.path()).filePath(QStringLiteral("config.json")), config);
        try {
            Transformer::load(tmp.path());
            QFAIL("damaged weights were accepted");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(file), qPrintable(e.message()));
            QVERIFY2(e.message().contains(damaged), qPrintable(e.message()));
            QVERIFY2(e.message().contains(QStringLiteral("holds %1 at element 123").arg(what)),
                     qPrintable(e.message()));
        }
    }

    // A written random checkpoint holds randomModelWeights' values (F32: exactly; BF16:
    // rounded), so a file-backed benchmark runs the in-memory random model's weights.
    void randomCheckpointHoldsRandomWeights()
    {
        QTemporaryDir tmp;
        const ModelConfig config = tinyConfig(Architecture::Qwen2, false);
        writeRandomCheckpoint(tmp.path(), config, 9, DType::F32);
        const QString bf16Dir = QDir(tmp.path()).filePath(QStringLiteral("bf16"));
        writeRandomCheckpoint(bf16Dir, config, 9, DType::BF16);
        ModelWeights expected = randomModelWeights(config, 9);
        const auto f32 = CheckpointDir::open(tmp.path());
        const auto bf16 = CheckpointDir::open(bf16Dir);
        QCOMPARE(bf16->config().torchDtype, QStringLiteral("bfloat16"));
        ModelWeights fromF32 = loadModelWeights(*f32);
        ModelWeights fromBf16 = loadModelWeights(*bf16, {true, at::kFloat});
        auto a = expected.named(config), b = fromF32.named(config), c = fromBf16.named(config);
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].first, b[i].first);
            QVERIFY2(at::equal(*a[i].second, *b[i].second), qPrintable(a[i].first));
            QVERIFY2(at::equal(a[i].second->to(at::kBFloat16).to(at::kFloat),
                               c[i].second->to(at::kFloat)),
                     qPrintable(a[i].first));
        }
    }
};

QTEST_GUILESS_MAIN(TestResidentWeights)
#include "tst_residentweights.moc"
