// A chat template is untrusted code from a model directory: every template that would
// recurse without end, nest past the stack, or run or grow without bound fails quickly
// with a kvl::Error naming the file, the template line and the limit
// (chattemplate/jinjalimits.h). The real templates rendering unchanged under these
// limits is tst_chattemplate's matchesJinja.
#include "chattemplate/chattemplate.h"
#include "chattemplate/jinjajson.h"
#include "chattemplate/jinjalimits.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using kvl::ChatTemplate;
using kvl::Error;
namespace jinja = kvl::jinja;

namespace {

// Loads and renders `source` as the file t.jinja; the error's message, or empty.
QString renderError(const QString& source)
{
    try {
        const ChatTemplate t(source, QStringLiteral("t.jinja"));
        t.render(std::vector<kvl::ChatMessage>{{QStringLiteral("user"), QStringLiteral("hi")}}, {});
    } catch (const Error& e) {
        return e.message();
    }
    return {};
}

QString repeated(const char* piece, int n)
{
    return QString::fromLatin1(piece).repeated(n);
}

} // namespace

// The issue's bound for its four templates: an error within a second, not a hang. Under
// AddressSanitizer (packaging/sanitize.sh) every allocation and copy is several times
// slower, so there the bound only tells an error from a hang.
#if defined(__SANITIZE_ADDRESS__) // gcc
constexpr qint64 kIssueBoundMs = 10000;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) // clang
constexpr qint64 kIssueBoundMs = 10000;
#else
constexpr qint64 kIssueBoundMs = 1000;
#endif
#else
constexpr qint64 kIssueBoundMs = 1000;
#endif

class TestChatTemplateLimits : public QObject
{
    Q_OBJECT
  private slots:
    void boundedTemplatesFailQuickly_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("withinASecond"); // the issue's four: its bound
        const QString nesting =
            QStringLiteral("nested deeper than %1 levels").arg(jinja::kMaxNesting);
        const QString text = QStringLiteral("past %1 (KVLens's limit on a chat template's text)")
                                 .arg(jinja::kMaxTextLength);
        // The issue's four: a segfault and a hang each before the limits.
        QTest::newRow("self-recursive macro")
            << "{% macro f(x) %}{{ f(x) }}{% endmacro %}\n{{ f(1) }}"
            << QStringLiteral("line 1: macro 'f' is called %1 levels deep")
                   .arg(jinja::kMaxCallDepth + 1)
            << true;
        QTest::newRow("100,000 parentheses")
            << "{{ " + repeated("(", 100000) + "1" + repeated(")", 100000) + " }}"
            << "line 1: " + nesting << true;
        QTest::newRow("string times 10^10") << "\n{{ 'a' * 10000000000 }}"
                                            << "line 2: the template builds a string of "
                                               "10000000000 characters, " +
                                                   text
                                            << true;
        QTest::newRow("string doubled 60 times")
            << "{% set ns = namespace(s='a') %}{% for i in range(60) %}\n"
               "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"
            << "line 2: the template builds a string of " +
                   QString::number(2 * jinja::kMaxTextLength) + " characters"
            << true;
        // Chains the parser builds by iteration and the renderer walks by recursion.
        QTest::newRow("100,000 sums")
            << "{{ " + repeated("1 + ", 100000) + "1 }}" << nesting << false;
        QTest::newRow("100,000 attributes")
            << "{{ x" + repeated(".a", 100000) + " }}" << nesting << false;
        QTest::newRow("100,000 filters")
            << "{{ 'x'" + repeated("|trim", 100000) + " }}" << nesting << false;
        QTest::newRow("100,000 nots")
            << "{{ " + repeated("not ", 100000) + "1 }}" << nesting << false;
        QTest::newRow("100,000 minus signs")
            << "{{ " + repeated("-", 100000) + "1 }}" << nesting << false;
        QTest::newRow("100,000 ifs")
            << repeated("{% if 1 %}", 100000) + repeated("{% endif %}", 100000) << nesting << false;
        QTest::newRow("100,000 elifs")
            << "{% if 0 %}" + repeated("{% elif 0 %}", 100000) + "{% endif %}" << nesting << false;
        QTest::newRow("recursion through deep blocks")
            << "{% macro f(x) %}" + repeated("{% if 1 %}", 95) + "{{ f(x) }}" +
                   repeated("{% endif %}", 95) + "{% endmacro %}{{ f(1) }}"
            << QStringLiteral("nested deeper than %1 levels (KVLens's limit on a chat "
                              "template's recursion)")
                   .arg(jinja::kMaxEvalDepth)
            << false;
        QTest::newRow("loops")
            << "{% for i in range(100000) %}{% for j in range(100000) %}"
               "{% endfor %}{% endfor %}"
            << QStringLiteral("loops run past %1 iterations").arg(jinja::kMaxLoopIterations)
            << false;
        QTest::newRow("quadratic filter")
            << "{{ range(100000)|list|unique|length }}"
            << QStringLiteral("runs past %1 steps").arg(jinja::kMaxWork) << false;
        QTest::newRow("list times 10^10") << "{{ ([1] * 10000000000)|length }}"
                                          << "builds a list of 10000000000 items" << false;
        QTest::newRow("replace multiplying")
            << "{% set s = 'a' * 1000000 %}{{ s.replace('', s) }}" << text << false;
        QTest::newRow("indent width") << "{{ 'a'|indent(10000000000) }}" << text << false;
        QTest::newRow("tojson indent") << "{{ [1]|tojson(indent=2147483647) }}" << text << false;
        QTest::newRow("a list nested 100,000 deep, printed")
            << "{% set ns = namespace(x=[]) %}{% for i in range(100000) %}"
               "{% set ns.x = [ns.x] %}{% endfor %}{{ ns.x }}"
            << QStringLiteral("values nested deeper than %1 levels").arg(jinja::kMaxValueDepth)
            << false;
        QTest::newRow("a namespace holding itself")
            << "{% set ns = namespace() %}{% set ns.x = ns %}{{ ns }}"
            << "a namespace that holds itself" << false;
        QTest::newRow("power") << "{{ 2 ** 10000000000 }}"
                               << "integer overflow" << false;
        QTest::newRow("int64 min // -1") << "{{ (-9223372036854775807 - 1) // -1 }}"
                                         << "integer overflow" << false;
        QTest::newRow("int64 min negated") << "{{ -(-9223372036854775807 - 1) }}"
                                           << "integer overflow" << false;
    }
    void boundedTemplatesFailQuickly()
    {
        QFETCH(QString, source);
        QFETCH(QString, error);
        QFETCH(bool, withinASecond);
        QElapsedTimer clock;
        clock.start();
        const QString got = renderError(source);
        const qint64 ms = clock.elapsed();
        QVERIFY2(got.startsWith(QLatin1String("t.jinja: chat template line ")), qPrintable(got));
        QVERIFY2(got.contains(error), qPrintable(got));
        // The others are bounded too, but by work that a sanitizer build slows down
        // (1,000,000 loop iterations take 1.5 s at -O1 on a loaded 2-core machine).
        if (withinASecond)
            QVERIFY2(ms < kIssueBoundMs, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    }

    // Under the limits, what they bound still works: 90 recursive calls (Python's Jinja
    // manages about 250), a list nested 100,000 deep built and dropped (its destruction
    // does not recurse), 90 nested brackets.
    void withinTheLimitsRenders()
    {
        const auto render = [](const QString& source) {
            return ChatTemplate(source, QStringLiteral("t.jinja"))
                .render(std::vector<kvl::ChatMessage>{}, {});
        };
        QCOMPARE(render("{% macro f(x) %}{% if x > 0 %}{{ f(x - 1) }}{% else %}done{% endif %}"
                        "{% endmacro %}{{ f(90) }}"),
                 QStringLiteral("done"));
        QCOMPARE(render("{% set ns = namespace(x=[]) %}{% for i in range(100000) %}"
                        "{% set ns.x = [ns.x] %}{% endfor %}{{ ns.x|length }}"),
                 QStringLiteral("1"));
        QCOMPARE(render("{{ " + repeated("(", 90) + "7" + repeated(")", 90) + " }}"),
                 QStringLiteral("7"));
        QCOMPARE(render("{{ 'ab' * 3 }}|{{ 2 ** 62 }}|{{ (-1) ** 10000000001 }}"),
                 QStringLiteral("ababab|4611686018427387904|-1"));
    }

    // A tokenizer_config.json nested 100,000 deep (json.loads's own bound is about 1000)
    // is refused naming the file, as messages are.
    void deepJsonIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokenizer_config.json"));
        kvl::writeFileAtomically(path, "{\"chat_template\": \"x\", \"bos_token\": " +
                                           QByteArray(100000, '[') + QByteArray(100000, ']') + "}");
        try {
            ChatTemplate::fromTokenizerConfig(path);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().startsWith(path) &&
                         e.message().contains(QLatin1String("malformed JSON")),
                     qPrintable(e.message()));
        }
        QVERIFY_THROWS_EXCEPTION(Error,
                                 jinja::parseJson(QByteArray(100000, '[') + QByteArray(100000, ']'),
                                                  QStringLiteral("m.json")));
    }
};

QTEST_GUILESS_MAIN(TestChatTemplateLimits)
#include "tst_chattemplatelimits.moc"
