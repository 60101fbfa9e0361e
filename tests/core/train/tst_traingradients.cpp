// The trainer's loss and gradients against an independent float64 reference
// (tests/reference/make_gradient_fixture.py: Hugging Face formulas, PyTorch autograd):
// the engine's forward is what the trainer differentiates, so a path that silently
// blocks or bends a gradient (an in-place op, a detached tensor, a wrong mask) would
// train a different model than the one it runs. Every parameter is checked.
// Torch headers first: Qt's `slots` macro breaks them otherwise.
#include <torch/types.h>

#include "common/jsonio.h"
#include "train/trainablellama.h"
#include "train/trainbatch.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

class TestTrainGradients : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QProcess python;
        python.start(
            QStringLiteral("/usr/bin/python3"),
            {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/make_gradient_fixture.py"),
             m_dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    }

    void gradientsMatchReference_data()
    {
        QTest::addColumn<QString>("layout");
        // The trainer's path: the batch in length groups, each padded to its own
        // longest, losses weighted by their targets; the same gradient as one batch.
        QTest::addColumn<bool>("lengthGroups");
        QTest::newRow("llama, tied embeddings") << QStringLiteral("llama") << false;
        QTest::newRow("qwen2, q/k/v biases") << QStringLiteral("qwen2") << false;
        QTest::newRow("llama, length groups") << QStringLiteral("llama") << true;
        QTest::newRow("qwen2, length groups") << QStringLiteral("qwen2") << true;
    }

    void gradientsMatchReference()
    {
        QFETCH(QString, layout);
        QFETCH(bool, lengthGroups);
        const QDir dir(m_dir.filePath(layout));
        const QJsonObject fixture = readJsonObject(dir.filePath(QStringLiteral("batch.json")));
        std::vector<TrainSequence> sequences;
        const QJsonArray rows = fixture.value(QStringLiteral("ids")).toArray();
        const QJsonArray flags = fixture.value(QStringLiteral("supervised")).toArray();
        for (qsizetype r = 0; r < rows.size(); ++r) {
            TrainSequence s;
            const QJsonArray ids = rows[r].toArray(), sup = flags[r].toArray();
            for (qsizetype t = 0; t < ids.size(); ++t)
                s.append(ids[t].toInt(), sup[t].toInt() != 0);
            sequences.push_back(s);
        }
        QVERIFY(sequences.size() == 2 && sequences[0].ids.size() != sequences[1].ids.size());

        TrainableLlama model = TrainableLlama::load(dir.filePath(QStringLiteral("model")));
        const int pad = fixture.value(QStringLiteral("pad")).toInt();
        double loss = 0.0;
        if (lengthGroups) {
            const std::vector<TrainBatch> groups = assembleLengthGroups(sequences, pad, 4);
            QCOMPARE(int(groups.size()), 2); // one per length: no padding at all
            for (const TrainBatch& g : groups)
                QCOMPARE(g.ids.numel(), g.tokens);
            loss = backpropagateSupervisedLoss(model, groups).loss;
        } else {
            const auto [batchLoss, hits] = supervisedLoss(model, assembleBatch(sequences, pad));
            batchLoss.backward();
            loss = batchLoss.item<double>();
        }
        const double expectedLoss = fixture.value(QStringLiteral("loss")).toDouble();
        QVERIFY2(std::abs(loss - expectedLoss) < 1e-4 * expectedLoss,
                 qPrintable(QStringLiteral("loss %1, reference %2").arg(loss).arg(expectedLoss)));

        const TrainableLlama reference =
            TrainableLlama::load(dir.filePath(QStringLiteral("grads")));
        QCOMPARE(model.named().size(), reference.named().size());
        for (const auto& [name, param] : model.named()) {
            QVERIFY2(param.grad().defined(), qPrintable(name + QStringLiteral(": no gradient")));
            const torch::Tensor expected = reference.named().at(name).detach();
            const double scale = expected.abs().max().item<double>();
            const double err = (param.grad() - expected).abs().max().item<double>();
            QVERIFY2(scale > 0, qPrintable(name));
            QVERIFY2(err < 1e-3 * scale,
                     qPrintable(QStringLiteral("%1: max error %2 against max %3")
                                    .arg(name)
                                    .arg(err)
                                    .arg(scale)));
        }
    }

  private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestTrainGradients)
#include "tst_traingradients.moc"
