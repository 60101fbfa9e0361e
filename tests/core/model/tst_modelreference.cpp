// Logits of small random-weight checkpoints of every family against an independent
// float64 reference (tests/reference/make_model_fixtures.py, written from the Hugging
// Face formulas), and the loader's errors on broken checkpoints.
// torch before any Qt header: Qt's `slots` macro breaks torch's headers.
#include <torch/types.h>

#include "common/error.h"
#include "model/transformer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TestModelReference : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/make_model_fixtures.py"),
                      m_dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    }

    void logitsMatchReference_data()
    {
        QTest::addColumn<QString>("family");
        QTest::newRow("llama3 rope scaling") << QStringLiteral("llama3");
        QTest::newRow("mistral bf16") << QStringLiteral("mistral_bf16");
        QTest::newRow("qwen2 biases, tied") << QStringLiteral("qwen2_tied");
        QTest::newRow("qwen3 qk-norm, head_dim") << QStringLiteral("qwen3");
    }

    void logitsMatchReference()
    {
        QFETCH(QString, family);
        const QString dir = m_dir.filePath(family);
        QFile expectedJson(dir + QStringLiteral("/expected.json"));
        QVERIFY(expectedJson.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(expectedJson.readAll()).object();
        std::vector<int> ids;
        for (const QJsonValue& v : expected.value(QStringLiteral("ids")).toArray())
            ids.push_back(v.toInt());
        const QJsonArray shape = expected.value(QStringLiteral("shape")).toArray();
        QFile logitsFile(dir + QStringLiteral("/expected_logits.f32"));
        QVERIFY(logitsFile.open(QIODevice::ReadOnly));
        QByteArray bytes = logitsFile.readAll();
        QCOMPARE(bytes.size(), qsizetype(shape[0].toInt() * shape[1].toInt() * 4));
        const at::Tensor reference =
            at::from_blob(bytes.data(), {shape[0].toInt(), shape[1].toInt()}, at::kFloat).clone();

        std::unique_ptr<Transformer> model = Transformer::load(dir);
        c10::InferenceMode guard;
        const at::Tensor logits = model->forward(ids);
        QCOMPARE(logits.sizes(), reference.sizes());
        const double diff = (logits - reference).abs().max().item<double>();
        QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("max |diff| %1").arg(diff)));
        // The reference is not trivially flat: logits vary by more than the tolerance.
        QVERIFY(reference.std().item<double>() > 0.1);

        // Blocked attention (3 query rows per block) gives the same logits.
        model->setBlockRows(3);
        const double blocked = (model->forward(ids) - reference).abs().max().item<double>();
        QVERIFY2(blocked < 1e-4, qPrintable(QStringLiteral("blocked max |diff| %1").arg(blocked)));
    }

    void brokenCheckpointsNameFileAndTensor_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("tensor");
        QTest::newRow("missing") << QStringLiteral("broken_missing")
                                 << QStringLiteral("model.layers.1.mlp.up_proj.weight");
        QTest::newRow("mis-shaped") << QStringLiteral("broken_shape")
                                    << QStringLiteral("model.layers.0.self_attn.k_proj.weight");
    }

    void brokenCheckpointsNameFileAndTensor()
    {
        QFETCH(QString, name);
        QFETCH(QString, tensor);
        try {
            Transformer::load(m_dir.filePath(name));
            QFAIL("loading a broken checkpoint did not throw");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(tensor), qPrintable(e.message()));
            QVERIFY2(e.message().contains(name), qPrintable(e.message()));
        }
    }

  private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestModelReference)
#include "tst_modelreference.moc"
