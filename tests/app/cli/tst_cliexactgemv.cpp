// A sweep with decode-sized products run as exactGemv equals, row for row, the same
// sweep with every product through at::linear (issue 36, item 2: answers, every metric,
// masks, attention and retrieval blobs; timings aside). On the bundled model (Qwen2
// with q/k/v biases, answers that stop at different steps, prefill-time, decode-time
// and offloading configurations, interventions) and on a random GQA checkpoint of the
// 0.5B shape (inner dimensions 896 and 4,864: several sgemm blocks per sum).
#include "clirun.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using clitest::cli;
using clitest::Result;

const QString kPython = QStringLiteral("/usr/bin/python3");

QProcessEnvironment envWith(const QString& name, const QString& value)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(name, value);
    return env;
}

} // namespace

class TestCliExactGemv : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString path(const QString& name) const { return m_tmp.filePath(name); }

  private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        if (!QFileInfo::exists(kPython))
            QSKIP("no /usr/bin/python3 to compare the run files");
    }

    void sweepRowsEqual_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("args");
        // Arguments split at spaces.
        QTest::newRow("bundled") << QStringLiteral("bundled")
                                 << QStringLiteral("--suite retrieval,instructions -n 2 --tokens "
                                                   "200:400 --press snapkv,keyrerotation(snapkv),"
                                                   "quantized,decoding(snapkv),quest,streamingllm "
                                                   "--ratios 0.5,0.8 --interventions all "
                                                   "--store-attention all")
                                        .split(u' ');
        QTest::newRow("random 0.5B shape")
            << QStringLiteral("random")
            << QStringLiteral("--suite retrieval -n 1 --tokens 300 --press "
                              "snapkv,decoding(snapkv),quest,streamingllm --ratios 0.5 "
                              "--max-new-tokens 6 --interventions none --store-attention all")
                   .split(u' ');
    }

    void sweepRowsEqual()
    {
        QFETCH(QString, model);
        QFETCH(QStringList, args);
        QString modelDir = model;
        if (model == QLatin1String("random")) {
            modelDir = path(QStringLiteral("random-0.5b"));
            const Result r = cli(
                {"random-model", "--shape", "random-0.5b", "--dtype", "F32", "--out", modelDir});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
        const QString before = path(model + QStringLiteral("-before.kvl"));
        const QString after = path(model + QStringLiteral("-after.kvl"));
        const QStringList common =
            QStringList{"run", "--model", modelDir, "--threads", "2", "--quiet"} + args;
        const Result off = cli(common + QStringList{"--out", before}, {},
                               envWith(QStringLiteral("KVLENS_EXACT_GEMV"), QStringLiteral("0")));
        QVERIFY2(off.code == 0, qPrintable(off.err));
        QVERIFY(off.lastJson()
                    .value(QStringLiteral("exact_gemv"))
                    .toString()
                    .startsWith(QStringLiteral("off")));
        const Result on = cli(common + QStringList{"--out", after});
        QVERIFY2(on.code == 0, qPrintable(on.err));
        const QString summary = on.lastJson().value(QStringLiteral("exact_gemv")).toString();
        qInfo("%s", qPrintable(summary));
        QProcess compare;
        compare.start(
            kPython,
            {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/compare_runs.py"), before, after});
        QVERIFY(compare.waitForFinished(300'000));
        const QByteArray report = compare.readAllStandardOutput();
        qInfo("%s", report.trimmed().constData());
        QVERIFY2(compare.exitCode() == 0,
                 qPrintable(QString::fromUtf8(report + compare.readAllStandardError())));
        // With OpenBLAS's FMA kernels (what kvlens-cli selects on AVX2 machines) the
        // decode steps' shapes are learned, so the comparison is not of two equal paths.
        const Result version = cli({"version"});
        const QString core = version.lastJson().value(QStringLiteral("blas_core")).toString();
        if (core == QLatin1String("Haswell") || core == QLatin1String("Zen") ||
            core == QLatin1String("SkylakeX")) {
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("learned for (\\d+) of")).match(summary);
            QVERIFY2(m.hasMatch() && m.captured(1).toInt() > 0, qPrintable(summary));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliExactGemv)
#include "tst_cliexactgemv.moc"
