#pragma once

// The decode-loop set-up tst_decodingpress and tst_campress share: decode-time presses
// from the catalog, the tiny random GQA model with its context ids, and the float64
// decode a tests/reference script writes (checkpoint and expected.json) to compare with.
#include <torch/types.h> // before any Qt header: Qt's `slots` macro breaks libtorch's

#include "tinygqaconfig.h"

#include "compressors/compresseddecoding.h"
#include "compressors/decodingpress.h"
#include "compressors/presscatalog.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace kvl::test {

// The catalog's press for spec as a DecodingPress; null when spec names another kind.
inline std::unique_ptr<DecodingPress> decodingPress(const QString& spec)
{
    std::unique_ptr<Press> p = PressCatalog().press(spec);
    auto* d = dynamic_cast<DecodingPress*>(p.get());
    if (d == nullptr)
        return nullptr;
    p.release();
    return std::unique_ptr<DecodingPress>(d);
}

// n context ids spread over the tiny model's vocabulary of 50 (3, 10, 17, ...).
inline std::vector<int> contextIds(int n)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back((7 * i + 3) % 50);
    return ids;
}

inline std::vector<int> intsOf(const QJsonValue& v)
{
    std::vector<int> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

// tinyGqaConfig() with random weights (seed, scale 0.3).
inline Transformer tinyGqaModel(uint64_t seed)
{
    const ModelConfig config = tinyGqaConfig();
    return Transformer(config, randomModelWeights(config, seed, 0.3),
                       QStringLiteral("tiny/config.json"));
}

inline GenerateOptions maxNewTokens(int n)
{
    GenerateOptions options;
    options.maxNewTokens = n;
    return options;
}

// What tests/reference/<script> leaves in a temporary folder: a random Qwen2 checkpoint
// (loaded, its context prefilled) and expected.json (the question, the tokens to generate,
// the compressions and the positions each layer and kv-head keeps). run() and
// compareWith() fail the calling test through QVERIFY/QCOMPARE: check
// QTest::currentTestFailed() after each.
struct PythonDecodeReference
{
    QTemporaryDir dir;
    QJsonObject expected;
    std::unique_ptr<Transformer> model;
    ContextCache cache;
    std::vector<int> question;
    GenerateOptions options;

    void run(const QString& script)
    {
        QVERIFY(dir.isValid());
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/") + script, dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QFile file(dir.filePath(QStringLiteral("expected.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        expected = QJsonDocument::fromJson(file.readAll()).object();

        c10::InferenceMode guard;
        model = Transformer::load(dir.path());
        cache = model->prefill(intsOf(expected.value(QStringLiteral("context"))));
        question = intsOf(expected.value(QStringLiteral("question")));
        options.maxNewTokens = expected.value(QStringLiteral("max_new_tokens")).toInt();
    }

    int value(const char* key) const { return expected.value(QLatin1String(key)).toInt(); }

    // The steps of expected.json's "compressions", in order.
    QJsonArray steps() const { return expected.value(QStringLiteral("compressions")).toArray(); }

    // Same tokens, same compressions (at least 3), and at each the same positions kept by
    // every layer and kv-head.
    void compareWith(const CompressedDecoding& out) const
    {
        QCOMPARE(out.generation.ids, intsOf(expected.value(QStringLiteral("generated"))));
        const QJsonArray steps = this->steps();
        QCOMPARE(int(out.steps.size()), int(steps.size()));
        QVERIFY(steps.size() >= 3);
        for (qsizetype i = 0; i < steps.size(); ++i) {
            const QJsonObject step = steps[i].toObject();
            const DecodeCompressionStep& s = out.steps[size_t(i)];
            QCOMPARE(s.positions, step.value(QStringLiteral("positions_before")).toInteger());
            const QJsonArray layers = step.value(QStringLiteral("kept")).toArray();
            QCOMPARE(s.kept.size(0), int64_t(layers.size()));
            for (qsizetype l = 0; l < layers.size(); ++l) {
                const QJsonArray heads = layers[l].toArray();
                for (qsizetype h = 0; h < heads.size(); ++h) {
                    const at::Tensor got = s.kept[l][h].nonzero().flatten();
                    const std::vector<int64_t> gotPositions(got.data_ptr<int64_t>(),
                                                            got.data_ptr<int64_t>() + got.numel());
                    std::vector<int64_t> want;
                    for (const QJsonValue& p : heads[h].toArray())
                        want.push_back(p.toInteger());
                    QVERIFY2(gotPositions == want,
                             qPrintable(
                                 QStringLiteral("step %1 layer %2 head %3").arg(i).arg(l).arg(h)));
                }
            }
        }
    }
};

} // namespace kvl::test
