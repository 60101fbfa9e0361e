// Model directories: single-file and sharded weights, tensor lookup with shape
// checks, parameter count, identity hash, and every broken directory's error.
#include "checkpoint/checkpointdir.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {
// vocab 10, hidden 8, 2 heads of 4.
QByteArray configJson(bool tied)
{
    return QByteArray(R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 10, "hidden_size": 8,
        "intermediate_size": 16, "num_hidden_layers": 1, "num_attention_heads": 2,
        "tie_word_embeddings": )") +
           (tied ? "true" : "false") + "}";
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

QByteArray floats(int n, float start)
{
    QByteArray bytes(n * 4, '\0');
    float* p = reinterpret_cast<float*>(bytes.data());
    for (int i = 0; i < n; ++i)
        p[i] = start + float(i);
    return bytes;
}

// Element counts: embed 80, norm 8, q_proj 64, lm_head 80.
void addEmbedAndNorm(SafetensorsWriter& w)
{
    w.add(QStringLiteral("model.embed_tokens.weight"), DType::F32, {10, 8}, floats(80, 0));
    w.add(QStringLiteral("model.norm.weight"), DType::BF16, {8}, QByteArray(16, '\x3f'));
}
void addProjections(SafetensorsWriter& w)
{
    w.add(QStringLiteral("model.layers.0.self_attn.q_proj.weight"), DType::F16, {8, 8},
          QByteArray(128, '\0'));
    w.add(QStringLiteral("lm_head.weight"), DType::F32, {10, 8}, floats(80, 100));
}

template <typename Fn> void expectError(Fn fn, const QStringList& parts)
{
    try {
        fn();
        QFAIL("no kvl::Error thrown");
    } catch (const Error& e) {
        for (const QString& part : parts)
            QVERIFY2(e.message().contains(part),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(part, e.message())));
    }
}
} // namespace

class TestCheckpointDir : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    int m_count = 0;

    QString newDir()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("m%1").arg(m_count++));
        QDir().mkpath(dir);
        return dir;
    }
    QString singleFileModel(bool tied = false)
    {
        const QString dir = newDir();
        writeFile(dir + "/config.json", configJson(tied));
        SafetensorsWriter w;
        addEmbedAndNorm(w);
        addProjections(w);
        w.write(dir + "/model.safetensors");
        return dir;
    }
    QString shardedModel()
    {
        const QString dir = newDir();
        writeFile(dir + "/config.json", configJson(false));
        SafetensorsWriter a, b;
        addEmbedAndNorm(a);
        addProjections(b);
        a.write(dir + "/model-00001-of-00002.safetensors");
        b.write(dir + "/model-00002-of-00002.safetensors");
        writeFile(dir + "/model.safetensors.index.json", R"({"metadata": {"total_size": 624},
            "weight_map": {
              "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
              "model.norm.weight": "model-00001-of-00002.safetensors",
              "model.layers.0.self_attn.q_proj.weight": "model-00002-of-00002.safetensors",
              "lm_head.weight": "model-00002-of-00002.safetensors"}})");
        return dir;
    }

  private slots:
    void singleFile()
    {
        const QString dir = singleFileModel();
        const auto m = CheckpointDir::open(dir);
        QCOMPARE(m->dir(), dir);
        QCOMPARE(m->config().vocabSize, 10);
        QCOMPARE(m->files(), QStringList{QStringLiteral("model.safetensors")});
        QCOMPARE(m->tensorNames(),
                 (QStringList{"lm_head.weight", "model.embed_tokens.weight",
                              "model.layers.0.self_attn.q_proj.weight", "model.norm.weight"}));
        QVERIFY(m->contains(QStringLiteral("lm_head.weight")));
        QVERIFY(!m->contains(QStringLiteral("model.layers.1.mlp.up_proj.weight")));
        const TensorView& embed = m->tensor(QStringLiteral("model.embed_tokens.weight"), {10, 8});
        QCOMPARE(embed.dtype, DType::F32);
        QCOMPARE(static_cast<const float*>(embed.data)[79], 79.0f);
        QCOMPARE(static_cast<const float*>(m->tensor(QStringLiteral("lm_head.weight")).data)[1],
                 101.0f);
        QVERIFY(m->tokenizerPath().isEmpty());
        QCOMPARE(m->parameterCount(), int64_t(80 + 8 + 64 + 80));
    }

    void tiedEmbeddingCountedOnce()
    {
        const auto m = CheckpointDir::open(singleFileModel(true));
        QVERIFY(m->config().tieWordEmbeddings);
        QCOMPARE(m->parameterCount(), int64_t(80 + 8 + 64));
    }

    void tokenizerPath()
    {
        const QString dir = singleFileModel();
        writeFile(dir + "/tokenizer.json", "{}");
        QCOMPARE(CheckpointDir::open(dir)->tokenizerPath(), QDir(dir).filePath("tokenizer.json"));
        QCOMPARE(CheckpointDir::open(dir)->requireTokenizerPath(),
                 QDir(dir).filePath("tokenizer.json"));
    }

    void missingTokenizerNamesTheDirectory()
    {
        const QString dir = singleFileModel();
        const auto m = CheckpointDir::open(dir);
        QCOMPARE(m->requireTokenizerPath(QStringLiteral("/x/tok.json")),
                 QStringLiteral("/x/tok.json"));
        try {
            m->requireTokenizerPath();
            QFAIL("no error without a tokenizer.json");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(dir) && e.message().contains("tokenizer.json"),
                     qPrintable(e.message()));
        }
    }

    void sharded()
    {
        const QString dir = shardedModel();
        const auto m = CheckpointDir::open(dir);
        QCOMPARE(m->files(), (QStringList{"model-00001-of-00002.safetensors",
                                          "model-00002-of-00002.safetensors"}));
        QCOMPARE(m->tensorNames().size(), 4);
        const TensorView& norm = m->tensor(QStringLiteral("model.norm.weight"), {8});
        QVERIFY(norm.file.endsWith(QStringLiteral("model-00001-of-00002.safetensors")));
        const TensorView& head = m->tensor(QStringLiteral("lm_head.weight"), {10, 8});
        QVERIFY(head.file.endsWith(QStringLiteral("model-00002-of-00002.safetensors")));
        QCOMPARE(static_cast<const float*>(head.data)[0], 100.0f);
        QCOMPARE(m->parameterCount(), int64_t(232));
    }

    void missingTensor()
    {
        const QString dir = singleFileModel();
        const auto m = CheckpointDir::open(dir);
        expectError([&] { m->tensor(QStringLiteral("model.layers.0.mlp.up_proj.weight")); },
                    {QDir(dir).filePath("model.safetensors"), "missing tensor",
                     "'model.layers.0.mlp.up_proj.weight'", "LlamaForCausalLM"});
        const QString sdir = shardedModel();
        const auto s = CheckpointDir::open(sdir);
        expectError(
            [&] { s->tensor(QStringLiteral("x.weight")); },
            {QDir(sdir).filePath("model.safetensors.index.json"), "missing tensor", "'x.weight'"});
    }

    void wrongShape()
    {
        const QString dir = shardedModel();
        const auto m = CheckpointDir::open(dir);
        expectError(
            [&] {
                m->tensor(QStringLiteral("lm_head.weight"), {8, 10});
            },
            {QDir(dir).filePath("model-00002-of-00002.safetensors"), "'lm_head.weight'",
             "shape [10, 8]", "expected [8, 10]"});
    }

    void brokenDirectories_data()
    {
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("file"); // the file the error must name, relative
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("missing config.json")
            << "rm config.json"
            << "config.json" << QStringList{"missing", "config.json"};
        QTest::newRow("bad config.json")
            << "bad config"
            << "config.json" << QStringList{"unknown architecture 'BertModel'"};
        QTest::newRow("missing shard")
            << "rm model-00002-of-00002.safetensors"
            << "model-00002-of-00002.safetensors"
            << QStringList{"missing shard", "model.safetensors.index.json"};
        QTest::newRow("no weights") << "rm index"
                                    << "" << QStringList{"no weights", "model.safetensors"};
        QTest::newRow("index without weight_map")
            << "empty index"
            << "model.safetensors.index.json" << QStringList{"weight_map"};
        QTest::newRow("index points to wrong shard")
            << "misplaced"
            << "model-00001-of-00002.safetensors"
            << QStringList{"'lm_head.weight'", "is not in it"};
        QTest::newRow("tensor in two shards")
            << "duplicate"
            << "model-00002-of-00002.safetensors"
            << QStringList{"'model.embed_tokens.weight'", "also stored in"};
        QTest::newRow("truncated shard")
            << "truncate"
            << "model-00002-of-00002.safetensors" << QStringList{"truncated"};
        QTest::newRow("not a directory") << "file"
                                         << "" << QStringList{"not a directory"};
        QTest::newRow("no such directory") << "rmdir"
                                           << "" << QStringList{"no such model directory"};
    }
    void brokenDirectories()
    {
        QFETCH(QString, breakage);
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        QString dir = shardedModel();
        QDir d(dir);
        const QString shard1 = d.filePath("model-00001-of-00002.safetensors");
        const QString shard2 = d.filePath("model-00002-of-00002.safetensors");
        if (breakage.startsWith(QLatin1String("rm ")) && breakage != QLatin1String("rm index"))
            QVERIFY(QFile::remove(d.filePath(breakage.mid(3))));
        else if (breakage == QLatin1String("rm index"))
            QVERIFY(QFile::remove(d.filePath("model.safetensors.index.json")));
        else if (breakage == QLatin1String("bad config"))
            writeFile(d.filePath("config.json"), R"({"architectures": ["BertModel"]})");
        else if (breakage == QLatin1String("empty index"))
            writeFile(d.filePath("model.safetensors.index.json"), R"({"metadata": {}})");
        else if (breakage == QLatin1String("misplaced"))
            writeFile(d.filePath("model.safetensors.index.json"),
                      R"({"weight_map": {"lm_head.weight": "model-00001-of-00002.safetensors",
                                         "model.norm.weight": "model-00002-of-00002.safetensors"}})");
        else if (breakage == QLatin1String("duplicate")) {
            SafetensorsWriter w;
            addEmbedAndNorm(w);
            w.write(shard2);
        } else if (breakage == QLatin1String("truncate"))
            QVERIFY(QFile::resize(shard2, QFileInfo(shard2).size() - 1));
        else if (breakage == QLatin1String("file"))
            dir = shard1;
        else if (breakage == QLatin1String("rmdir"))
            dir = d.filePath("nowhere");
        const QString named = file.isEmpty() ? dir : d.filePath(file);
        expectError([&] { CheckpointDir::open(dir); }, QStringList{named} + expected);
    }

    void identityHash()
    {
        const QString a = singleFileModel();
        const QString b = singleFileModel();
        const QString hashA = CheckpointDir::open(a)->identityHash();
        QCOMPARE(hashA.size(), 64);                              // SHA-256, hex
        QCOMPARE(CheckpointDir::open(a)->identityHash(), hashA); // stable across opens
        QCOMPARE(CheckpointDir::open(b)->identityHash(), hashA); // same content elsewhere
        QVERIFY(CheckpointDir::open(singleFileModel(true))->identityHash() != hashA); // config
        QVERIFY(CheckpointDir::open(shardedModel())->identityHash() != hashA);        // layout
        // The hash reads headers, not the weights: a changed dtype (q_proj F16 -> F32)
        // changes it.
        SafetensorsWriter w;
        addEmbedAndNorm(w);
        w.add(QStringLiteral("model.layers.0.self_attn.q_proj.weight"), DType::F32, {8, 8},
              QByteArray(256, '\0'));
        w.add(QStringLiteral("lm_head.weight"), DType::F32, {10, 8}, floats(80, 100));
        w.write(b + "/model.safetensors");
        QVERIFY(CheckpointDir::open(b)->identityHash() != hashA);
    }
};

QTEST_GUILESS_MAIN(TestCheckpointDir)
#include "tst_checkpointdir.moc"
