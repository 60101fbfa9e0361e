// Two runs compared: samples matched by content (store/samplematching), never by id
// alone, and each configuration's accuracy over the matched samples
// (store/runcomparison). Runs are written by hand; the expected figures are worked
// out in the comments.
#include "common/error.h"
#include "store/runcomparison.h"
#include "storefixtures.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {

struct Hand
{
    QString key;
    QString context;
    QString gold;
    std::vector<bool> correct; // per configuration of `configs`, in that order
    QString question = QStringLiteral("Who?");
};

SampleRecord handMade(const Hand& h, const std::vector<ConfigRecord>& configs, bool storeQuestion)
{
    SampleRecord rec;
    rec.sample.key = h.key;
    rec.sample.suite = QStringLiteral("retrieval");
    rec.sample.contextLen = int(h.context.size());
    rec.sample.gold = h.gold;
    rec.sample.meta.insert(QStringLiteral("context"), h.context);
    if (storeQuestion)
        rec.sample.meta.insert(QStringLiteral("question"), h.question);
    for (size_t c = 0; c < configs.size(); ++c) {
        ResultRecord r;
        r.configKey = configs[c].key;
        r.correct = h.correct[c];
        r.answer = r.correct ? h.gold : QStringLiteral("wrong");
        rec.results.push_back(r);
    }
    return rec;
}

void writeRun(const QString& path, const std::vector<ConfigRecord>& configs,
              const std::vector<Hand>& samples, bool storeQuestion = true)
{
    RunWriter w(path);
    w.setRunInfo(test::runInfo());
    for (const ConfigRecord& c : configs)
        w.addConfig(c);
    for (const Hand& h : samples)
        w.writeSample(handMade(h, configs, storeQuestion));
    w.setStatus(QStringLiteral("finished"));
}

const ConfigRecord kFull = test::config(QStringLiteral("FullCache"), 0.0);
const ConfigRecord kSnap = test::config(QStringLiteral("SnapKV"), 0.5);
const ConfigRecord kTova = test::config(QStringLiteral("TOVA"), 0.5);

// Run A (FullCache, SnapKV@0.5)          Run B (FullCache, SnapKV@0.5, TOVA@0.5)
//   p1 "Zoe Pike", long context  C W       p1 "Zoe Hart", short context  C C C
//   p2 "Ann"                     C C       x2 = A's p2 under another id   C W C
//   p3 (only in A)               C C       p4 (only in B)                 C C C
//   p5 "Bo"                      W W       p5 = A's p5                    C C W
// Matched: p2-x2, p5-p5. Mismatched: p1 (answer and context differ). Only A: p3.
// Only B: p4. Over the matched pairs:
//   FullCache  A 1/2 (p2), B 2/2: Δ +0.5; correct only in B: p5.
//   SnapKV@0.5 A 1/2 (p2), B 1/2 (p5): Δ 0; one each way.
//   TOVA@0.5   only in B: n 0, no accuracy.
void writeRuns(const QString& a, const QString& b, bool questionInA = true)
{
    writeRun(a, {kFull, kSnap},
             {{QStringLiteral("p1"),
               QStringLiteral("a long context about Zoe Pike"),
               QStringLiteral("Zoe Pike"),
               {true, false}},
              {QStringLiteral("p2"),
               QStringLiteral("Ann lives here"),
               QStringLiteral("Ann"),
               {true, true}},
              {QStringLiteral("p3"), QStringLiteral("only A"), QStringLiteral("C"), {true, true}},
              {QStringLiteral("p5"),
               QStringLiteral("Bo lives there"),
               QStringLiteral("Bo"),
               {false, false}}},
             questionInA);
    writeRun(
        b, {kFull, kSnap, kTova},
        {{QStringLiteral("p1"),
          QStringLiteral("Zoe Hart"),
          QStringLiteral("Zoe Hart"),
          {true, true, true}},
         {QStringLiteral("x2"),
          QStringLiteral("Ann lives here"),
          QStringLiteral("Ann"),
          {true, false, true}},
         {QStringLiteral("p4"), QStringLiteral("only B"), QStringLiteral("D"), {true, true, true}},
         {QStringLiteral("p5"),
          QStringLiteral("Bo lives there"),
          QStringLiteral("Bo"),
          {true, true, false}}});
}

SampleInfo info(const QString& key, const QString& context, const QString& question,
                const QString& gold)
{
    SampleInfo s;
    s.key = key;
    s.suite = QStringLiteral("qa");
    s.gold = gold;
    s.meta.insert(QStringLiteral("context"), context);
    s.meta.insert(QStringLiteral("question"), question);
    return s;
}

} // namespace

class TstRunComparison : public QObject
{
    Q_OBJECT
  private slots:
    void matchesByContentNotId()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.kvl"));
        const QString b = dir.filePath(QStringLiteral("b.kvl"));
        writeRuns(a, b);
        const RunComparison c = compareRuns(a, b);
        const SampleMatching& m = c.matching;
        QCOMPARE(m.matched.size(), size_t(2));
        // Same content under another id is paired (pairing is by hash whatever the id).
        QCOMPARE(m.matched[0].keyA, QStringLiteral("p2"));
        QCOMPARE(m.matched[0].keyB, QStringLiteral("x2"));
        QCOMPARE(m.matched[1].keyA, QStringLiteral("p5"));
        QCOMPARE(m.matched[1].keyB, QStringLiteral("p5"));
        // Same id, other content: flagged, never paired.
        QCOMPARE(m.mismatched.size(), size_t(1));
        QCOMPARE(m.mismatched[0].key, QStringLiteral("p1"));
        QVERIFY2(m.mismatched[0].why.contains(QStringLiteral("'Zoe Pike' vs 'Zoe Hart'")),
                 qPrintable(m.mismatched[0].why));
        QVERIFY2(m.mismatched[0].why.contains(QStringLiteral("context differs (29 vs 8 tokens)")),
                 qPrintable(m.mismatched[0].why));
        QVERIFY(!m.keyInB(QStringLiteral("p1")));
        QVERIFY(!m.keyInA(QStringLiteral("p1")));
        QCOMPARE(m.keyInA(QStringLiteral("x2")).value_or(QString()), QStringLiteral("p2"));
        QCOMPARE(m.onlyA, QStringList{QStringLiteral("p3")});
        QCOMPARE(m.onlyB, QStringList{QStringLiteral("p4")});
        QCOMPARE(m.comparedFields,
                 (QStringList{QStringLiteral("suite"), QStringLiteral("context"),
                              QStringLiteral("question"), QStringLiteral("answer")}));
        QVERIFY(m.uncomparedFields.isEmpty());
        QCOMPARE(m.summary(),
                 QStringLiteral("2 matched by content (suite, context, question, answer) · 1 "
                                "mismatched (same id, other content) · 1 only in A · 1 only in B"));
    }

    void deltasOverMatchedSamples()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.kvl"));
        const QString b = dir.filePath(QStringLiteral("b.kvl"));
        writeRuns(a, b);
        const std::vector<AccuracyDelta> d = compareRuns(a, b).deltas;
        QCOMPARE(d.size(), size_t(3));
        QCOMPARE(d[0].compressor, QStringLiteral("FullCache"));
        QCOMPARE(d[0].n, 2);
        QCOMPARE(d[0].accuracyA(), 0.5);
        QCOMPARE(d[0].accuracyB(), 1.0);
        QCOMPARE(d[0].delta(), 0.5);
        QCOMPARE(d[0].onlyACorrect, 0);
        QCOMPARE(d[0].onlyBCorrect, 1);
        QCOMPARE(d[1].compressor, QStringLiteral("SnapKV"));
        QCOMPARE(d[1].ratio, 0.5);
        QCOMPARE(d[1].n, 2);
        QCOMPARE(d[1].accuracyA(), 0.5);
        QCOMPARE(d[1].accuracyB(), 0.5);
        QCOMPARE(d[1].delta(), 0.0);
        QCOMPARE(d[1].onlyACorrect, 1);
        QCOMPARE(d[1].onlyBCorrect, 1);
        QCOMPARE(d[2].compressor, QStringLiteral("TOVA"));
        QVERIFY(!d[2].inA);
        QVERIFY(d[2].inB);
        QCOMPARE(d[2].n, 0);
        QVERIFY(std::isnan(d[2].accuracyA()));
        QVERIFY(std::isnan(d[2].delta()));
    }

    // A run file written before the runner stored the question: the hash covers what
    // both runs hold, and says what it left out.
    void fieldOneRunLacksIsLeftOutAndNamed()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.kvl"));
        const QString b = dir.filePath(QStringLiteral("b.kvl"));
        writeRuns(a, b, /*questionInA=*/false);
        const SampleMatching m = compareRuns(a, b).matching;
        QCOMPARE(m.matched.size(), size_t(2));
        QCOMPARE(m.comparedFields, (QStringList{QStringLiteral("suite"), QStringLiteral("context"),
                                                QStringLiteral("answer")}));
        QCOMPARE(m.uncomparedFields, QStringList{QStringLiteral("question (not stored in A)")});
    }

    void questionAloneTellsSamplesApart()
    {
        const SampleMatching m = matchSamples({info(QStringLiteral("k"), QStringLiteral("ctx"),
                                                    QStringLiteral("Q1"), QStringLiteral("g"))},
                                              {info(QStringLiteral("k"), QStringLiteral("ctx"),
                                                    QStringLiteral("Q2"), QStringLiteral("g"))});
        QVERIFY(m.matched.empty());
        QCOMPARE(m.mismatched.size(), size_t(1));
        QCOMPARE(m.mismatched[0].why, QStringLiteral("question differs"));
    }

    // Two copies of one sample in each run pair one to one (same ids first); a third
    // copy in A has no partner left.
    void duplicatesPairOneToOne()
    {
        const auto s = [](const QString& key) {
            return info(key, QStringLiteral("c"), QStringLiteral("q"), QStringLiteral("g"));
        };
        const SampleMatching m =
            matchSamples({s(QStringLiteral("a")), s(QStringLiteral("b")), s(QStringLiteral("c"))},
                         {s(QStringLiteral("z")), s(QStringLiteral("b"))});
        QCOMPARE(m.matched.size(), size_t(2));
        QCOMPARE(m.keyInB(QStringLiteral("b")).value_or(QString()), QStringLiteral("b"));
        QCOMPARE(m.keyInB(QStringLiteral("a")).value_or(QString()), QStringLiteral("z"));
        QCOMPARE(m.onlyA, QStringList{QStringLiteral("c")});
        QVERIFY(m.onlyB.isEmpty());
    }

    void unreadableFileIsNamed()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.kvl"));
        writeRun(a, {kFull}, {});
        const QString missing = dir.filePath(QStringLiteral("missing.kvl"));
        try {
            compareRuns(a, missing);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(missing), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TstRunComparison)
#include "tst_runcomparison.moc"
