// A BF16 checkpoint of the 0.5B shape through kvlens-cli as a user runs it (issue 21,
// item 4): `random-model` writes it, `forward` and `bench --json` report their peak
// resident memory (peak_rss_mb), which must stay within 1.2 x the safetensors size
// plus the KV cache (weights kept 16-bit, widened one matrix at a time) above the
// process's resident memory before the model loads (rss_at_start_mb: libtorch, Qt and
// BLAS, ~160 MiB, which a 737 MiB checkpoint's 20% would not cover); `forward --dtype
// bf16` stays within 2e-2 of the float32 products, and `--dtype f16` on a machine
// without F16 kernels fails naming the weights file.
#include "checkpoint/halfconvert.h"
#include "checkpoint/safetensorsfile.h"
#include "clirun.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

using clitest::cli;
using clitest::Result;
using clitest::writeFile;

// random-0.5b: 24 layers, 2 kv heads, head_dim 64 (core/model/benchmark.cpp).
constexpr double kLayers = 24, kKvHeads = 2, kHeadDim = 64;

// The KV cache of `tokens` positions in MiB: keys and values, float32, and the
// pre-RoPE keys prefill also keeps.
double kvCacheMb(int tokens)
{
    return 3.0 * kLayers * kKvHeads * kHeadDim * tokens * 4.0 / (1024.0 * 1024.0);
}

std::vector<float> logitsOf(const QString& path)
{
    const auto file = kvl::SafetensorsFile::open(path);
    return kvl::tensorToFloat(file->tensor(QStringLiteral("logits")));
}

} // namespace

class TestCliResident : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_model, m_ids;
    double m_fileMb = 0.0;
    static constexpr int kTokens = 48;

  private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_model = m_tmp.filePath(QStringLiteral("random-bf16"));
        const Result r = cli({QStringLiteral("random-model"), QStringLiteral("--shape"),
                              QStringLiteral("random-0.5b"), QStringLiteral("--dtype"),
                              QStringLiteral("bf16"), QStringLiteral("--out"), m_model});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        m_fileMb = r.lastJson().value(QStringLiteral("safetensors_mb")).toDouble();
        const double fileMb =
            double(QFileInfo(QDir(m_model).filePath(QStringLiteral("model.safetensors"))).size()) /
            (1024.0 * 1024.0);
        QCOMPARE(m_fileMb, fileMb);
        QVERIFY2(m_fileMb > 700.0, qPrintable(QString::number(m_fileMb))); // ~387M params x 2 B
        // With the bundled tokenizer beside it, the directory is a model every command
        // takes (run, bench --sweep, tokenize).
        QVERIFY(QFileInfo::exists(QDir(m_model).filePath(QStringLiteral("tokenizer.json"))));
        writeFile(m_tmp.filePath(QStringLiteral("text.txt")), "The code of Anna is 4821.");
        const Result tok =
            cli({QStringLiteral("tokenize"), QStringLiteral("--model"), m_model,
                 QStringLiteral("--text-file"), m_tmp.filePath(QStringLiteral("text.txt"))});
        QVERIFY2(tok.code == 0, qPrintable(tok.err));
        QVERIFY(!tok.lastJson().value(QStringLiteral("ids")).toArray().isEmpty());
        QJsonArray ids;
        for (int i = 0; i < kTokens; ++i)
            ids.append((i * 7919 + 13) % 32000);
        m_ids = m_tmp.filePath(QStringLiteral("ids.json"));
        writeFile(m_ids, QJsonDocument(ids).toJson());
    }

    void forwardPeakRssWithinBound()
    {
        const QString out = m_tmp.filePath(QStringLiteral("f32.safetensors"));
        const Result r = cli({QStringLiteral("forward"), QStringLiteral("--model"), m_model,
                              QStringLiteral("--ids-file"), m_ids, QStringLiteral("--out"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const double peak = r.lastJson().value(QStringLiteral("peak_rss_mb")).toDouble();
        const double floor = r.lastJson().value(QStringLiteral("rss_at_start_mb")).toDouble();
        const double bound = floor + 1.2 * m_fileMb + kvCacheMb(kTokens);
        qInfo("forward: peak RSS %.0f MiB (%.0f at start), safetensors %.0f MiB, bound %.0f MiB",
              peak, floor, m_fileMb, bound);
        QVERIFY(peak > 0.0);
        QVERIFY(floor > 0.0 && floor < peak);
        QVERIFY2(peak <= bound, qPrintable(QStringLiteral("%1 > %2").arg(peak).arg(bound)));
        const std::vector<float> logits = logitsOf(out);
        QCOMPARE(logits.size(), size_t(kTokens) * 32000);
        for (float v : logits)
            QVERIFY(std::isfinite(v));
    }

    void benchPeakRssWithinBound()
    {
        const int tokens = 64;
        const Result r =
            cli({QStringLiteral("bench"), QStringLiteral("--model"), m_model,
                 QStringLiteral("--tokens"), QString::number(tokens), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(json.contains(QStringLiteral("peak_rss_mb")), r.out.constData());
        const double peak = json.value(QStringLiteral("peak_rss_mb")).toDouble();
        const double floor = json.value(QStringLiteral("rss_at_start_mb")).toDouble();
        // The bandwidth probe beside the decode steps holds its three buffers then (their
        // size is in the output): the engine's own share is what is bounded.
        const double probe = json.value(QStringLiteral("decode_probe_mib")).toDouble(-1.0);
        QVERIFY2(probe > 0.0 && probe <= 768.0, r.out.constData());
        const double bound = floor + 1.2 * m_fileMb + kvCacheMb(tokens) + probe;
        qInfo("bench: peak RSS %.0f MiB (%.0f at start), safetensors %.0f MiB, probe %.0f MiB, "
              "bound %.0f MiB",
              peak, floor, m_fileMb, probe, bound);
        QVERIFY(peak > 0.0);
        QVERIFY(floor > 0.0 && floor < peak);
        QVERIFY2(peak <= bound, qPrintable(QStringLiteral("%1 > %2").arg(peak).arg(bound)));
    }

    void forwardBf16ProductsWithin1e2()
    {
        const QString f32 = m_tmp.filePath(QStringLiteral("f32.safetensors"));
        if (!QFileInfo::exists(f32))
            QSKIP("needs forwardPeakRssWithinBound's float32 logits");
        const QString out = m_tmp.filePath(QStringLiteral("bf16.safetensors"));
        const Result r = cli({QStringLiteral("forward"), QStringLiteral("--model"), m_model,
                              QStringLiteral("--ids-file"), m_ids, QStringLiteral("--out"), out,
                              QStringLiteral("--dtype"), QStringLiteral("bf16")});
        if (r.code != 0 && r.err.contains(QStringLiteral("cannot multiply BF16")))
            QSKIP("this libtorch has no bf16 products");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson().value(QStringLiteral("dtype")).toString(), QStringLiteral("bf16"));
        const std::vector<float> a = logitsOf(out), b = logitsOf(f32);
        QCOMPARE(a.size(), b.size());
        double diff = 0.0, norm = 0.0;
        for (size_t i = 0; i < a.size(); ++i) {
            diff += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
            norm += double(b[i]) * b[i];
        }
        const double relative = std::sqrt(diff / norm);
        qInfo("forward --dtype bf16 vs f32: relative error %.2e", relative);
        // bf16 rounds every product's inputs and outputs (2^-9 relative): over 24 layers of
        // random weights the logits move ~1.0e-2 (measured 1.01e-2 here). The 1e-2 of
        // issue 21 is for bf16 weights under f32 products, the default (tst_residentweights).
        QVERIFY2(relative < 2e-2, qPrintable(QString::number(relative)));
    }

    // F16 products: Debian's CPU libtorch has no F16 matmul. Then: exit 1 and a message
    // naming the weights file and the option. (Where the kernel exists the run works.)
    void forwardF16ProductsRefusedOrWork()
    {
        const QString out = m_tmp.filePath(QStringLiteral("f16.safetensors"));
        const Result r = cli({QStringLiteral("forward"), QStringLiteral("--model"), m_model,
                              QStringLiteral("--ids-file"), m_ids, QStringLiteral("--out"), out,
                              QStringLiteral("--dtype"), QStringLiteral("f16")});
        if (r.code == 0)
            return;
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QDir(m_model).filePath(QStringLiteral("model.safetensors"))),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("--dtype f16")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void unknownDTypeRefused()
    {
        const Result r = cli({QStringLiteral("forward"), QStringLiteral("--model"), m_model,
                              QStringLiteral("--ids-file"), m_ids, QStringLiteral("--out"),
                              m_tmp.filePath(QStringLiteral("x.safetensors")),
                              QStringLiteral("--dtype"), QStringLiteral("int4")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("int4")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliResident)
#include "tst_cliresident.moc"
