// HQQ's zero-point optimiser (compressors/hqqquantizer) and the `hqq` press: hand-worked
// steps, never worse than min-max round-to-nearest on random and heavy-tailed data, the
// same dequantized tensor as tests/reference/hqq_reference.py (an independent float32
// re-implementation of mobiusml/hqq's optimize_weights_proximal), and the press's
// errors and bytes.
#include "pressfixture.h"

#include "common/error.h"
#include "compressors/hqqquantizer.h"
#include "compressors/npyarray.h"
#include "compressors/presscatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace kvl;
using namespace kvl::test;

namespace {

double meanAbsError(const at::Tensor& a, const at::Tensor& b)
{
    return (a - b).abs().mean().item<double>();
}

double relativeL2(const at::Tensor& approx, const at::Tensor& exact)
{
    return std::sqrt((approx - exact).pow(2).sum().item<double>() /
                     exact.pow(2).sum().item<double>());
}

// [rows, 64] test data, seeded: plain normal; normal with every 16th channel 20x
// larger (the outlier channels keys have); Student-t with 2 degrees of freedom (heavy
// tails everywhere: z / sqrt(chi2_2 / 2), chi2_2 = -2 ln U).
at::Tensor sample(const QString& kind, int64_t rows, uint64_t seed)
{
    at::manual_seed(seed);
    const at::Tensor z = torch::randn({rows, 64});
    if (kind == QLatin1String("outlier_channels"))
        return z * torch::where(torch::arange(64) % 16 == 0, 20.0, 1.0).to(torch::kFloat);
    if (kind == QLatin1String("student_t2"))
        return z / torch::sqrt(-torch::log(torch::rand({rows, 64}).clamp_min(1e-12)));
    return z;
}

// A NumPy .npy (format 1.0) of a C-order float32 tensor.
bool writeNpy(const QString& path, const at::Tensor& t)
{
    const at::Tensor x = t.contiguous().to(torch::kFloat32);
    QStringList dims;
    for (int64_t s : x.sizes())
        dims << QString::number(s);
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                        dims.join(QStringLiteral(", ")).toLatin1() + ",), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header;
    bytes += QByteArray(reinterpret_cast<const char*>(x.data_ptr<float>()),
                        qsizetype(x.numel() * sizeof(float)));
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestHqqQuantizer : public QObject
{
    Q_OBJECT

  private slots:
    void minMaxHandWorked()
    {
        // 2 bits, [0, 0.4, 1.2, 3]: min 0, step 3 / 3 = 1 -> codes [0, 0, 1, 3].
        const QuantizedGroups q = minMaxGroups(torch::tensor({{0.0f, 0.4f, 1.2f, 3.0f}}), 2);
        QVERIFY(q.dequantized().allclose(torch::tensor({{0.0f, 0.0f, 1.0f, 3.0f}})));
        QCOMPARE(q.step.item<float>(), 1.0f);
        QCOMPARE(q.iterations, 0);
    }

    void oneHqqIterationHandWorked()
    {
        // 2 bits, x = [0, 0.4, 1.2, 3]: s = 3 / 3 = 1, z = 0, q = [0, 0, 1, 3], x - x_r =
        // [0, 0.4, 0.2, 0]. Shrink (beta 10, p 0.7): 0.4 - 0.4^-0.3 / 10 = 0.4 - 0.131638
        // = 0.268362; 0.2 - 0.2^-0.3 / 10 = 0.2 - 0.162066 = 0.037934. New zero = mean(q -
        // (x - e)) = (0 - 0.131638 - 0.162066 + 0) / 4 = -0.073426; codes round(x - 0.073426)
        // = [0, 0, 1, 3] dequantize to q + 0.073426.
        HqqParams one;
        one.iterations = 1;
        const QuantizedGroups q = hqqGroups(torch::tensor({{0.0f, 0.4f, 1.2f, 3.0f}}), 2, one);
        QCOMPARE(q.iterations, 1);
        QVERIFY(q.zeroInCodes);
        QCOMPARE(q.step.item<float>(), 1.0f);
        QVERIFY(std::abs(q.offset.item<double>() + 0.073426) < 1e-4);
        QVERIFY(q.codes.equal(torch::tensor({{0.0f, 0.0f, 1.0f, 3.0f}})));
        QVERIFY(q.dequantized().allclose(
            torch::tensor({{0.073426f, 0.073426f, 1.073426f, 3.073426f}}), 0.0, 1e-4));
    }

    void earlyStopKeepsTheLastUpdate()
    {
        // A group on the grid: error 0 at the first pass (best 1e4 -> 0), zero update
        // mean(q - x · s) = 0; the second pass's error 0 is not below 0, so the loop stops
        // after 2 of 20 iterations, reconstruction exact.
        const at::Tensor x = torch::tensor({{-1.0f, 0.0f, 1.0f, 2.0f}});
        const QuantizedGroups q = hqqGroups(x, 2);
        QCOMPARE(q.iterations, 2);
        QVERIFY(q.dequantized().equal(x));
        // A constant group: s is clamped at 2e4 (step 5e-5 in fp16) and comes back exact
        // within that step.
        const QuantizedGroups c = hqqGroups(torch::full({1, 8}, 0.25f), 4);
        QVERIFY(std::abs(c.step.item<double>() - 5e-5) < 1e-7);
        QVERIFY(c.dequantized().allclose(torch::full({1, 8}, 0.25f), 0.0, 5e-5));
    }

    void noWorseThanMinMax_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("bits");
        for (const char* kind : {"normal", "outlier_channels", "student_t2"})
            for (int bits : {2, 4})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2 bits").arg(kind).arg(bits)))
                    << QString::fromLatin1(kind) << bits;
    }

    // On 512 groups of 64: HQQ's mean |error| (what it minimises) and its relative L2
    // error are both at most min-max's.
    void noWorseThanMinMax()
    {
        QFETCH(QString, kind);
        QFETCH(int, bits);
        const at::Tensor x = sample(kind, 512, 3);
        const at::Tensor mm = minMaxGroups(x, bits).dequantized();
        const QuantizedGroups h = hqqGroups(x, bits);
        const at::Tensor hq = h.dequantized();
        qInfo("%s %d bits: min-max L1 %.5f rel L2 %.5f; hqq L1 %.5f rel L2 %.5f (%d iterations)",
              qPrintable(kind), bits, meanAbsError(mm, x), relativeL2(mm, x), meanAbsError(hq, x),
              relativeL2(hq, x), h.iterations);
        QVERIFY(h.iterations >= 2);
        QVERIFY(meanAbsError(hq, x) < meanAbsError(mm, x));
        QVERIFY(relativeL2(hq, x) < relativeL2(mm, x));
    }

    void matchesThePythonReference_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<QString>("kind");
        for (int bits : {2, 4, 8})
            for (const char* kind : {"normal", "student_t2"})
                QTest::newRow(qPrintable(QStringLiteral("%1 bits %2").arg(bits).arg(kind)))
                    << bits << QString::fromLatin1(kind);
    }

    // The same input, saved as .npy, through tests/reference/hqq_reference.py: the same
    // number of iterations, the same fp16 steps, and the same dequantized values to 1e-3
    // of a step for at least 99% of them. The rest: float32 sums in another order can
    // move a zero point across an fp16 rounding boundary (one fp16 ulp of z: up to 1/8
    // of a step at 8 bits, where |z| reaches 255) or round a code the other way (one
    // step), so no value may be more than 1.13 steps off.
    void matchesThePythonReference()
    {
        QFETCH(int, bits);
        QFETCH(QString, kind);
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
            QSKIP("no /usr/bin/python3");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // 3 kv-heads x 40 tokens x 64 channels, groups of 32 channels.
        const at::Tensor x = sample(kind, 120, 11).reshape({3, 40, 64});
        const int group = 32;
        QVERIFY(writeNpy(dir.filePath(QStringLiteral("in.npy")), x));
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/hqq_reference.py"),
                      dir.filePath(QStringLiteral("in.npy")), QString::number(bits),
                      QString::number(group), dir.filePath(QStringLiteral("out.npy")),
                      dir.filePath(QStringLiteral("out.json"))});
        QVERIFY(python.waitForFinished(120000));
        if (python.exitCode() != 0 &&
            python.readAllStandardError().contains("No module named 'torch'"))
            QSKIP("/usr/bin/python3 has no torch");
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QFile file(dir.filePath(QStringLiteral("out.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        const at::Tensor want = readNpy(dir.filePath(QStringLiteral("out.npy")));
        QCOMPARE(want.sizes(), x.sizes());

        const QuantizedGroups h = hqqGroups(x.reshape({-1, group}), bits);
        QCOMPARE(h.iterations, expected.value(QStringLiteral("iterations")).toInt());
        const QJsonArray steps = expected.value(QStringLiteral("step")).toArray();
        QCOMPARE(int64_t(steps.size()), h.step.size(0));
        for (qsizetype i = 0; i < steps.size(); ++i)
            QCOMPARE(h.step[i][0].item<float>(), float(steps[i].toDouble()));
        const at::Tensor diff = (h.dequantized() - want.reshape({-1, group})).abs() / h.step;
        const double worst = diff.max().item<double>();
        const double flipped = (diff > 1e-3).to(torch::kDouble).mean().item<double>();
        qInfo("%d bits %s: %d iterations, worst |diff| %.4g steps, %.3f%% values differ", bits,
              qPrintable(kind), h.iterations, worst, 100.0 * flipped);
        QVERIFY2(worst <= 1.13, qPrintable(QString::number(worst)));
        QVERIFY2(flipped <= 0.01, qPrintable(QString::number(flipped)));
    }

    // The press: only the entries before the residual window change; keys and values
    // errors below `quantized`'s on random K/V at 2 and 4 bits; the same bytes: K and V of
    // 2 layers x 2 kv-heads, T 200, d 64, residual 72, group 32, 4 bits: 128 quantized
    // tokens of 64 · 4/8 + 2 groups · (2 + 2) = 40 bytes, 72 of 64 · 2 = 128 bytes, 8
    // slots: 8 · (128 · 40 + 72 · 128) = 114,688 of 8 · 200 · 128 = 204,800.
    void press()
    {
        PressFixture f(2, 2, 2, 200, 64, 1);
        f.randomize(5);
        f.bind();
        PressCatalog catalog;
        for (int bits : {2, 4}) {
            const QString opts = QStringLiteral(":bits=%1,group=32,residual=72").arg(bits);
            const CompressionResult h =
                catalog.press(QStringLiteral("hqq") + opts)->compress(f.input, 0.5);
            const CompressionResult m =
                catalog.press(QStringLiteral("quantized") + opts)->compress(f.input, 0.5);
            qInfo("%d bits: key error hqq %.5f min-max %.5f; value error hqq %.5f min-max %.5f",
                  bits, *h.keyError, *m.keyError, *h.valueError, *m.valueError);
            QVERIFY(*h.keyError < *m.keyError);
            QVERIFY(*h.valueError < *m.valueError);
            QCOMPARE(h.keptBytes, m.keptBytes);
            QVERIFY(h.kept.all().item<bool>());
            QCOMPARE(h.details.value(QStringLiteral("backend")).toString(), QStringLiteral("hqq"));
            QCOMPARE(m.details.value(QStringLiteral("backend")).toString(),
                     QStringLiteral("minmax"));
            const QJsonArray iterations =
                h.details.value(QStringLiteral("hqq_iterations")).toArray();
            QCOMPARE(iterations.size(), 2);
            for (const QJsonValue& layer : iterations)
                for (const QJsonValue& n : layer.toArray())
                    QVERIFY(n.toInt() >= 2 && n.toInt() <= 20);
            const at::Tensor k = h.rewritten->layers[1].keys;
            const at::Tensor k0 = f.cache.layers[1].keys;
            QVERIFY(k.narrow(1, 128, 72).equal(k0.narrow(1, 128, 72)));
            QVERIFY(!k.narrow(1, 0, 128).equal(k0.narrow(1, 0, 128)));
            if (bits == 4) {
                QCOMPARE(h.keptBytes, 114688.0);
                QCOMPARE(h.fullBytes, 204800.0);
            }
        }
        // The spec names the backend's press; an unknown parameter or bits value is refused.
        QCOMPARE(catalog.press(QStringLiteral("hqq"))->spec(),
                 QStringLiteral("hqq:bits=0,group=64,residual=128"));
        QVERIFY_THROWS_EXCEPTION(Error, catalog.press(QStringLiteral("hqq:bits=3")));
        QVERIFY_THROWS_EXCEPTION(Error, catalog.press(QStringLiteral("hqq:backend=x")));
    }

    // `presses --json` lists hqq with its rule (naming the library file) and parameters.
    void listed()
    {
        const QJsonArray all = PressCatalog().toJson();
        QJsonObject hqq;
        for (const QJsonValue& v : all)
            if (v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("hqq"))
                hqq = v.toObject();
        QVERIFY(!hqq.isEmpty());
        QVERIFY(hqq.value(QStringLiteral("rule"))
                    .toString()
                    .contains(QStringLiteral("optimize_weights_proximal")));
        QStringList params;
        for (const QJsonValue& p : hqq.value(QStringLiteral("params")).toArray())
            params << p.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(params, (QStringList{QStringLiteral("bits"), QStringLiteral("group"),
                                      QStringLiteral("residual")}));
    }
};

QTEST_GUILESS_MAIN(TestHqqQuantizer)
#include "tst_hqqquantizer.moc"
