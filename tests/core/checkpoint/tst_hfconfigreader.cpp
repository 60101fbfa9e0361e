// config.json -> ModelConfig: released configs of each family (values checked against
// the published model cards), transformers' defaults, rope scaling variants, and the
// errors for configs the engine cannot run.
#include "checkpoint/hfconfigreader.h"
#include "checkpoint/hfconfigwriter.h"
#include "common/error.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

Q_DECLARE_METATYPE(kvl::Architecture)
Q_DECLARE_METATYPE(kvl::RopeScaling::Type)
Q_DECLARE_METATYPE(std::vector<int>)

namespace {
const QString kConfigs = QStringLiteral(KVLENS_TEST_DATA "/checkpoint/configs/");

// A minimal valid Llama config with `extra` merged over it (a null value removes a key).
QJsonObject llamaWith(const QByteArray& extraJson = "{}")
{
    QJsonObject o = QJsonDocument::fromJson(R"({"architectures": ["LlamaForCausalLM"],
        "vocab_size": 100, "hidden_size": 64, "intermediate_size": 160,
        "num_hidden_layers": 2, "num_attention_heads": 4})")
                        .object();
    const QJsonObject extra = QJsonDocument::fromJson(extraJson).object();
    Q_ASSERT(!QJsonDocument::fromJson(extraJson).isNull());
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (it.value().isNull() && it.key() != QLatin1String("rope_scaling"))
            o.remove(it.key());
        else
            o.insert(it.key(), it.value());
    }
    return o;
}
} // namespace

class TestHfConfigReader : public QObject
{
    Q_OBJECT

  private slots:
    void releasedConfigs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<Architecture>("arch");
        QTest::addColumn<int>("vocab");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("intermediate");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<int>("maxPos");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("eps");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("qkNorm");
        QTest::addColumn<int>("slidingWindow"); // -1: none
        QTest::addColumn<RopeScaling::Type>("rope");
        QTest::addColumn<std::vector<int>>("eos");
        QTest::addColumn<QString>("dtype");
        QTest::newRow("Qwen2.5-0.5B")
            << "qwen2.5-0.5b-instruct.json" << Architecture::Qwen2 << 151936 << 896 << 4864 << 24
            << 14 << 2 << 64 << 32768 << 1e6 << 1e-6 << true << true << false << -1
            << RopeScaling::Type::None << std::vector<int>{151645} << "bfloat16";
        QTest::newRow("Llama-3.2-1B")
            << "llama-3.2-1b-instruct.json" << Architecture::Llama << 128256 << 2048 << 8192 << 16
            << 32 << 8 << 64 << 131072 << 5e5 << 1e-5 << true << false << false << -1
            << RopeScaling::Type::Llama3 << std::vector<int>{128001, 128008, 128009} << "bfloat16";
        QTest::newRow("Llama-2-7B")
            << "llama-2-7b.json" << Architecture::Llama << 32000 << 4096 << 11008 << 32 << 32 << 32
            << 128 << 4096 << 1e4 << 1e-5 << false << false << false << -1
            << RopeScaling::Type::None << std::vector<int>{2} << "float16";
        QTest::newRow("Mistral-7B")
            << "mistral-7b-v0.1.json" << Architecture::Mistral << 32000 << 4096 << 14336 << 32 << 32
            << 8 << 128 << 32768 << 1e4 << 1e-5 << false << false << false << 4096
            << RopeScaling::Type::None << std::vector<int>{2} << "bfloat16";
        QTest::newRow("Qwen3-0.6B")
            << "qwen3-0.6b.json" << Architecture::Qwen3 << 151936 << 1024 << 3072 << 28 << 16 << 8
            << 128 << 40960 << 1e6 << 1e-6 << true << false << true << -1 << RopeScaling::Type::None
            << std::vector<int>{151645} << "bfloat16";
    }
    void releasedConfigs()
    {
        QFETCH(QString, file);
        const ModelConfig c = loadModelConfig(kConfigs + file);
        QTEST(c.architecture, "arch");
        QCOMPARE(c.architectureName, architectureClassName(c.architecture));
        QTEST(c.vocabSize, "vocab");
        QTEST(c.hiddenSize, "hidden");
        QTEST(c.intermediateSize, "intermediate");
        QTEST(c.numLayers, "layers");
        QTEST(c.numHeads, "heads");
        QTEST(c.numKvHeads, "kvHeads");
        QTEST(c.headDim, "headDim");
        QTEST(c.maxPositionEmbeddings, "maxPos");
        QTEST(c.ropeTheta, "theta");
        QTEST(c.rmsNormEps, "eps");
        QTEST(c.tieWordEmbeddings, "tied");
        QTEST(c.attentionBias, "bias");
        QTEST(c.qkNorm, "qkNorm");
        QTEST(c.slidingWindow.value_or(-1), "slidingWindow");
        QTEST(c.ropeScaling.type, "rope");
        QTEST(c.eosTokenIds, "eos");
        QTEST(c.torchDtype, "dtype");
    }

    void llama3RopeScalingValues()
    {
        const ModelConfig c = loadModelConfig(kConfigs + "llama-3.2-1b-instruct.json");
        QCOMPARE(c.ropeScaling.factor, 32.0);
        QCOMPARE(c.ropeScaling.lowFreqFactor, 1.0);
        QCOMPARE(c.ropeScaling.highFreqFactor, 4.0);
        QCOMPARE(c.ropeScaling.originalMaxPositionEmbeddings, 8192);
        QCOMPARE(c.bosTokenId, std::optional<int>(128000));
    }

    void defaults()
    {
        const ModelConfig c = parseModelConfig(llamaWith(), QStringLiteral("config.json"));
        QCOMPARE(c.architecture, Architecture::Llama);
        QCOMPARE(c.numKvHeads, 4); // = heads
        QCOMPARE(c.headDim, 16);   // 64 / 4
        QCOMPARE(c.ropeTheta, 10000.0);
        QCOMPARE(c.rmsNormEps, 1e-6);
        QCOMPARE(c.maxPositionEmbeddings, 2048); // LlamaConfig's default
        QCOMPARE(c.tieWordEmbeddings, false);
        QCOMPARE(c.attentionBias, false);
        QCOMPARE(c.qkNorm, false);
        QCOMPARE(c.ropeScaling.type, RopeScaling::Type::None);
        QVERIFY(!c.slidingWindow);
        QVERIFY(!c.bosTokenId);
        QVERIFY(c.eosTokenIds.empty());
        QVERIFY(c.torchDtype.isEmpty());
    }

    void familySwitches_data()
    {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<Architecture>("arch");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("qkNorm");
        QTest::addColumn<int>("slidingWindow");
        QTest::addColumn<int>("headDim");
        QTest::newRow("model_type only: mistral")
            << QByteArray(
                   R"({"architectures": null, "model_type": "mistral", "sliding_window": null})")
            << Architecture::Mistral << false << false << -1 << 16;
        QTest::newRow("mistral sliding window")
            << QByteArray(R"({"architectures": ["MistralForCausalLM"], "sliding_window": 32})")
            << Architecture::Mistral << false << false << 32 << 16;
        QTest::newRow("qwen2 always has biases")
            << QByteArray(R"({"architectures": ["Qwen2ForCausalLM"], "sliding_window": 32})")
            << Architecture::Qwen2 << true << false << -1 << 16;
        QTest::newRow("qwen2 use_sliding_window")
            << QByteArray(R"({"model_type": "qwen2", "architectures": null,
                              "use_sliding_window": true, "sliding_window": 32})")
            << Architecture::Qwen2 << true << false << 32 << 16;
        QTest::newRow("qwen3 explicit head_dim")
            << QByteArray(R"({"architectures": ["Qwen3ForCausalLM"], "head_dim": 32})")
            << Architecture::Qwen3 << false << true << -1 << 32;
        QTest::newRow("qwen3 attention_bias")
            << QByteArray(R"({"architectures": ["Qwen3ForCausalLM"], "attention_bias": true})")
            << Architecture::Qwen3 << true << true << -1 << 16;
        QTest::newRow("llama attention_bias") << QByteArray(R"({"attention_bias": true})")
                                              << Architecture::Llama << true << false << -1 << 16;
    }
    void familySwitches()
    {
        QFETCH(QByteArray, extra);
        const ModelConfig c = parseModelConfig(llamaWith(extra), QStringLiteral("config.json"));
        QTEST(c.architecture, "arch");
        QTEST(c.attentionBias, "bias");
        QTEST(c.qkNorm, "qkNorm");
        QTEST(c.slidingWindow.value_or(-1), "slidingWindow");
        QTEST(c.headDim, "headDim");
    }

    void ropeScaling_data()
    {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<RopeScaling::Type>("type");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("original");
        QTest::addColumn<double>("theta");
        QTest::newRow("null") << QByteArray(R"({"rope_scaling": null})") << RopeScaling::Type::None
                              << 1.0 << 1.0 << 4.0 << 8192 << 1e4;
        QTest::newRow("linear via type")
            << QByteArray(R"({"rope_scaling": {"type": "linear", "factor": 2.0}})")
            << RopeScaling::Type::Linear << 2.0 << 1.0 << 4.0 << 8192 << 1e4;
        QTest::newRow("linear via rope_type")
            << QByteArray(
                   R"({"rope_scaling": {"rope_type": "linear", "factor": 4}, "rope_theta": 5e5})")
            << RopeScaling::Type::Linear << 4.0 << 1.0 << 4.0 << 8192 << 5e5;
        QTest::newRow("default type means none")
            << QByteArray(R"({"rope_scaling": {"rope_type": "default"}})")
            << RopeScaling::Type::None << 1.0 << 1.0 << 4.0 << 8192 << 1e4;
        QTest::newRow("llama3") << QByteArray(
                                       R"({"rope_scaling": {"rope_type": "llama3", "factor": 8.0,
                 "low_freq_factor": 2.0, "high_freq_factor": 8.0,
                 "original_max_position_embeddings": 4096}})")
                                << RopeScaling::Type::Llama3 << 8.0 << 2.0 << 8.0 << 4096 << 1e4;
        QTest::newRow("transformers 5 rope_parameters")
            << QByteArray(R"({"rope_parameters": {"rope_type": "linear", "factor": 3.0,
                 "rope_theta": 250000.0}})")
            << RopeScaling::Type::Linear << 3.0 << 1.0 << 4.0 << 8192 << 2.5e5;
    }
    void ropeScaling()
    {
        QFETCH(QByteArray, extra);
        const ModelConfig c = parseModelConfig(llamaWith(extra), QStringLiteral("config.json"));
        QTEST(c.ropeScaling.type, "type");
        QTEST(c.ropeScaling.factor, "factor");
        QTEST(c.ropeScaling.lowFreqFactor, "low");
        QTEST(c.ropeScaling.highFreqFactor, "high");
        QTEST(c.ropeScaling.originalMaxPositionEmbeddings, "original");
        QTEST(c.ropeTheta, "theta");
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("unknown architecture")
            << QByteArray(R"({"architectures": ["GPT2LMHeadModel"]})")
            << QStringList{"unknown architecture 'GPT2LMHeadModel'", "LlamaForCausalLM",
                           "MistralForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM"};
        QTest::newRow("unknown model_type")
            << QByteArray(R"({"architectures": null, "model_type": "gemma"})")
            << QStringList{"model_type 'gemma'", "Qwen3ForCausalLM"};
        QTest::newRow("no architecture at all") << QByteArray(R"({"architectures": null})")
                                                << QStringList{"architectures", "model_type"};
        QTest::newRow("missing vocab")
            << QByteArray(R"({"vocab_size": null})") << QStringList{"'vocab_size'", "missing"};
        QTest::newRow("string size") << QByteArray(R"({"hidden_size": "64"})")
                                     << QStringList{"'hidden_size'", "integer", "\"64\""};
        QTest::newRow("fractional size") << QByteArray(R"({"num_hidden_layers": 2.5})")
                                         << QStringList{"'num_hidden_layers'", "2.5"};
        QTest::newRow("zero layers") << QByteArray(R"({"num_hidden_layers": 0})")
                                     << QStringList{"'num_hidden_layers'", "positive"};
        QTest::newRow("negative vocab")
            << QByteArray(R"({"vocab_size": -5})") << QStringList{"'vocab_size'", "positive"};
        QTest::newRow("kv heads do not divide heads")
            << QByteArray(R"({"num_key_value_heads": 3})")
            << QStringList{"'num_key_value_heads'", "(3) must divide num_attention_heads (4)"};
        QTest::newRow("heads do not divide hidden")
            << QByteArray(R"({"num_attention_heads": 5, "num_key_value_heads": 5})")
            << QStringList{"'num_attention_heads'", "hidden_size (64)"};
        QTest::newRow("odd head_dim")
            << QByteArray(R"({"head_dim": 15})") << QStringList{"'head_dim'", "even"};
        QTest::newRow("unknown rope type")
            << QByteArray(R"({"rope_scaling": {"rope_type": "yarn", "factor": 4}})")
            << QStringList{"rope_scaling", "'yarn'", "linear, llama3"};
        QTest::newRow("linear without factor")
            << QByteArray(R"({"rope_scaling": {"type": "linear"}})")
            << QStringList{"'rope_scaling.factor'", "missing"};
        QTest::newRow("llama3 incomplete")
            << QByteArray(
                   R"({"rope_scaling": {"rope_type": "llama3", "factor": 8, "low_freq_factor": 1,
                                               "high_freq_factor": 4}})")
            << QStringList{"'rope_scaling.original_max_position_embeddings'", "missing"};
        QTest::newRow("llama3 high below low")
            << QByteArray(
                   R"({"rope_scaling": {"rope_type": "llama3", "factor": 8, "low_freq_factor": 4,
                              "high_freq_factor": 1, "original_max_position_embeddings": 8192}})")
            << QStringList{"'rope_scaling.high_freq_factor'", "greater than low_freq_factor"};
        QTest::newRow("rope_scaling not an object")
            << QByteArray(R"({"rope_scaling": 2})")
            << QStringList{"'rope_scaling'", "object or null"};
        QTest::newRow("gelu") << QByteArray(R"({"hidden_act": "gelu"})")
                              << QStringList{"'hidden_act'", "'gelu'", "silu"};
        QTest::newRow("mlp bias") << QByteArray(R"({"mlp_bias": true})")
                                  << QStringList{"'mlp_bias'"};
        QTest::newRow("bad eos") << QByteArray(R"({"eos_token_id": ["x"]})")
                                 << QStringList{"'eos_token_id'", "integer"};
        // Values that parse but no model has: each named with its bounds.
        QTest::newRow("eos beyond vocab")
            << QByteArray(R"({"eos_token_id": 100})")
            << QStringList{"'eos_token_id'", "[0, vocab_size 100)", "got 100"};
        QTest::newRow("negative eos")
            << QByteArray(R"({"eos_token_id": -1})") << QStringList{"'eos_token_id'", "got -1"};
        QTest::newRow("eos list beyond vocab") << QByteArray(R"({"eos_token_id": [2, 512]})")
                                               << QStringList{"'eos_token_id'", "got 512"};
        QTest::newRow("bos beyond vocab")
            << QByteArray(R"({"bos_token_id": 1000})") << QStringList{"'bos_token_id'", "got 1000"};
        QTest::newRow("huge rms_norm_eps") << QByteArray(R"({"rms_norm_eps": 256})")
                                           << QStringList{"'rms_norm_eps'", "(0, 0.1]", "got 256"};
        QTest::newRow("huge rope_theta") << QByteArray(R"({"rope_theta": 1e308})")
                                         << QStringList{"'rope_theta'", "(1, 1e+12]", "1e+308"};
        QTest::newRow("rope_theta below one")
            << QByteArray(R"({"rope_theta": 0.5})") << QStringList{"'rope_theta'", "got 0.5"};
        QTest::newRow("bad tie") << QByteArray(R"({"tie_word_embeddings": 1})")
                                 << QStringList{"'tie_word_embeddings'", "true or false"};
        QTest::newRow("zero sliding window")
            << QByteArray(R"({"architectures": ["MistralForCausalLM"], "sliding_window": 0})")
            << QStringList{"'sliding_window'", "positive"};
    }
    void errors()
    {
        QFETCH(QByteArray, extra);
        QFETCH(QStringList, expected);
        const QString path = QStringLiteral("/models/x/config.json");
        try {
            parseModelConfig(llamaWith(extra), path);
            QFAIL("no kvl::Error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(path + QStringLiteral(": ")), qPrintable(e.message()));
            for (const QString& part : expected)
                QVERIFY2(e.message().contains(part),
                         qPrintable(QStringLiteral("'%1' not in: %2").arg(part, e.message())));
        }
    }

    void fileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("config.json"));
        QVERIFY_THROWS_EXCEPTION(Error, loadModelConfig(missing));
        try {
            loadModelConfig(missing);
        } catch (const Error& e) {
            QVERIFY(e.message().contains(missing));
        }
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"architectures\": [");
        f.close();
        try {
            loadModelConfig(bad);
            QFAIL("no kvl::Error");
        } catch (const Error& e) {
            QVERIFY(e.message().contains(bad));
            QVERIFY(e.message().contains(QStringLiteral("malformed JSON")));
        }
    }

    void writerRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("qwen2") << "qwen2.5-0.5b-instruct.json";
        QTest::newRow("llama3") << "llama-3.2-1b-instruct.json";
        QTest::newRow("llama2") << "llama-2-7b.json";
        QTest::newRow("mistral") << "mistral-7b-v0.1.json";
        QTest::newRow("qwen3") << "qwen3-0.6b.json";
    }
    void writerRoundTrip()
    {
        QFETCH(QString, file);
        const ModelConfig a = loadModelConfig(kConfigs + file);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeModelConfig(path, a);
        const ModelConfig b = loadModelConfig(path);
        QCOMPARE(b.architecture, a.architecture);
        QCOMPARE(b.architectureName, a.architectureName);
        QCOMPARE(b.vocabSize, a.vocabSize);
        QCOMPARE(b.hiddenSize, a.hiddenSize);
        QCOMPARE(b.intermediateSize, a.intermediateSize);
        QCOMPARE(b.numLayers, a.numLayers);
        QCOMPARE(b.numHeads, a.numHeads);
        QCOMPARE(b.numKvHeads, a.numKvHeads);
        QCOMPARE(b.headDim, a.headDim);
        QCOMPARE(b.maxPositionEmbeddings, a.maxPositionEmbeddings);
        QCOMPARE(b.rmsNormEps, a.rmsNormEps);
        QCOMPARE(b.ropeTheta, a.ropeTheta);
        QCOMPARE(b.ropeScaling.type, a.ropeScaling.type);
        QCOMPARE(b.ropeScaling.factor, a.ropeScaling.factor);
        QCOMPARE(b.ropeScaling.lowFreqFactor, a.ropeScaling.lowFreqFactor);
        QCOMPARE(b.ropeScaling.highFreqFactor, a.ropeScaling.highFreqFactor);
        QCOMPARE(b.ropeScaling.originalMaxPositionEmbeddings,
                 a.ropeScaling.originalMaxPositionEmbeddings);
        QCOMPARE(b.tieWordEmbeddings, a.tieWordEmbeddings);
        QCOMPARE(b.attentionBias, a.attentionBias);
        QCOMPARE(b.qkNorm, a.qkNorm);
        QCOMPARE(b.slidingWindow, a.slidingWindow);
        QCOMPARE(b.bosTokenId, a.bosTokenId);
        QCOMPARE(b.eosTokenIds, a.eosTokenIds);
        QCOMPARE(b.torchDtype, a.torchDtype);
    }
};

QTEST_GUILESS_MAIN(TestHfConfigReader)
#include "tst_hfconfigreader.moc"
