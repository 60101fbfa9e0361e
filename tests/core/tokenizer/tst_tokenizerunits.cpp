// Small tokenizer.json fixtures built here, with every expectation worked out by hand
// in the comments (merge ranks, leftmost ties, added tokens, offsets, byte fallback).
#include "common/error.h"
#include "tokenizer/bytetokenizer.h"
#include "tokenizer/hftokenizer.h"
#include "tokenizer/normalizedtext.h"
#include "tokenizer/vocabindex.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using kvl::TokenSpan;

namespace {
// GPT-2's bytes_to_unicode, written out again here so the fixture does not borrow
// the code under test.
QString byteChar(int b)
{
    const bool printable =
        (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    if (printable)
        return QString(QChar(b));
    int n = 0;
    for (int x = 0; x < b; ++x)
        if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255)))
            ++n;
    return QString(QChar(256 + n));
}

QJsonObject addedToken(int id, const QString& content, bool special)
{
    return {{"id", id},        {"content", content},  {"single_word", false}, {"lstrip", false},
            {"rstrip", false}, {"normalized", false}, {"special", special}};
}

// Byte-level: byte b has id b; then he(256) ll(257) hell(258) hello(259) Ġw(260)
// or(261) Ġwor(262) ld(263) aa(264) bc(265) ab(266); added <|x|>(300, special),
// <t>(301, not special), <|x|>!(302, special).
QJsonObject byteLevelJson(bool pairMerges, bool prefixSpace)
{
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(byteChar(b), b);
    const QStringList extra{"he",        "ll", "hell", "hello", "\u0120w", "or",
                            "\u0120wor", "ld", "aa",   "bc",    "ab"};
    for (int i = 0; i < extra.size(); ++i)
        vocab.insert(extra[i], 256 + i);
    const QStringList merges{"h e",        "l l", "he ll", "hell o", "\u0120 w", "o r",
                             "\u0120w or", "l d", "a a",   "b c",    "a b"};
    QJsonArray m;
    for (const QString& s : merges)
        m.append(pairMerges ? QJsonValue(QJsonArray{s.section(' ', 0, 0), s.section(' ', 1, 1)})
                            : QJsonValue(s));
    const QJsonObject byteLevel{{"type", "ByteLevel"},
                                {"add_prefix_space", prefixSpace},
                                {"trim_offsets", true},
                                {"use_regex", true}};
    return {
        {"version", "1.0"},
        {"added_tokens", QJsonArray{addedToken(300, "<|x|>", true), addedToken(301, "<t>", false),
                                    addedToken(302, "<|x|>!", true)}},
        {"normalizer", QJsonValue::Null},
        {"pre_tokenizer", byteLevel},
        {"post_processor", byteLevel},
        {"decoder", byteLevel},
        {"model", QJsonObject{{"type", "BPE"}, {"vocab", vocab}, {"merges", m}}}};
}

// Metaspace + byte fallback: <unk>0 <s>1 </s>2, <0x00>..<0xFF> = 3..258, ▁259 a260
// b261 ▁a262 ab263 ▁ab264; merges "▁ a", "a b", "▁a b".
QJsonObject metaspaceJson(const QString& flavour, bool byteFallback = true)
{
    QJsonObject vocab{{"<unk>", 0}, {"<s>", 1}, {"</s>", 2}};
    for (int b = 0; b < 256; ++b)
        vocab.insert(
            QStringLiteral("<0x%1>").arg(QString::number(b, 16).toUpper().rightJustified(2, '0')),
            3 + b);
    const QStringList extra{"\u2581", "a", "b", "\u2581a", "ab", "\u2581ab"};
    for (int i = 0; i < extra.size(); ++i)
        vocab.insert(extra[i], 259 + i);
    QJsonObject j{
        {"added_tokens", QJsonArray{addedToken(0, "<unk>", true), addedToken(1, "<s>", true),
                                    addedToken(2, "</s>", true)}},
        {"post_processor",
         QJsonObject{
             {"type", "TemplateProcessing"},
             {"single",
              QJsonArray{QJsonObject{{"SpecialToken", QJsonObject{{"id", "<s>"}, {"type_id", 0}}}},
                         QJsonObject{{"Sequence", QJsonObject{{"id", "A"}, {"type_id", 0}}}}}},
             {"special_tokens", QJsonObject{{"<s>", QJsonObject{{"id", "<s>"},
                                                                {"ids", QJsonArray{1}},
                                                                {"tokens", QJsonArray{"<s>"}}}}}}}},
        {"decoder",
         QJsonObject{
             {"type", "Sequence"},
             {"decoders",
              QJsonArray{
                  QJsonObject{{"type", "Replace"},
                              {"pattern", QJsonObject{{"String", "\u2581"}}},
                              {"content", " "}},
                  QJsonObject{{"type", "ByteFallback"}}, QJsonObject{{"type", "Fuse"}},
                  QJsonObject{{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}}}}},
        {"model", QJsonObject{{"type", "BPE"},
                              {"unk_token", "<unk>"},
                              {"fuse_unk", true},
                              {"byte_fallback", byteFallback},
                              {"vocab", vocab},
                              {"merges", QJsonArray{"\u2581 a", "a b", "\u2581a b"}}}}};
    if (flavour == QLatin1String("normalizer")) {
        j.insert("normalizer",
                 QJsonObject{{"type", "Sequence"},
                             {"normalizers",
                              QJsonArray{QJsonObject{{"type", "Prepend"}, {"prepend", "\u2581"}},
                                         QJsonObject{{"type", "Replace"},
                                                     {"pattern", QJsonObject{{"String", " "}}},
                                                     {"content", "\u2581"}}}}});
        j.insert("pre_tokenizer", QJsonValue::Null);
    } else {
        j.insert("normalizer", QJsonValue::Null);
        j.insert("pre_tokenizer", QJsonObject{{"type", "Metaspace"},
                                              {"replacement", "\u2581"},
                                              {"prepend_scheme", "first"},
                                              {"split", flavour == "split"}});
    }
    return j;
}

std::unique_ptr<kvl::HfTokenizer> make(const QJsonObject& j)
{
    return kvl::HfTokenizer::fromJson(j, QStringLiteral("fixture.json"));
}

using Spans = QList<QList<int>>; // {id, begin, end}
Spans spans(const std::vector<TokenSpan>& s)
{
    Spans out;
    for (const TokenSpan& t : s)
        out.append({t.id, t.begin, t.end});
    return out;
}
} // namespace

class TestTokenizerUnits : public QObject
{
    Q_OBJECT
  private slots:
    void byteLevel_data()
    {
        QTest::addColumn<bool>("pairMerges");
        QTest::addColumn<QString>("text");
        QTest::addColumn<Spans>("expected");
        for (bool pairs : {false, true}) {
            const char* f = pairs ? "pairs" : "strings";
            // "hello": he(0), ll(1), he+ll(2), hell+o(3). " world": Ġw(4), or(5),
            // Ġw+or(6), ld(7) -> Ġwor ld.
            QTest::addRow("%s/hello world", f)
                << pairs << "hello world" << Spans{{259, 0, 5}, {262, 5, 9}, {263, 9, 11}};
            // Equal ranks: the leftmost pair merges first.
            QTest::addRow("%s/aaa", f) << pairs << "aaa" << Spans{{264, 0, 2}, {97, 2, 3}};
            QTest::addRow("%s/aaaa", f) << pairs << "aaaa" << Spans{{264, 0, 2}, {264, 2, 4}};
            // Rank beats position: "b c" (rank 9) before "a b" (rank 10).
            QTest::addRow("%s/abc", f) << pairs << "abc" << Spans{{97, 0, 1}, {265, 1, 3}};
            // é = C3 A9, both bytes map to themselves; 🦙 = F0 9F A6 99 (two UTF-16 units).
            QTest::addRow("%s/multibyte", f)
                << pairs << "\u00e9\U0001F999" << Spans{{0xC3, 0, 1}, {0xA9, 0, 1}, {0xF0, 1, 3},
                                                        {0x9F, 1, 3}, {0xA6, 1, 3}, {0x99, 1, 3}};
            // Added tokens are cut out before the regex; the longest match wins.
            QTest::addRow("%s/added", f)
                << pairs << "hello<|x|> world"
                << Spans{{259, 0, 5}, {300, 5, 10}, {262, 10, 14}, {263, 14, 16}};
            QTest::addRow("%s/longest", f)
                << pairs << "<|x|>!<t>" << Spans{{302, 0, 6}, {301, 6, 9}};
            // GPT-2 regex: " ?\p{N}+" keeps the space with the digits (Ġ = id 32).
            QTest::addRow("%s/digits", f)
                << pairs << "x 123"
                << Spans{{120, 0, 1}, {32, 1, 2}, {49, 2, 3}, {50, 3, 4}, {51, 4, 5}};
        }
    }
    void byteLevel()
    {
        QFETCH(bool, pairMerges);
        QFETCH(QString, text);
        QFETCH(Spans, expected);
        const auto tok = make(byteLevelJson(pairMerges, false));
        QCOMPARE(spans(tok->encodeWithOffsets(text)), expected);
        QCOMPARE(tok->decode(tok->encode(text), false), text);
    }

    void byteLevelDetails()
    {
        const auto tok = make(byteLevelJson(false, false));
        QCOMPARE(tok->decode({259, 300, 262, 263}), QStringLiteral("hello world"));
        QCOMPARE(tok->decode({259, 301}), QStringLiteral("hello<t>")); // not special: kept
        QCOMPARE(tok->vocabSize(), 303);
        QCOMPARE(tok->tokenToId(QStringLiteral("\u0120wor")), std::optional<int>(262));
        QCOMPARE(tok->idToToken(300), QStringLiteral("<|x|>"));
        QCOMPARE(tok->encode(QStringLiteral("hi"), true),
                 (std::vector<int>{104, 105})); // no template
        // add_prefix_space: "hello" becomes " hello"; the inserted Ġ covers no input.
        const auto pre = make(byteLevelJson(false, true));
        QCOMPARE(spans(pre->encodeWithOffsets(QStringLiteral("hello"))),
                 (Spans{{32, 0, 0}, {259, 0, 5}}));
    }

    void metaspace_data()
    {
        QTest::addColumn<QString>("flavour");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("addSpecial");
        QTest::addColumn<Spans>("expected");
        for (const char* f : {"normalizer", "metaspace", "split"}) {
            // "▁ab▁ab": "▁ a" at 0 and 3 (leftmost first), then "▁a b" twice.
            QTest::addRow("%s/ab ab", f)
                << f << "ab ab" << false << Spans{{264, 0, 2}, {264, 2, 5}};
            // "▁bab": only "a b" applies; the prepended ▁ stands for no input.
            QTest::addRow("%s/bab", f)
                << f << "bab" << false << Spans{{259, 0, 0}, {261, 0, 1}, {263, 1, 3}};
            // é is not in the vocabulary: <0xC3> <0xA9> = 3+195, 3+169.
            QTest::addRow("%s/fallback", f)
                << f << "\u00e9" << false << Spans{{259, 0, 0}, {198, 0, 1}, {172, 0, 1}};
            QTest::addRow("%s/newline", f)
                << f << "a\nb" << false << Spans{{262, 0, 1}, {13, 1, 2}, {261, 2, 3}};
            QTest::addRow("%s/bos", f) << f << "ab" << true << Spans{{1, 0, 0}, {264, 0, 2}};
        }
        // After an added token: Prepend (a normalizer) prepends to every piece, the
        // Metaspace pre-tokenizer with prepend_scheme "first" only at the text's start.
        QTest::newRow("normalizer/after <s>") << "normalizer"
                                              << "<s>ab" << false << Spans{{1, 0, 3}, {264, 3, 5}};
        QTest::newRow("metaspace/after <s>") << "metaspace"
                                             << "<s>ab" << false << Spans{{1, 0, 3}, {263, 3, 5}};
    }
    void metaspace()
    {
        QFETCH(QString, flavour);
        QFETCH(QString, text);
        QFETCH(bool, addSpecial);
        QFETCH(Spans, expected);
        const auto tok = make(metaspaceJson(flavour));
        QCOMPARE(spans(tok->encodeWithOffsets(text, addSpecial)), expected);
        if (!text.contains(QLatin1String("<s>")))
            QCOMPARE(tok->decode(tok->encode(text, addSpecial)), text);
    }

    void metaspaceDetails()
    {
        const auto tok = make(metaspaceJson(QStringLiteral("normalizer")));
        QCOMPARE(tok->bosId(), std::optional<int>(1));
        QCOMPARE(tok->decode({1, 264}, false), QStringLiteral("<s> ab"));
        QCOMPARE(tok->decode({1, 264, 2}), QStringLiteral("ab"));
        QCOMPARE(tok->stopIds(), std::vector<int>{2});
        // Without byte fallback an unknown character is <unk>; fuse_unk joins a run.
        const auto unk = make(metaspaceJson(QStringLiteral("normalizer"), false));
        QCOMPARE(spans(unk->encodeWithOffsets(QStringLiteral("\u00e9\u00e8"))),
                 (Spans{{259, 0, 0}, {0, 0, 2}}));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("problem");
        auto edit = [](auto fn) {
            QJsonObject j = byteLevelJson(false, false);
            fn(j);
            return QJsonDocument(j).toJson();
        };
        QTest::newRow("bad json") << QByteArray("{\"model\": ") << "malformed JSON";
        QTest::newRow("no model") << QByteArray("{\"x\": 1}") << "no \"model\"";
        QTest::newRow("unknown model") << edit([](QJsonObject& j) {
            QJsonObject m = j["model"].toObject();
            m["type"] = "WordPiece";
            j["model"] = m;
        }) << "unsupported tokenizer model type 'WordPiece'";
        QTest::newRow("no vocab") << edit([](QJsonObject& j) {
            QJsonObject m = j["model"].toObject();
            m.remove("vocab");
            j["model"] = m;
        }) << "without a \"vocab\"";
        QTest::newRow("no merges") << edit([](QJsonObject& j) {
            QJsonObject m = j["model"].toObject();
            m.remove("merges");
            j["model"] = m;
        }) << "without a \"merges\"";
        QTest::newRow("unknown merge token") << edit([](QJsonObject& j) {
            QJsonObject m = j["model"].toObject();
            QJsonArray merges = m["merges"].toArray();
            merges.append("zz q");
            m["merges"] = merges;
            j["model"] = m;
        }) << "refers to 'zz'";
        QTest::newRow("bad merge") << edit([](QJsonObject& j) {
            QJsonObject m = j["model"].toObject();
            m["merges"] = QJsonArray{"abc"};
            j["model"] = m;
        }) << "is not a pair";
        QTest::newRow("unsupported pre-tokenizer") << edit([](QJsonObject& j) {
            j["pre_tokenizer"] = QJsonObject{{"type", "BertPreTokenizer"}};
        }) << "unsupported pre-tokenizer type 'BertPreTokenizer'";
        QTest::newRow("bad regex") << edit([](QJsonObject& j) {
            j["pre_tokenizer"] = QJsonObject{{"type", "Split"},
                                             {"pattern", QJsonObject{{"Regex", "(["}}},
                                             {"behavior", "Isolated"}};
        }) << "does not compile";
        QTest::newRow("unsupported normalizer") << edit([](QJsonObject& j) {
            j["normalizer"] = QJsonObject{{"type", "Precompiled"}};
        }) << "unsupported normalizer type 'Precompiled'";
        QTest::newRow("unsupported decoder") << edit([](QJsonObject& j) {
            j["decoder"] = QJsonObject{{"type", "CTC"}};
        }) << "unsupported decoder type 'CTC'";
        // An empty Strip content matched forever at the same place: decoding hung (found
        // by libFuzzer, tests/fuzz/corpus/fuzz_tokenizer/strip_empty_content.json).
        const auto strip = [&](const QJsonValue& content, int start, int stop) {
            return edit([=](QJsonObject& j) {
                j["decoder"] = QJsonObject{
                    {"type", "Strip"}, {"content", content}, {"start", start}, {"stop", stop}};
            });
        };
        QTest::newRow("empty Strip content")
            << strip("", 1, 0) << "Strip decoder: content must be one character";
        QTest::newRow("two-character Strip content")
            << strip("ab", 1, 0) << "Strip decoder: content must be one character";
        QTest::newRow("negative Strip count")
            << strip(" ", -1, 0) << "start and stop counts of at least 0 (got ' ', -1, 0)";
        // The id -> token table is sized by the largest id: a stray huge id is refused
        // before it allocates (2^31-1 used to end in std::vector's max_size()).
        const auto vocabId = [&](const QString& token, double id) {
            return edit([&](QJsonObject& j) {
                QJsonObject m = j["model"].toObject();
                QJsonObject v = m["vocab"].toObject();
                v[token] = id;
                m["vocab"] = v;
                j["model"] = m;
            });
        };
        QTest::newRow("huge id") << vocabId("zz", 2147483647.0)
                                 << "token 'zz' has id 2147483647, far above the 271 entries";
        QTest::newRow("sparse id") << vocabId("zz", 1e8) << "token 'zz' has id 100000000";
        QTest::newRow("huge added id") << edit([](QJsonObject& j) {
            QJsonArray added = j["added_tokens"].toArray();
            added.append(addedToken(2147483647, "<big>", true));
            j["added_tokens"] = added;
        }) << "token '<big>' has id 2147483647";
        QTest::newRow("duplicate vocab id")
            << vocabId("zz", 257) << "vocab entries 'll' and 'zz' share id 257";
        QTest::newRow("duplicate added id") << edit([](QJsonObject& j) {
            QJsonArray added = j["added_tokens"].toArray();
            added.append(addedToken(300, "<|y|>", true));
            j["added_tokens"] = added;
        }) << "added tokens '<|x|>' and '<|y|>' share id 300";
        QJsonObject noByte = metaspaceJson(QStringLiteral("split"));
        QJsonObject model = noByte["model"].toObject();
        QJsonObject vocab = model["vocab"].toObject();
        vocab.remove("<0x41>");
        model["vocab"] = vocab;
        noByte["model"] = model;
        QTest::newRow("missing byte fallback token")
            << QJsonDocument(noByte).toJson()
            << "byte_fallback is true but the vocabulary lacks the byte token '<0x41>' (1 of";
    }
    void errors()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokenizer.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        try {
            kvl::loadTokenizer(path);
            QFAIL("no error");
        } catch (const kvl::Error& e) {
            QVERIFY2(e.message().contains(path), qPrintable(e.message()));
            QVERIFY2(e.message().contains(problem), qPrintable(e.message()));
        }
    }
    void missingFile()
    {
        QVERIFY_THROWS_EXCEPTION(kvl::Error,
                                 kvl::loadTokenizer(QStringLiteral("/nonexistent/tokenizer.json")));
    }

    void byteTokenizer()
    {
        const auto tok = kvl::loadTokenizer(QStringLiteral("byte"));
        // h = 104; é = C3 A9 (both from unit 1); <|eos|> is one token over 7 units.
        QCOMPARE(spans(tok->encodeWithOffsets(QStringLiteral("h\u00e9<|eos|>"), true)),
                 (Spans{{256, 0, 0}, {104, 0, 1}, {0xC3, 1, 2}, {0xA9, 1, 2}, {257, 2, 9}}));
        QCOMPARE(tok->decode({256, 104, 0xC3, 0xA9, 257}), QStringLiteral("h\u00e9"));
        QCOMPARE(tok->decode({104, 257}, false), QStringLiteral("h<|eos|>"));
        QCOMPARE(tok->vocabSize(), 259);
        QCOMPARE(tok->bosId(), std::optional<int>(256));
        QCOMPARE(tok->stopIds(), std::vector<int>{257});
        QCOMPARE(tok->tokenToId(QStringLiteral("<|pad|>")), std::optional<int>(258));
        QCOMPARE(tok->tokenToId(QStringLiteral("<0x0A>")), std::optional<int>(10));
        QCOMPARE(tok->idToToken(65), QStringLiteral("A"));
        QCOMPARE(tok->idToToken(10), QStringLiteral("<0x0A>"));
    }

    void vocabIndex()
    {
        kvl::VocabIndex index;
        for (int i = 0; i < 5000; ++i)
            QVERIFY(index.insert(QStringLiteral("t%1").arg(i), 7 * i));
        QVERIFY(!index.insert(QStringLiteral("t42"), 1)); // the first id stays
        QCOMPARE(index.size(), 5000);
        for (int i = 0; i < 5000; ++i)
            QCOMPARE(index.find(QStringLiteral("t%1").arg(i)), 7 * i);
        QCOMPARE(index.find(QStringLiteral("t5000")), -1);
        QCOMPARE(index.find(QString()), -1);
        QCOMPARE(kvl::VocabIndex().find(QStringLiteral("x")), -1);
    }

    void normalizedAlignment()
    {
        // NFC joins e + U+0301 into é (both units map to it); x keeps its own unit.
        kvl::NormalizedText n = kvl::NormalizedText::identity(QStringLiteral("e\u0301x"));
        n.normalize(QString::NormalizationForm_C);
        QCOMPARE(n.text, QStringLiteral("\u00e9x"));
        QCOMPARE(n.align, (std::vector<std::pair<int, int>>{{0, 2}, {2, 3}}));
        // Hangul jamo compose across starters: ᄀ ᅡ ᆨ -> 각.
        kvl::NormalizedText h =
            kvl::NormalizedText::identity(QStringLiteral("a\u1100\u1161\u11a8b"));
        h.normalize(QString::NormalizationForm_C);
        QCOMPARE(h.text, QStringLiteral("a\uac01b"));
        QCOMPARE(h.align, (std::vector<std::pair<int, int>>{{0, 1}, {1, 4}, {4, 5}}));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerUnits)
#include "tst_tokenizerunits.moc"
