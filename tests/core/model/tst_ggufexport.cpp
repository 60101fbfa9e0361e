// GGUF export (issue 36, item 4). The file writeRandomGguf writes is read back by an
// independent reader (tests/reference/gguf_reference.py: struct and array over the
// header, metadata and tensor table) against the safetensors of the same seed, for the
// qwen2, llama (rows interleaved for llama.cpp's rope, llama3 divisors, untied head)
// and qwen3 layouts in F32, F16 and BF16; bad tokenizers and bad tensors are errors
// naming what is wrong. Where node-llama-cpp is installed, llama.cpp loads the files
// and its next-token probabilities match the engine's on the same ids: tiny random
// models with weights large enough that attention and RoPE shape the answer, and the
// trained bundled model.
#include <torch/types.h> // before Qt: its `slots` macro breaks torch's headers

#include "llamacppavailable.h"

#include "checkpoint/ggufvocab.h"
#include "checkpoint/ggufwriter.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/modellocator.h"
#include "common/error.h"
#include "model/ggufmodelwriter.h"
#include "model/randomcheckpoint.h"
#include "model/transformer.h"

#include <c10/core/InferenceMode.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {

using llamacpptest::kReader;
using llamacpptest::kScript;
using llamacpptest::llamaCppMissing;
using llamacpptest::nodeModules;
const QString kPython = QStringLiteral("/usr/bin/python3");

QString bundledDir()
{
    return resolveModelDir(QStringLiteral("bundled"),
                           QStringLiteral(KVLENS_SOURCE_DIR "/resources"));
}

QString bundledTokenizer()
{
    return QDir(bundledDir()).filePath(QStringLiteral("tokenizer.json"));
}

// Tiny shapes of each layout; vocabulary 1,400 rows over the bundled tokenizer's 1,343
// tokens, so that unused rows are padded.
ModelConfig tinyConfig(Architecture a)
{
    ModelConfig c;
    c.architecture = a;
    c.architectureName = a == Architecture::Llama   ? QStringLiteral("LlamaForCausalLM")
                         : a == Architecture::Qwen3 ? QStringLiteral("Qwen3ForCausalLM")
                                                    : QStringLiteral("Qwen2ForCausalLM");
    c.vocabSize = 1400;
    c.hiddenSize = 64;
    c.intermediateSize = 96;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 16;
    c.maxPositionEmbeddings = 512;
    c.ropeTheta = 10000.0;
    c.rmsNormEps = 1e-6;
    c.tieWordEmbeddings = a != Architecture::Llama;
    c.qkNorm = a == Architecture::Qwen3;
    if (a == Architecture::Llama) {
        c.attentionBias = true; // biases are interleaved with their rows
        c.ropeScaling.type = RopeScaling::Type::Llama3;
        c.ropeScaling.factor = 8.0;
        c.ropeScaling.originalMaxPositionEmbeddings = 64; // so all three bands occur
    }
    return c;
}

QString architectureLabel(Architecture a)
{
    return a == Architecture::Llama   ? QStringLiteral("llama")
           : a == Architecture::Qwen3 ? QStringLiteral("qwen3")
                                      : QStringLiteral("qwen2");
}

// Writes DIR/st (safetensors) and DIR/gguf (GGUF) of the same seed, the bundled
// tokenizer beside the safetensors for the reader.
void writeBoth(const QString& dir, const ModelConfig& c, DType dtype, double scale)
{
    const QString st = dir + QStringLiteral("/st"), gguf = dir + QStringLiteral("/gguf");
    writeRandomCheckpoint(st, c, 7, dtype, scale);
    writeRandomGguf(gguf, c, 7, dtype, readGgufVocab(bundledTokenizer(), c), scale);
    QFile::remove(st + QStringLiteral("/tokenizer.json"));
    QVERIFY(QFile::copy(bundledTokenizer(), st + QStringLiteral("/tokenizer.json")));
}

struct Run
{
    int code = -1;
    QByteArray out;
    QString err;
};

Run run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().trimmed();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString writeTokenizer(const QString& path, const QJsonObject& json)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QJsonDocument(json).toJson());
    return path;
}

// A small byte-level BPE tokenizer.json: tokens a, b, ab and one added special token.
QJsonObject byteLevelTokenizer()
{
    return QJsonObject{
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("BPE")},
                     {QStringLiteral("vocab"), QJsonObject{{QStringLiteral("a"), 0},
                                                           {QStringLiteral("b"), 1},
                                                           {QStringLiteral("ab"), 2}}},
                     {QStringLiteral("merges"),
                      QJsonArray{QJsonArray{QStringLiteral("a"), QStringLiteral("b")}}}}},
        {QStringLiteral("pre_tokenizer"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("ByteLevel")},
                     {QStringLiteral("use_regex"), true}}},
        {QStringLiteral("added_tokens"),
         QJsonArray{QJsonObject{{QStringLiteral("id"), 3},
                                {QStringLiteral("content"), QStringLiteral("<|endoftext|>")},
                                {QStringLiteral("special"), true}}}}};
}

template <typename F> QString errorOf(F&& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.message();
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestGgufExport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(bundledTokenizer()), qPrintable(bundledTokenizer()));
    }

    void matchesSafetensors_data()
    {
        QTest::addColumn<int>("architecture");
        QTest::addColumn<int>("dtype");
        QTest::newRow("qwen2 F32") << int(Architecture::Qwen2) << int(DType::F32);
        QTest::newRow("qwen2 F16") << int(Architecture::Qwen2) << int(DType::F16);
        QTest::newRow("qwen2 BF16") << int(Architecture::Qwen2) << int(DType::BF16);
        QTest::newRow("llama BF16") << int(Architecture::Llama) << int(DType::BF16);
        QTest::newRow("llama F32") << int(Architecture::Llama) << int(DType::F32);
        QTest::newRow("qwen3 F16") << int(Architecture::Qwen3) << int(DType::F16);
    }

    // The independent reader finds every tensor of the safetensors file, by llama.cpp's
    // name, with the same values.
    void matchesSafetensors()
    {
        if (!QFileInfo(kPython).isExecutable())
            QSKIP("no /usr/bin/python3");
        QFETCH(int, architecture);
        QFETCH(int, dtype);
        const auto a = Architecture(architecture);
        const QString dir = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())
                                               .replace(QLatin1Char(' '), QLatin1Char('-')));
        writeBoth(dir, tinyConfig(a), DType(dtype), 0.02);
        const Run r = run(kPython, {kReader, dir + QStringLiteral("/gguf/model.gguf"),
                                    dir + QStringLiteral("/st")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject summary = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(summary.value(QStringLiteral("architecture")).toString(), architectureLabel(a));
        QCOMPARE(summary.value(QStringLiteral("tokens")).toInt(), 1400);
        // token_embd, output_norm, 2 x (9 .. 11) per layer, output and rope_freqs for llama.
        QVERIFY(summary.value(QStringLiteral("tensors")).toInt() >= 2 + 2 * 9);
    }

    // The reader is not fooled: a GGUF of another seed differs from the safetensors.
    void readerSeesOtherValues()
    {
        if (!QFileInfo(kPython).isExecutable())
            QSKIP("no /usr/bin/python3");
        const ModelConfig c = tinyConfig(Architecture::Qwen2);
        const QString dir = m_dir.filePath(QStringLiteral("other-seed"));
        writeBoth(dir, c, DType::F32, 0.02);
        writeRandomGguf(dir + QStringLiteral("/gguf"), c, 8, DType::F32,
                        readGgufVocab(bundledTokenizer(), c));
        const Run r = run(kPython, {kReader, dir + QStringLiteral("/gguf/model.gguf"),
                                    dir + QStringLiteral("/st")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("differs at element")), qPrintable(r.err));
    }

    void vocabulary()
    {
        ModelConfig c = tinyConfig(Architecture::Qwen2);
        c.vocabSize = 6;
        const QString path =
            writeTokenizer(m_dir.filePath(QStringLiteral("bytelevel.json")), byteLevelTokenizer());
        const GgufVocab v = readGgufVocab(path, c);
        QCOMPARE(v.pre, QStringLiteral("gpt-2"));
        QCOMPARE(v.tokens, (QStringList{"a", "b", "ab", "<|endoftext|>", "[PAD4]", "[PAD5]"}));
        QCOMPARE(v.tokenTypes, (std::vector<int32_t>{1, 1, 1, 3, 5, 5}));
        QCOMPARE(v.merges, QStringList{QStringLiteral("a b")});
        QCOMPARE(v.eosId, std::optional<int>(3));
        QVERIFY(!v.bosId);

        const GgufVocab bundled =
            readGgufVocab(bundledTokenizer(), tinyConfig(Architecture::Qwen2));
        QCOMPARE(bundled.pre, QStringLiteral("qwen2"));
        QCOMPARE(bundled.bosId, std::optional<int>(0)); // its post-processor's <|bos|>
        QVERIFY(bundled.addBos);
        QCOMPARE(bundled.eosId, std::optional<int>(1));
    }

    void vocabularyErrors()
    {
        ModelConfig c = tinyConfig(Architecture::Qwen2);
        c.vocabSize = 3; // the added token's id 3 does not fit
        const QString path =
            writeTokenizer(m_dir.filePath(QStringLiteral("small.json")), byteLevelTokenizer());
        QString e = errorOf([&] { readGgufVocab(path, c); });
        QVERIFY2(e.contains(path) && e.contains(QLatin1String("outside the model's 3 rows")),
                 qPrintable(e));

        QJsonObject spm = byteLevelTokenizer();
        QJsonObject model = spm.value(QStringLiteral("model")).toObject();
        model.insert(QStringLiteral("byte_fallback"), true);
        spm.insert(QStringLiteral("model"), model);
        spm.insert(QStringLiteral("pre_tokenizer"),
                   QJsonObject{{QStringLiteral("type"), QStringLiteral("Metaspace")}});
        const QString spmPath = writeTokenizer(m_dir.filePath(QStringLiteral("spm.json")), spm);
        c.vocabSize = 8;
        e = errorOf([&] { readGgufVocab(spmPath, c); });
        QVERIFY2(e.contains(spmPath) && e.contains(QLatin1String("not a byte-level BPE")),
                 qPrintable(e));

        QJsonObject twice = byteLevelTokenizer();
        QJsonArray added = twice.value(QStringLiteral("added_tokens")).toArray();
        added.append(QJsonObject{{QStringLiteral("id"), 4},
                                 {QStringLiteral("content"), QStringLiteral("ab")}});
        twice.insert(QStringLiteral("added_tokens"), added);
        const QString twicePath =
            writeTokenizer(m_dir.filePath(QStringLiteral("twice.json")), twice);
        e = errorOf([&] { readGgufVocab(twicePath, c); });
        QVERIFY2(e.contains(twicePath) && e.contains(QLatin1String("two ids")), qPrintable(e));

        // A vocabulary of another size than the embedding is refused before writing.
        const GgufVocab v = readGgufVocab(m_dir.filePath(QStringLiteral("small.json")), c);
        e = errorOf(
            [&] { GgufModelWriter(tinyConfig(Architecture::Qwen2), v, QStringLiteral("x")); });
        QVERIFY2(e.contains(QLatin1String("8 tokens, the model 1400 rows")), qPrintable(e));
    }

    void writerErrors()
    {
        GgufWriter w;
        const QByteArray four(16, '\0');
        w.addTensor(QStringLiteral("t"), DType::F32, {2, 2}, four);
        QVERIFY(errorOf([&] {
                    w.addTensor(QStringLiteral("t"), DType::F32, {4}, four);
                }).contains(QLatin1String("added twice")));
        QVERIFY(errorOf([&] {
                    w.addTensor(QStringLiteral("u"), DType::F32, {3}, four);
                }).contains(QLatin1String("needs 12 bytes, got 16")));
        QVERIFY(errorOf([&] {
                    w.addTensor(QString(64, QLatin1Char('n')), DType::F32, {4}, four);
                }).contains(QLatin1String("1 to 63 bytes")));
        QVERIFY(errorOf([&] {
                    w.addTensor(QStringLiteral("v"), DType::I32, {4}, four);
                }).contains(QLatin1String("not I32")));
        QVERIFY(errorOf([&] {
                    w.setUint32(QStringLiteral("general.alignment"), 64);
                }).contains(QLatin1String("set twice")));
        QCOMPARE(
            GgufModelWriter::tensorName(QStringLiteral("model.layers.11.mlp.down_proj.weight")),
            QStringLiteral("blk.11.ffn_down.weight"));
        QVERIFY(GgufModelWriter::tensorName(QStringLiteral("model.layers.0.mlp.experts.weight"))
                    .isEmpty());
        const QString missing = m_dir.filePath(QStringLiteral("no/such/dir/model.gguf"));
        QVERIFY(errorOf([&] { w.write(missing); }).contains(missing));
    }

    void llamaCppComputesTheSameFunction_data()
    {
        QTest::addColumn<QString>("model"); // an architecture, or "bundled"
        QTest::newRow("qwen2") << QStringLiteral("qwen2");
        QTest::newRow("llama") << QStringLiteral("llama");
        QTest::newRow("qwen3") << QStringLiteral("qwen3");
        QTest::newRow("bundled") << QStringLiteral("bundled");
    }

    // The engine and llama.cpp give the same next-token distribution on the same ids:
    // the log-probabilities of llama.cpp's ten likeliest tokens agree within 0.02 (its
    // keys and values are cached in F16), far inside what a wrong rope layout, a missed
    // bias or norm, or a transposed matrix changes.
    void llamaCppComputesTheSameFunction()
    {
        const QString missing = llamaCppMissing();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        QFETCH(QString, model);
        const QString dir = m_dir.filePath(QStringLiteral("same-") + model);
        QVERIFY(QDir().mkpath(dir));
        QString st = dir + QStringLiteral("/st");
        const QString gguf = dir + QStringLiteral("/model.gguf");
        std::unique_ptr<Transformer> engine;
        if (model == QLatin1String("bundled")) {
            st = bundledDir();
            engine = Transformer::load(st);
            GgufModelWriter writer(engine->config(),
                                   readGgufVocab(bundledTokenizer(), engine->config()),
                                   QStringLiteral("kvlens-tiny"));
            writer.addModel(*engine);
            writer.write(gguf);
        } else {
            const Architecture a = model == QLatin1String("llama")   ? Architecture::Llama
                                   : model == QLatin1String("qwen3") ? Architecture::Qwen3
                                                                     : Architecture::Qwen2;
            // Weights of 0.25: attention far from uniform, logits spread over the vocabulary.
            writeRandomCheckpoint(st, tinyConfig(a), 11, DType::F32, 0.25);
            engine = Transformer::load(st);
            const GgufVocab vocab = readGgufVocab(bundledTokenizer(), engine->config());
            GgufModelWriter writer(engine->config(), vocab, model);
            writer.addModel(*engine);
            writer.write(gguf);
        }
        // 96 ids: past the llama shape's 64 original positions, so every rope band counts.
        std::vector<int> ids;
        QJsonArray idsJson;
        for (int i = 0; i < 96; ++i) {
            ids.push_back((i * 131 + 17) % 1300 + 3);
            idsJson.append(ids.back());
        }
        const QString idsPath = dir + QStringLiteral("/ids.json");
        {
            QFile f(idsPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(idsJson).toJson());
        }
        const Run r = run(llamacpptest::node(),
                          {kScript, QStringLiteral("--mode"), QStringLiteral("check"),
                           QStringLiteral("--modules"), nodeModules(), QStringLiteral("--model"),
                           gguf, QStringLiteral("--ids"), idsPath, QStringLiteral("--threads"),
                           QStringLiteral("2"), QStringLiteral("--top"), QStringLiteral("10"),
                           QStringLiteral("--generate"), QStringLiteral("4")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(out.value(QStringLiteral("gpu")).toBool(true), false);
        QCOMPARE(out.value(QStringLiteral("generated")).toArray().size(), 4);

        c10::InferenceMode guard;
        const at::Tensor logProbs = engine->forward(ids)[-1].log_softmax(-1);
        const QJsonArray top = out.value(QStringLiteral("top")).toArray();
        QCOMPARE(top.size(), 10);
        double worst = 0.0;
        for (const QJsonValue& entry : top) {
            const int id = entry.toArray().at(0).toInt();
            const double p = entry.toArray().at(1).toDouble();
            QVERIFY(p > 0.0);
            worst = std::max(worst, std::abs(std::log(p) - logProbs[id].item<double>()));
        }
        qInfo("%s: llama.cpp's top token %d (p %.4f), the engine's %lld; worst log-prob "
              "difference %.2e",
              qPrintable(model), top.at(0).toArray().at(0).toInt(),
              top.at(0).toArray().at(1).toDouble(), (long long)logProbs.argmax().item<int64_t>(),
              worst);
        QVERIFY2(worst < 0.02, qPrintable(QString::number(worst)));
        // The likeliest token is the same unless the engine sees a near tie.
        const at::Tensor best = std::get<0>(logProbs.topk(2));
        if ((best[0] - best[1]).item<double>() > 0.05)
            QCOMPARE(top.at(0).toArray().at(0).toInt(), int(logProbs.argmax().item<int64_t>()));
    }
};

QTEST_GUILESS_MAIN(TestGgufExport)
#include "tst_ggufexport.moc"
