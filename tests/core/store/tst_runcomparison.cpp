// Two runs compared: samples matched by content (store/samplematching), never by id
// alone, and each configuration's accuracy over the matched samples
// (store/runcomparison). Runs are written by hand; the expected figures are worked
// out in the comments.
#include "common/error.h"
#include "comparefixtures.h"
#include "store/runcomparison.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {

using namespace kvl::test;

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
        writeComparedRuns(a, b);
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
        writeComparedRuns(a, b);
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
        writeComparedRuns(a, b, /*questionInA=*/false);
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
        writeHandRun(a, {kCompareFull}, {});
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
