// `kvlens-cli chat-render` as a user runs it: the prompt printed is the one
// kvl::ChatTemplate renders (tst_chattemplate ties that to Jinja2), template variables
// reach the template, and a template or conversation that fails names the file and the
// record with a non-zero exit.
#include "chattemplate/chattemplate.h"
#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// `kvlens-cli chat-render ARGS`.
clitest::Result cli(const QStringList& args)
{
    return clitest::cli(QStringList{QStringLiteral("chat-render")} + args, {},
                        QProcessEnvironment::systemEnvironment(), 120'000);
}

using clitest::Result;
using clitest::writeFile;

const QString kConstructs = QStringLiteral(KVLENS_TEST_DATA "/chattemplate/constructs");
const QByteArray kConversation =
    R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi \u00e9"}])";

} // namespace

class TestCliChatRender : public QObject
{
    Q_OBJECT
  private slots:
    void printsTheRenderedPrompt()
    {
        QTemporaryDir dir;
        // A model directory whose tokenizer_config.json carries the template.
        const QByteArray tmpl =
            R"({{ bos_token }}{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}{% if enable_thinking is false %}<no-think>{% endif %})";
        QJsonObject config{{QStringLiteral("bos_token"), QStringLiteral("<s>")},
                           {QStringLiteral("chat_template"), QString::fromUtf8(tmpl)}};
        writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")),
                  QJsonDocument(config).toJson());
        writeFile(dir.filePath(QStringLiteral("m.json")), kConversation);
        const Result r = cli({"--model", dir.path(), "--messages", dir.filePath("m.json"),
                              "--add-generation-prompt", "--var", "enable_thinking=false"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("prompt")).toString(),
                 QStringLiteral("<s><system>Be brief.<user>Hi \u00e9<assistant><no-think>"));

        // --chat-template FILE with --text: the same prompt kvl::ChatTemplate renders.
        const Result plain = cli({"--tokenizer-config", kConstructs + "/tokenizer_config.json",
                                  "--chat-template", kConstructs + "/instruct_style.jinja",
                                  "--messages", dir.filePath("m.json"), "--text"});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        const kvl::ChatTemplate t = kvl::ChatTemplate::fromFile(
            kConstructs + "/instruct_style.jinja", kConstructs + "/tokenizer_config.json");
        QCOMPARE(QString::fromUtf8(plain.out),
                 t.render(std::vector<kvl::ChatMessage>{{"system", "Be brief."},
                                                        {"user", QStringLiteral("Hi \u00e9")}},
                          {}) +
                     QLatin1Char('\n'));
    }

    // --sample: the instruct layout of a sample, its spans placed in the prefix and tail.
    void showsTheSampleLayout()
    {
        QTemporaryDir dir;
        const QString context = QStringLiteral("Records.\nThe key K-2210 maps to value 55012.");
        const QString evidence = QStringLiteral("K-2210 maps to value 55012");
        const int b = int(context.indexOf(evidence));
        QJsonObject span{{"kind", "evidence"},
                         {"field", "context"},
                         {"begin", b},
                         {"end", b + int(evidence.size())},
                         {"label", "needle"}};
        QJsonObject sample{{"id", "s1"},         {"suite", "retrieval"},
                           {"context", context}, {"question", "\nWhich value? Answer:"},
                           {"answer", "55012"},  {"spans", QJsonArray{span}}};
        const QString jsonl = dir.filePath(QStringLiteral("s.jsonl"));
        writeFile(jsonl, QJsonDocument(sample).toJson(QJsonDocument::Compact) + '\n');
        const QStringList common = {"--tokenizer-config", kConstructs + "/tokenizer_config.json",
                                    "--chat-template",    kConstructs + "/instruct_style.jinja",
                                    "--sample",           jsonl};
        const Result r =
            cli(common + QStringList{"--system", "Digits only.", "--tokenizer", "byte"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("prefix").toString(),
                 QStringLiteral("<s>[INST] Digits only.\n\n") + context);
        QCOMPARE(o.value("tail").toString(), QStringLiteral("\nWhich value? Answer:[/INST]"));
        const QJsonObject placed = o.value("spans").toArray().at(0).toObject();
        QCOMPARE(placed.value("part").toString(), QStringLiteral("prefix"));
        QCOMPARE(placed.value("text").toString(), evidence);
        // The byte tokenizer: one token per byte of the prefix, the span's bytes in it.
        const QJsonArray tokens = placed.value("tokens").toArray();
        QCOMPARE(tokens.at(1).toInt() - tokens.at(0).toInt(), int(evidence.size()));
        QCOMPARE(o.value("context_tokens").toInt(),
                 int(o.value("prefix").toString().toUtf8().size()));

        const Result bad = cli(common + QStringList{"--index", "1"});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains(jsonl + QStringLiteral(": --index 1 is not in [0, 1)")),
                 qPrintable(bad.err));
    }

    void badInputNamesFileAndRecord()
    {
        QTemporaryDir dir;
        const QString jsonl = dir.filePath(QStringLiteral("c.jsonl"));
        writeFile(jsonl, "{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}\n"
                         "{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}, "
                         "{\"role\": \"user\", \"content\": \"b\"}]}\n");
        const QString config = kConstructs + "/tokenizer_config.json";
        const QString tmpl = kConstructs + "/instruct_style.jinja";
        const Result rejected =
            cli({"--tokenizer-config", config, "--chat-template", tmpl, "--jsonl", jsonl});
        QCOMPARE(rejected.code, 1);
        QCOMPARE(rejected.out.count('\n'), 1); // the first record was rendered
        QVERIFY2(rejected.err.contains(jsonl + QStringLiteral(":2: ") + tmpl) &&
                     rejected.err.contains(QLatin1String("roles must alternate")),
                 qPrintable(rejected.err));

        const QString broken = dir.filePath(QStringLiteral("broken.jinja"));
        writeFile(broken, "{% for m in messages %}\n{{ m.content | wordcount }}{% endfor %}");
        writeFile(dir.filePath(QStringLiteral("m.json")), kConversation);
        const Result unsupported =
            cli({"--chat-template", broken, "--messages", dir.filePath("m.json")});
        QCOMPARE(unsupported.code, 1);
        QVERIFY2(unsupported.err.contains(broken) &&
                     unsupported.err.contains(
                         QLatin1String("line 2: the filter 'wordcount' is not supported")),
                 qPrintable(unsupported.err));

        writeFile(dir.filePath(QStringLiteral("bad.json")), "[{\"role\": \"user\",}]");
        const Result malformed =
            cli({"--chat-template", tmpl, "--messages", dir.filePath("bad.json")});
        QCOMPARE(malformed.code, 1);
        QVERIFY2(
            malformed.err.contains(dir.filePath("bad.json") + QStringLiteral(": malformed JSON")),
            qPrintable(malformed.err));

        const Result none = cli({"--chat-template", "none", "--messages", dir.filePath("m.json")});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QLatin1String("base model")), qPrintable(none.err));

        const Result noTemplate =
            cli({"--tokenizer-config", config, "--messages", dir.filePath("m.json")});
        QCOMPARE(noTemplate.code, 1);
        QVERIFY2(noTemplate.err.contains(config + QStringLiteral(": has no chat_template")),
                 qPrintable(noTemplate.err));
    }
};

QTEST_GUILESS_MAIN(TestCliChatRender)
#include "tst_clichatrender.moc"
