#include "common/error.h"
#include "common/jsonio.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/hftokenizer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using kvl::BpeTrainer;
using kvl::BpeTrainerOptions;

namespace {
using Merges = std::vector<std::pair<QByteArray, QByteArray>>;

BpeTrainer trainOn(const QStringList& texts, int vocabSize, QStringList specials = {})
{
    BpeTrainerOptions o;
    o.vocabSize = vocabSize;
    o.specialTokens = specials;
    BpeTrainer t(o);
    for (const QString& s : texts)
        t.addText(s);
    t.train();
    return t;
}

// A deterministic corpus that looks like the task suites: records, numbers and
// prose over 3,000 made-up words (so a 4k vocabulary has something to learn).
QStringList corpus(int lines)
{
    QRandomGenerator rng(7);
    const QStringList syllables{"ka",  "lo",  "mi",  "ne",  "ru",  "sa",  "ti",
                                "vo",  "ze",  "qua", "bre", "din", "fol", "gar",
                                "hup", "jen", "pex", "tor", "wyn", "ul"};
    QStringList words;
    for (int i = 0; i < 3000; ++i) {
        QString w;
        for (int k = 0, n = 1 + int(rng.bounded(4)); k < n; ++k)
            w += syllables[int(rng.bounded(syllables.size()))];
        words << (i % 7 == 0 ? w.left(1).toUpper() + w.mid(1) : w);
    }
    QStringList out;
    for (int i = 0; i < lines; ++i) {
        QString s;
        for (int w = 0; w < 12; ++w) {
            // Zipf-like: low indices far more often.
            const double u = rng.generateDouble();
            s += words[int(u * u * u * words.size())] + QLatin1Char(' ');
        }
        s += QStringLiteral("K-%1 = %2.\n").arg(rng.bounded(10000)).arg(rng.bounded(100000));
        out << s;
    }
    return out;
}
} // namespace

class TestBpeTrainer : public QObject
{
    Q_OBJECT
  private slots:
    void handChecked()
    {
        // Pre-tokens "aaab" and " aaab". Pair counts: (a,a) 2+2 = 4, (a,b) 2, (' ',a) 1:
        // first merge "a a". Then (aa,a) 2, (a,b) 2, (' ',aa) 1: a tie, broken by the
        // smaller ids: a = 3+97 < aa = 259, so "a b". Then (aa,ab) 2 -> "aaab"; the
        // last pair (' ',aaab) occurs once, below the minimum frequency 2.
        const BpeTrainer two = trainOn({QStringLiteral("aaab aaab")}, 261);
        QCOMPARE(two.merges(), (Merges{{"a", "a"}, {"a", "b"}}));
        QCOMPARE(two.vocabSize(), 261);
        const BpeTrainer all = trainOn({QStringLiteral("aaab aaab")}, 1000);
        QCOMPARE(all.merges(), (Merges{{"a", "a"}, {"a", "b"}, {"aa", "ab"}}));
        QCOMPARE(all.vocabSize(), 262);

        // Ids: <|bos|> 0, <|eos|> 1, <|pad|> 2, byte b at 3+b, then aa 259, ab 260.
        const auto tok = two.tokenizer();
        QCOMPARE(tok->encode(QStringLiteral("aaab aaab")),
                 (std::vector<int>{259, 260, 3 + 32, 259, 260}));
        QCOMPARE(tok->encode(QStringLiteral("ab"), true), (std::vector<int>{0, 260}));
        QCOMPARE(tok->bosId(), std::optional<int>(0));
        QCOMPARE(tok->stopIds(), std::vector<int>{1});
        QCOMPARE(tok->tokenToId(QStringLiteral("<|pad|>")), std::optional<int>(2));
    }

    void specialsAreNotLearned()
    {
        // "<|eos|>" repeated would otherwise be merged; cut out, only "xy" pairs remain.
        const BpeTrainer t = trainOn({QStringLiteral("xy<|eos|>xy<|eos|><|sep|>xy")}, 300,
                                     {QStringLiteral("<|sep|>")});
        QCOMPARE(t.specialTokens(), (QStringList{"<|bos|>", "<|eos|>", "<|pad|>", "<|sep|>"}));
        QCOMPARE(t.merges(), (Merges{{"x", "y"}}));
        const auto tok = t.tokenizer();
        // xy = 4 + 256 = 260; <|eos|> 1, <|sep|> 3.
        QCOMPARE(tok->encode(QStringLiteral("xy<|sep|>xy<|eos|>")),
                 (std::vector<int>{260, 3, 260, 1}));
    }

    void roundTripThroughFile()
    {
        const QStringList texts = corpus(400);
        const BpeTrainer t = trainOn(texts, 600);
        QCOMPARE(t.vocabSize(), 600);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokenizer.json"));
        t.save(path);
        const auto tok = kvl::loadTokenizer(path);
        QCOMPARE(tok->vocabSize(), 600);
        const QStringList probes{texts[0], texts[399],
                                 QStringLiteral("unseen: caf\u00e9 \U0001F999 \u65e5\u672c\t\n  x"),
                                 QStringLiteral("<|bos|>key<|eos|>"), QString()};
        for (const QString& s : probes) {
            const std::vector<int> ids = tok->encode(s);
            QCOMPARE(tok->decode(ids, false), s);
            for (int id : ids)
                QVERIFY(id >= 0 && id < 600);
        }
        // A trained vocabulary compresses its own kind of text well below one token per byte.
        const std::vector<int> ids = tok->encode(texts[5]);
        QVERIFY2(
            ids.size() * 3 < size_t(texts[5].toUtf8().size()),
            qPrintable(
                QStringLiteral("%1 tokens for %2 bytes").arg(ids.size()).arg(texts[5].size())));
    }

    void deterministic()
    {
        const QStringList texts = corpus(200);
        QCOMPARE(QJsonDocument(trainOn(texts, 500).toJson()).toJson(),
                 QJsonDocument(trainOn(texts, 500).toJson()).toJson());
    }

    void readByTransformersJs()
    {
        // trained_small.json was written by `kvlens-cli tokenizer-train` and encoded by
        // transformers.js (make_reference.cjs): both loaders must agree on it.
        const QJsonObject ref =
            kvl::readJsonObject(QStringLiteral(KVLENS_TEST_DATA "/tokenizer/reference_ids.json"));
        const QJsonObject trained = ref.value(QStringLiteral("trained")).toObject();
        QVERIFY(!trained.isEmpty());
        const auto tok =
            kvl::loadTokenizer(QStringLiteral(KVLENS_TEST_DATA "/tokenizer/trained_small.json"));
        const QJsonArray strings = ref.value(QStringLiteral("strings")).toArray();
        for (qsizetype i = 0; i < strings.size(); ++i) {
            std::vector<int> expected;
            for (const QJsonValue& v :
                 trained.value(QStringLiteral("special")).toArray().at(i).toArray())
                expected.push_back(v.toInt());
            QCOMPARE(tok->encode(strings.at(i).toString(), true), expected);
        }
    }

    void tooSmallVocabulary()
    {
        BpeTrainerOptions o;
        o.vocabSize = 100;
        BpeTrainer t(o);
        t.addText(QStringLiteral("abc"));
        QVERIFY_THROWS_EXCEPTION(kvl::Error, t.train());
    }

    // About 3 MB of text trains to the asked vocabulary (the time is printed: a figure
    // to watch, not a test on shared machines).
    void trainsOnMegabytes()
    {
        QStringList texts = corpus(40000);
        QElapsedTimer timer;
        timer.start();
        const BpeTrainer t = trainOn(texts, 4096);
        const qint64 ms = timer.elapsed();
        qInfo("trained %d tokens on %lld lines in %lld ms", t.vocabSize(), qint64(texts.size()),
              ms);
        QCOMPARE(t.vocabSize(), 4096);
    }
};

QTEST_GUILESS_MAIN(TestBpeTrainer)
#include "tst_bpetrainer.moc"
