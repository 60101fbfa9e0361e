// Chat templates through the commands that turn samples into prompt ids (tokenize
// --sample, compress, run), as a user runs them: a random tiny Qwen3 checkpoint with the
// real Qwen3 tokenizer and its tokenizer_config.json chat template (from <build>/npm).
// The prefilled ids must end at the context's end, the question ids be the question,
// the end of the user turn and the generation prompt, spans land on their tokens, the
// system turn sit in the compressed part, and bad templates / too-long prompts fail
// with a named error and a non-zero exit.
#include "chattemplate/chattemplate.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/safetensorswriter.h"
#include "clirun.h"
#include "store/runreader.h"
#include "tokenizer/tokenizer.h"

#include "../../core/tasks/qwen3chatfixture.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using clitest::Result;
using clitest::writeFile;

Result cli(const QStringList& args)
{
    return clitest::cli(args, {}, QProcessEnvironment::systemEnvironment(), 600'000);
}

using namespace qwen3chat;

QJsonObject span(const char* kind, const char* field, const QString& text, const QString& in)
{
    const int b = int(in.indexOf(text));
    QJsonObject o{{QStringLiteral("kind"), QLatin1String(kind)},
                  {QStringLiteral("field"), QLatin1String(field)},
                  {QStringLiteral("begin"), b},
                  {QStringLiteral("end"), b + int(text.size())}};
    if (QLatin1String(kind) == QLatin1String("instruction"))
        o.insert(QStringLiteral("role"), QStringLiteral("system_rule"));
    return o;
}

QByteArray sampleLine(const QString& id, const QString& system, const QString& context,
                      const QJsonArray& spans)
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("context"), context},
                  {QStringLiteral("question"), kQuestion},
                  {QStringLiteral("answer"), QStringLiteral("4821 blue")},
                  {QStringLiteral("spans"), spans}};
    if (!system.isEmpty())
        o.insert(QStringLiteral("system"), system);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

std::vector<int> ints(const QJsonValue& v)
{
    std::vector<int> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

// A random Qwen3-shaped checkpoint (2 layers, hidden 16) over the real Qwen3 vocabulary:
// its answers are noise; what is tested is the layout of its prompts.
void writeRandomQwen3(const QString& dir, int vocab, int maxPositions)
{
    kvl::ModelConfig c;
    c.architecture = kvl::Architecture::Qwen3;
    c.vocabSize = vocab;
    c.hiddenSize = 16;
    c.intermediateSize = 32;
    c.numLayers = 2;
    c.numHeads = 2;
    c.numKvHeads = 1;
    c.headDim = 8;
    c.maxPositionEmbeddings = maxPositions;
    c.qkNorm = true;
    c.tieWordEmbeddings = true;
    kvl::writeModelConfig(QDir(dir).filePath(QStringLiteral("config.json")), c);
    quint64 state = 12345;
    const auto tensor = [&](std::vector<int64_t> shape, bool ones) {
        qint64 n = 1;
        for (int64_t d : shape)
            n *= d;
        std::vector<float> v(size_t(n), 1.0f);
        if (!ones)
            for (float& x : v) {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                x = (float(state >> 40) / float(1 << 24) - 0.5f) * 0.2f;
            }
        return v;
    };
    kvl::SafetensorsWriter w;
    std::vector<std::vector<float>> keep; // alive until write()
    const auto add = [&](const QString& name, std::vector<int64_t> shape, bool ones = false) {
        keep.push_back(tensor(shape, ones));
        w.addF32(name, shape, keep.back().data());
    };
    add(QStringLiteral("model.embed_tokens.weight"), {vocab, 16});
    add(QStringLiteral("model.norm.weight"), {16}, true);
    for (int l = 0; l < 2; ++l) {
        const QString p = QStringLiteral("model.layers.%1.").arg(l);
        add(p + "input_layernorm.weight", {16}, true);
        add(p + "post_attention_layernorm.weight", {16}, true);
        add(p + "self_attn.q_proj.weight", {16, 16});
        add(p + "self_attn.k_proj.weight", {8, 16});
        add(p + "self_attn.v_proj.weight", {8, 16});
        add(p + "self_attn.o_proj.weight", {16, 16});
        add(p + "self_attn.q_norm.weight", {8}, true);
        add(p + "self_attn.k_norm.weight", {8}, true);
        add(p + "mlp.gate_proj.weight", {32, 16});
        add(p + "mlp.up_proj.weight", {32, 16});
        add(p + "mlp.down_proj.weight", {16, 32});
    }
    w.write(QDir(dir).filePath(QStringLiteral("model.safetensors")));
    QFile::copy(npmFile("tokenizer.json"), QDir(dir).filePath(QStringLiteral("tokenizer.json")));
    QFile::copy(npmFile("tokenizer_config.json"),
                QDir(dir).filePath(QStringLiteral("tokenizer_config.json")));
}

} // namespace

class TestCliChatTemplate : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;
    QString m_data;
    std::unique_ptr<kvl::Tokenizer> m_tok;
    int m_prefilled = 0; // what tokenize --sample showed, for the run to match
    QJsonArray m_spans;

    QString path(const QString& name) const { return m_dir.filePath(name); }

  private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(npmFile("tokenizer.json")))
            QFAIL(qPrintable(npmFile("tokenizer.json") +
                             " is missing: the npm tokenizers are fetched at configure time"));
        m_tok = kvl::loadTokenizer(npmFile("tokenizer.json"));
        m_model = path(QStringLiteral("qwen3-tiny"));
        QDir().mkpath(m_model);
        writeRandomQwen3(m_model, m_tok->vocabSize(), 256);
        m_data = path(QStringLiteral("data.jsonl"));
        writeFile(m_data, sampleLine(QStringLiteral("s1"), kSystem, kContext,
                                     {span("instruction", "system", kRule, kSystem),
                                      span("evidence", "context", kEvidence, kContext)}));
    }

    // tokenize --sample: the prefilled ids are the render through the end of the context,
    // the question ids the question + end of turn + generation prompt, and each span's
    // positions hold exactly its tokens.
    void tokenizeShowsTheLayout()
    {
        const Result r = cli({"tokenize", "--model", m_model, "--sample", m_data, "--chat-var",
                              "enable_thinking=false"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = r.lastJson();
        const std::vector<int> context = ints(o.value(QStringLiteral("context_ids")));
        const std::vector<int> question = ints(o.value(QStringLiteral("question_ids")));

        // The full render, as the template makes it (tst_chattemplate ties it to jinja2).
        const kvl::ChatTemplate t =
            kvl::ChatTemplate::fromTokenizerConfig(npmFile("tokenizer_config.json"));
        kvl::ChatTemplate::Options opts;
        opts.addGenerationPrompt = true;
        opts.extra.set(QStringLiteral("enable_thinking"), kvl::jinja::Value::boolean(false));
        const QString full =
            t.render(std::vector<kvl::ChatMessage>{{QStringLiteral("system"), kSystem},
                                                   {QStringLiteral("user"), kContext + kQuestion}},
                     opts);
        const QString prefix = m_tok->decode(context, false);
        const QString tail = m_tok->decode(question, false);
        QCOMPARE(prefix + tail, full);
        QVERIFY2(prefix.endsWith(kContext), qPrintable(prefix));
        QVERIFY(prefix.startsWith(QStringLiteral("<|im_start|>system\n") + kSystem));
        QCOMPARE(tail, kQuestion + kQwen3Tail);
        QCOMPARE(context, m_tok->encode(prefix, false));
        QCOMPARE(question, m_tok->encode(kQuestion + kQwen3Tail, false));
        // The answer follows the generation prompt directly: no leading space, then the stop.
        std::vector<int> answer = m_tok->encode(QStringLiteral("4821 blue"), false);
        if (!m_tok->stopIds().empty())
            answer.push_back(m_tok->stopIds().front());
        QCOMPARE(ints(o.value(QStringLiteral("answer_ids"))), answer);

        const QJsonArray spans = o.value(QStringLiteral("spans")).toArray();
        QCOMPARE(spans.size(), 2);
        const QJsonObject rule = spans[0].toObject(), evidence = spans[1].toObject();
        QCOMPARE(rule.value(QStringLiteral("field")).toString(), QStringLiteral("system"));
        QCOMPARE(rule.value(QStringLiteral("text")).toString().trimmed(), kRule);
        QCOMPARE(evidence.value(QStringLiteral("text")).toString().trimmed(), kEvidence);
        // The rule is in the system turn, before the context, inside the prefilled part.
        const int contextStart = o.value(QStringLiteral("context_offset")).toInt();
        QVERIFY(ints(rule.value(QStringLiteral("tokens")))[1] <= contextStart);
        const std::vector<int> ev = ints(evidence.value(QStringLiteral("tokens")));
        QVERIFY(ev[0] >= contextStart && ev[1] <= int(context.size()));
        m_prefilled = int(context.size());
        m_spans = spans;
    }

    // The pitfalls study's system-prompt layout: with an empty context, the compressed part
    // is the system turn rendered alone and the user turn is the uncompressed tail.
    void systemOnlySampleCompressesTheSystemTurn()
    {
        const QString data = path(QStringLiteral("system-only.jsonl"));
        writeFile(data, sampleLine(QStringLiteral("sys"), kSystem, QString(),
                                   {span("instruction", "system", kRule, kSystem)}));
        const Result r = cli({"tokenize", "--model", m_model, "--sample", data, "--chat-var",
                              "enable_thinking=false"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = r.lastJson();
        const kvl::ChatTemplate t =
            kvl::ChatTemplate::fromTokenizerConfig(npmFile("tokenizer_config.json"));
        const QString systemTurn =
            t.render(std::vector<kvl::ChatMessage>{{QStringLiteral("system"), kSystem}}, {});
        QCOMPARE(m_tok->decode(ints(o.value(QStringLiteral("context_ids"))), false), systemTurn);
        QCOMPARE(m_tok->decode(ints(o.value(QStringLiteral("question_ids"))), false),
                 QStringLiteral("<|im_start|>user\n") + kQuestion + kQwen3Tail);
        const QJsonArray spans = o.value(QStringLiteral("spans")).toArray();
        QCOMPARE(spans.size(), 1);
        QCOMPARE(spans[0].toObject().value(QStringLiteral("text")).toString().trimmed(), kRule);
    }

    // run: the sweep prefills what tokenize showed, stores the span positions and the
    // template it used, compresses the system turn, and refuses a resume with another
    // template.
    void runUsesTheTemplate()
    {
        QVERIFY(m_prefilled > 0);
        const QString out = path(QStringLiteral("run.kvl"));
        const QStringList args{"run",
                               "--model",
                               m_model,
                               "--dataset",
                               m_data,
                               "--press",
                               "knorm",
                               "--ratios",
                               "0.5",
                               "--interventions",
                               "none",
                               "--chat-var",
                               "enable_thinking=false",
                               "--max-new-tokens",
                               "4",
                               "--quiet",
                               "--out",
                               out};
        const Result r = cli(args);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        kvl::RunReader reader(out);
        const std::vector<kvl::SampleInfo> samples = reader.samples();
        QCOMPARE(samples.size(), size_t(1));
        const kvl::SampleInfo& s = samples.front();
        QVERIFY2(!s.meta.contains(QStringLiteral("skipped")),
                 qPrintable(s.meta.value(QStringLiteral("skipped")).toString()));
        QCOMPARE(s.contextLen, m_prefilled);
        QCOMPARE(s.meta.value(QStringLiteral("system")).toString(), kSystem);
        QVERIFY(s.meta.value(QStringLiteral("prompt_prefix")).toString().endsWith(kContext));
        QCOMPARE(s.meta.value(QStringLiteral("prompt_tail")).toString(), kQuestion + kQwen3Tail);
        QCOMPARE(s.spans.size(), m_spans.size());
        for (qsizetype i = 0; i < s.spans.size(); ++i) {
            const QJsonObject stored = s.spans[i].toObject();
            const std::vector<int> shown = ints(m_spans[i].toObject().value("tokens"));
            QCOMPARE(stored.value(QStringLiteral("start")).toInt(), shown[0]);
            QCOMPARE(stored.value(QStringLiteral("end")).toInt(), shown[1]);
        }
        QCOMPARE(s.spans[0].toObject().value(QStringLiteral("field")).toString(),
                 QStringLiteral("system"));
        // The kept mask covers every prefilled position, the system turn's included.
        int compressed = 0;
        for (const kvl::StoredResult& row : reader.results()) {
            if (row.ratio == 0.0)
                continue;
            const std::optional<kvl::KeptMask> mask = reader.mask(row.sampleId, row.configId);
            QVERIFY(mask);
            QCOMPARE(mask->contextLen, m_prefilled);
            ++compressed;
        }
        QCOMPARE(compressed, 1);

        const QJsonObject used =
            reader.runInfo().spec.value(QStringLiteral("chat_template_used")).toObject();
        QCOMPARE(used.value(QStringLiteral("template")).toString(),
                 QFileInfo(QDir(m_model).filePath("tokenizer_config.json")).absoluteFilePath());
        const kvl::ChatTemplate t =
            kvl::ChatTemplate::fromTokenizerConfig(npmFile("tokenizer_config.json"));
        QCOMPARE(
            used.value(QStringLiteral("sha256")).toString(),
            QString::fromLatin1(
                QCryptographicHash::hash(t.source().toUtf8(), QCryptographicHash::Sha256).toHex()));
        QCOMPARE(used.value(QStringLiteral("vars")).toObject(),
                 (QJsonObject{{QStringLiteral("enable_thinking"), false}}));

        // Resuming with the same template runs nothing; with another it is refused.
        const Result again = cli(args);
        QVERIFY2(again.code == 0, qPrintable(again.err));
        QCOMPARE(again.lastJson().value(QStringLiteral("ran")).toInt(), 0);
        // Without the template's variables: "none" with --chat-var is refused for
        // another reason (variables but no template) before the run file is read.
        QStringList withoutTemplate = args;
        withoutTemplate.removeAt(withoutTemplate.indexOf(QStringLiteral("--chat-var")) + 1);
        withoutTemplate.removeOne(QStringLiteral("--chat-var"));
        const Result other = cli(withoutTemplate + QStringList{"--chat-template", "none"});
        QVERIFY(other.code != 0);
        QVERIFY2(other.err.contains(QStringLiteral("chat template")) && other.err.contains(out),
                 qPrintable(other.err));
    }

    void errorsNameTheFileAndTheSample_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("templateText"); // empty: the model's own
        QTest::addColumn<QString>("context");      // empty: kContext
        QTest::addColumn<QString>("chatTemplate"); // empty: the template file
        QTest::addColumn<QStringList>("expected");
        const QString raising = QStringLiteral(
            "{%- if messages[0].role == 'system' %}{{ raise_exception('System role not "
            "supported') }}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}");
        const QString dropping =
            QStringLiteral("{% for m in messages %}<{{ m.role }}>{% endfor %}");
        const QString longContext = QStringLiteral("Nothing happened that day. ").repeated(80);
        for (const char* command : {"compress", "run", "tokenize"}) {
            QTest::addRow("%s: template raises", command)
                << command << raising << QString() << QString()
                << QStringList{"bad.jinja", "data-err.jsonl", "s1", "System role not supported"};
            QTest::addRow("%s: context dropped", command)
                << command << dropping << QString() << QString()
                << QStringList{"bad.jinja", "data-err.jsonl", "s1", "end marker"};
            QTest::addRow("%s: system without a template", command)
                << command << QString() << QString() << QStringLiteral("none")
                << QStringList{"data-err.jsonl", "s1", "system turn"};
        }
        for (const char* command : {"compress", "tokenize", "run"})
            QTest::addRow("%s: too long", command)
                << command << QString() << longContext << QString()
                << QStringList{"data-err.jsonl", "s1", "max_position_embeddings", "config.json"};
    }

    void errorsNameTheFileAndTheSample()
    {
        QFETCH(QString, command);
        QFETCH(QString, templateText);
        QFETCH(QString, context);
        QFETCH(QString, chatTemplate);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data-err.jsonl"));
        const QString ctx = context.isEmpty() ? kContext : context;
        writeFile(data, sampleLine(QStringLiteral("s1"), kSystem, ctx, {}));
        QString tmpl = chatTemplate;
        if (!templateText.isEmpty()) {
            tmpl = dir.filePath(QStringLiteral("bad.jinja"));
            writeFile(tmpl, templateText.toUtf8());
        }
        QStringList args{command, "--model", m_model};
        if (command == QLatin1String("compress"))
            args << "--sample" << data << "--press"
                 << "knorm"
                 << "--ratio"
                 << "0.5"
                 << "--out" << dir.filePath(QStringLiteral("m.safetensors"));
        else if (command == QLatin1String("tokenize"))
            args << "--sample" << data;
        else
            args << "--dataset" << data << "--press"
                 << "knorm"
                 << "--ratios"
                 << "0.5"
                 << "--quiet"
                 << "--out" << dir.filePath(QStringLiteral("r.kvl"));
        if (!tmpl.isEmpty())
            args << "--chat-template" << tmpl;
        const Result r = cli(args);
        QVERIFY2(r.code != 0 && r.code != -1, qPrintable(r.err));
        for (const QString& e : expected)
            QVERIFY2(r.err.contains(e), qPrintable(e + QStringLiteral(" not in: ") + r.err));
    }

    // A template that renders the samples but not KVzip's dummy turn as given (it drops
    // the word kvpress's dummy text is made of) refuses a sweep with kvzip before any
    // sample runs, naming the template; a sweep without it runs.
    void repeatPromptsFailOnlyThePressesThatReadThem()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data.jsonl"));
        writeFile(data, sampleLine(QStringLiteral("s1"), QString(), kContext, {}));
        const QString tmpl = dir.filePath(QStringLiteral("dummyless.jinja"));
        writeFile(tmpl, QByteArrayLiteral("{% for m in messages %}<{{ m.role }}>"
                                          "{{ m.content | replace('dummy', '') }}{% endfor %}"));
        const QStringList args{"run",      "--model", m_model,   "--dataset",       data,
                               "--ratios", "0.5",     "--quiet", "--chat-template", tmpl};
        const Result plain =
            cli(args + QStringList{"--press", "knorm", "--out", dir.filePath("plain.kvl")});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        const Result kvzip =
            cli(args + QStringList{"--press", "kvzip", "--out", dir.filePath("kvzip.kvl")});
        QVERIFY2(kvzip.code != 0 && kvzip.code != -1, qPrintable(kvzip.err));
        QVERIFY2(kvzip.err.contains(QStringLiteral("dummyless.jinja")) &&
                     kvzip.err.contains(QStringLiteral("KVzip's repeat prompt")),
                 qPrintable(kvzip.err));
    }

    // run refuses a too-long sample before running anything (the row above); with
    // --skip-too-long it records the sample as skipped, runs the rest, and the run's spec
    // says so.
    void runSkipTooLongRecordsTheSample()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("long.jsonl"));
        writeFile(data,
                  sampleLine(QStringLiteral("short"), kSystem, kContext, {}) +
                      sampleLine(QStringLiteral("long"), kSystem,
                                 QStringLiteral("Nothing happened that day. ").repeated(80), {}));
        const QString out = dir.filePath(QStringLiteral("r.kvl"));
        const QStringList args{"run",        "--model",
                               m_model,      "--dataset",
                               data,         "--press",
                               "knorm",      "--ratios",
                               "0.5",        "--quiet",
                               "--out",      out,
                               "--chat-var", "enable_thinking=false"};
        const Result refused = cli(args);
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains(QStringLiteral("'long'")) &&
                     refused.err.contains(QStringLiteral("--skip-too-long")),
                 qPrintable(refused.err));
        const Result r = cli(args + QStringList{"--skip-too-long"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson().value(QStringLiteral("skipped")).toInt(), 1);
        QCOMPARE(r.lastJson().value(QStringLiteral("ran")).toInt(), 2);
        kvl::RunReader reader(out);
        QCOMPARE(reader.runInfo().spec.value(QStringLiteral("skip_too_long")), QJsonValue(true));
        const std::optional<kvl::SampleInfo> skipped = reader.sample(QStringLiteral("long"));
        QVERIFY(skipped);
        QVERIFY2(skipped->meta.value(QStringLiteral("skipped"))
                     .toString()
                     .contains(QStringLiteral("max_position_embeddings")),
                 qPrintable(skipped->meta.value(QStringLiteral("skipped")).toString()));

        // Only the long sample: every sample skipped is no result, and run says so with a
        // non-zero exit; the file still records the sample and why.
        const QString onlyLong = dir.filePath(QStringLiteral("only-long.jsonl"));
        writeFile(onlyLong,
                  sampleLine(QStringLiteral("long"), kSystem,
                             QStringLiteral("Nothing happened that day. ").repeated(80), {}));
        QStringList none = args;
        none[none.indexOf(data)] = onlyLong;
        none[none.indexOf(out)] = dir.filePath(QStringLiteral("none.kvl"));
        const Result nothing = cli(none + QStringList{"--skip-too-long"});
        QCOMPARE(nothing.code, 3);
        QVERIFY2(nothing.err.contains(QStringLiteral("no sample ran: all 1 were skipped")),
                 qPrintable(nothing.err));
        QVERIFY(kvl::RunReader(dir.filePath(QStringLiteral("none.kvl")))
                    .sample(QStringLiteral("long")));
    }
};

QTEST_GUILESS_MAIN(TestCliChatTemplate)
#include "tst_clichattemplate.moc"
