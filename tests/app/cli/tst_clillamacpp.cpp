// llama.cpp beside the engine through kvlens-cli (issue 36, item 4): `random-model
// --format gguf` writes the values `--format safetensors` writes for the same seed (read
// back by tests/reference/gguf_reference.py); `bench --compare-llamacpp` says what is
// missing and exits non-zero without node or node-llama-cpp, and where node-llama-cpp
// is installed (<build>/npm, packaging/bootstrap.sh test) llama.cpp loads the GGUF and
// generates, and the bench prints both engines' figures and their ratios. Timings are
// only checked to be there: nothing here depends on how fast either engine is.
#include "../../core/model/llamacppavailable.h"
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
using llamacpptest::kReader;
using llamacpptest::kScript;
using llamacpptest::llamaCppMissing;
using llamacpptest::nodeModules;

const QString kPython = QStringLiteral("/usr/bin/python3");

Result randomModel(const QString& out, const QString& format, const QString& dtype)
{
    return cli({QStringLiteral("random-model"), QStringLiteral("--shape"),
                QStringLiteral("random-tiny"), QStringLiteral("--dtype"), dtype,
                QStringLiteral("--seed"), QStringLiteral("5"), QStringLiteral("--format"), format,
                QStringLiteral("--out"), out});
}

bool positive(const QJsonValue& v)
{
    return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() > 0.0;
}

} // namespace

class TestCliLlamaCpp : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_gguf;

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString dir = m_dir.filePath(QStringLiteral("gguf"));
        const Result r = randomModel(dir, QStringLiteral("gguf"), QStringLiteral("BF16"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject out = r.lastJson();
        QCOMPARE(out.value(QStringLiteral("format")).toString(), QStringLiteral("gguf"));
        m_gguf = QDir(dir).filePath(QStringLiteral("model.gguf"));
        QCOMPARE(out.value(QStringLiteral("file")).toString(), m_gguf);
        QVERIFY(out.value(QStringLiteral("gguf_mb")).toDouble() > 0.0);
        QVERIFY(!QFileInfo::exists(QDir(dir).filePath(QStringLiteral("model.safetensors"))));
    }

    void ggufHoldsTheSafetensorsValues()
    {
        if (!QFileInfo(kPython).isExecutable())
            QSKIP("no /usr/bin/python3");
        const QString st = m_dir.filePath(QStringLiteral("safetensors"));
        const Result r = randomModel(st, QStringLiteral("safetensors"), QStringLiteral("BF16"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QProcess p;
        p.start(kPython, {kReader, m_gguf, st});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject summary = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(summary.value(QStringLiteral("architecture")).toString(), QStringLiteral("qwen2"));
        QCOMPARE(summary.value(QStringLiteral("tokens")).toInt(), 2048);
    }

    void badFormat()
    {
        const Result r = randomModel(m_dir.filePath(QStringLiteral("bad")), QStringLiteral("onnx"),
                                     QStringLiteral("F32"));
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains(QLatin1String("'onnx' is neither safetensors nor gguf")),
                 qPrintable(r.err));
    }

    // Missing tools are reported before anything is timed, with a non-zero exit.
    void compareWithoutNode()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), m_dir.filePath(QStringLiteral("empty-path")));
        const Result r = cli({QStringLiteral("bench"), QStringLiteral("--model"),
                              QStringLiteral("random-tiny"), QStringLiteral("--tokens"),
                              QStringLiteral("16"), QStringLiteral("--compare-llamacpp")},
                             {}, env, 60000);
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains(QLatin1String("node is not installed")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void compareWithoutNodeLlamaCpp()
    {
        const QString missing = llamaCppMissing();
        if (missing.startsWith(QLatin1String("node ")) ||
            missing.contains(QLatin1String("node 20")))
            QSKIP(qPrintable(missing + QStringLiteral(": the check stops before node-llama-cpp")));
        const QString empty = m_dir.filePath(QStringLiteral("empty-modules"));
        QVERIFY(QDir().mkpath(empty));
        const Result r =
            cli({QStringLiteral("bench"), QStringLiteral("--model"), QStringLiteral("random-tiny"),
                 QStringLiteral("--tokens"), QStringLiteral("16"),
                 QStringLiteral("--compare-llamacpp"), QStringLiteral("--llamacpp-modules"), empty},
                {}, QProcessEnvironment::systemEnvironment(), 60000);
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains(QLatin1String("node-llama-cpp is not installed")) &&
                     r.err.contains(empty) &&
                     r.err.contains(QLatin1String("node-llama-cpp@3.21.1")),
                 qPrintable(r.err));
    }

    void compareNeedsModel()
    {
        const Result r = cli({QStringLiteral("bench"), QStringLiteral("--compare-llamacpp")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains(QLatin1String("--compare-llamacpp needs --model")),
                 qPrintable(r.err));
    }

    // llama.cpp loads what random-model wrote and generates from it.
    void llamaCppLoadsAndGenerates()
    {
        const QString missing = llamaCppMissing();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        const QString ids = m_dir.filePath(QStringLiteral("ids.json"));
        writeFile(ids, "[0, 300, 301, 302, 1000, 2047]");
        QProcess node;
        node.start(llamacpptest::node(),
                   {kScript, QStringLiteral("--mode"), QStringLiteral("check"),
                    QStringLiteral("--modules"), nodeModules(), QStringLiteral("--model"), m_gguf,
                    QStringLiteral("--ids"), ids, QStringLiteral("--threads"), QStringLiteral("1"),
                    QStringLiteral("--generate"), QStringLiteral("5")});
        QVERIFY(node.waitForFinished(120000));
        QVERIFY2(node.exitCode() == 0, node.readAllStandardError().constData());
        const QJsonObject out = QJsonDocument::fromJson(node.readAllStandardOutput()).object();
        QCOMPARE(out.value(QStringLiteral("node_llama_cpp")).toString(), QStringLiteral("3.21.1"));
        QCOMPARE(out.value(QStringLiteral("prompt_tokens")).toInt(), 6);
        const QJsonArray generated = out.value(QStringLiteral("generated")).toArray();
        QCOMPARE(generated.size(), 5);
        for (const QJsonValue& id : generated)
            QVERIFY(id.toInt(-1) >= 0 && id.toInt() < 2048);
        double sum = 0.0;
        for (const QJsonValue& entry : out.value(QStringLiteral("top")).toArray())
            sum += entry.toArray().at(1).toDouble();
        QVERIFY(sum > 0.0 && sum <= 1.0 + 1e-6);
    }

    // The bench runs both engines in one process run and prints both and the ratios.
    void benchComparesLlamaCpp()
    {
        const QString missing = llamaCppMissing();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        const Result r = cli(
            {QStringLiteral("bench"), QStringLiteral("--model"), QStringLiteral("random-tiny"),
             QStringLiteral("--tokens"), QStringLiteral("32"), QStringLiteral("--compare-llamacpp"),
             QStringLiteral("--llamacpp-modules"), nodeModules(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject out = r.lastJson();
        const QJsonObject llama = out.value(QStringLiteral("llamacpp")).toObject();
        for (const char* key :
             {"prefill_seconds", "prefill_tokens_per_s", "decode_step_seconds", "prefill_speedup",
              "decode_ratio", "decode_fraction_of_bandwidth", "gguf_mib"})
            QVERIFY2(positive(llama.value(QLatin1String(key))), key);
        for (const char* key : {"decode_fraction_of_bandwidth", "decode_bandwidth_gbs",
                                "decode_fraction_of_best_bandwidth"})
            QVERIFY2(positive(out.value(QLatin1String(key))), key);
        // Both engines' fractions are of the same limit (the triad beside the engine's steps)
        // and byte count, so they differ by the ratio of their steps.
        const double engineFraction =
            out.value(QStringLiteral("decode_fraction_of_bandwidth")).toDouble();
        const double llamaFraction =
            llama.value(QStringLiteral("decode_fraction_of_bandwidth")).toDouble();
        QVERIFY(std::abs(llamaFraction -
                         engineFraction * llama.value(QStringLiteral("decode_ratio")).toDouble()) <
                1e-9 * engineFraction);
        QCOMPARE(llama.value(QStringLiteral("prefill_tokens")).toInt(), 32);
        QCOMPARE(llama.value(QStringLiteral("decode_steps")).toInt(), 32);
        QCOMPARE(llama.value(QStringLiteral("threads")).toInt(),
                 out.value(QStringLiteral("threads")).toInt());
        QCOMPARE(llama.value(QStringLiteral("gpu")).toBool(true), false);
        // The ratios are the two engines' own figures divided.
        QVERIFY(std::abs(llama.value(QStringLiteral("prefill_speedup")).toDouble() -
                         out.value(QStringLiteral("prefill_tokens_per_s")).toDouble() /
                             llama.value(QStringLiteral("prefill_tokens_per_s")).toDouble()) <
                1e-9);
        QVERIFY(std::abs(llama.value(QStringLiteral("decode_ratio")).toDouble() -
                         out.value(QStringLiteral("decode_step_seconds")).toDouble() /
                             llama.value(QStringLiteral("decode_step_seconds")).toDouble()) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestCliLlamaCpp)
#include "tst_clillamacpp.moc"
