// Retrieval recall under offloading: evidence recall per step from the shares a decode
// recorded, and the Text2JSON per-field recall (which step wrote a field's value, against
// that field's evidence span). Inputs are hand-built so every figure is known.
#include "diagnose/retrievalrecall.h"

#include <QtTest>

using namespace kvl;

class TestRetrievalRecall : public QObject
{
    Q_OBJECT

  private slots:
    void evidenceRecallIsTheMeanShareOverEvidence()
    {
        // 2 steps x 5 positions.
        const std::vector<double> shares{1.0, 0.5, 0.0, 0.25, 1.0, //
                                         0.0, 0.0, 1.0, 1.0,  0.5};
        QCOMPARE(*evidenceRecall(shares, 5, 0, {1, 3}), 0.375);
        QCOMPARE(*evidenceRecall(shares, 5, 1, {1, 3}), 0.5);
        // Positions outside the context do not count; none inside: no recall.
        QCOMPARE(*evidenceRecall(shares, 5, 1, {2, 9}), 1.0);
        QVERIFY(!evidenceRecall(shares, 5, 0, {7}));
        QVERIFY(!evidenceRecall(shares, 5, 2, {1})); // no such step
        QCOMPARE(evidenceRecallPerStep(shares, 5, {0, 4}), (std::vector<double>{1.0, 0.25}));
        QVERIFY(evidenceRecallPerStep(shares, 5, {}).empty());
    }

    void answerFieldsFollowTheirObjects()
    {
        const QString answer =
            QStringLiteral("[{\"name\":\"Anna Berg\",\"city\":\"Paris\",\"job\": \"baker\"},"
                           "{\"city\":\"Rome\",\"name\":\"Tom Ek\",\"pet\":\"ca");
        const std::vector<AnswerField> f = text2jsonAnswerFields(answer);
        QCOMPARE(int(f.size()), 3); // Rome comes before any name of its object
        QCOMPARE(f[0].name, QStringLiteral("Anna Berg"));
        QCOMPARE(f[0].field, QStringLiteral("city"));
        QCOMPARE(answer.mid(f[0].valueOffset, 5), QStringLiteral("Paris"));
        QCOMPARE(f[1].field, QStringLiteral("job"));
        QCOMPARE(answer.mid(f[1].valueOffset, 5), QStringLiteral("baker"));
        QCOMPARE(f[2].name, QStringLiteral("Tom Ek"));
        QCOMPARE(f[2].field, QStringLiteral("pet"));
        QCOMPARE(answer.mid(f[2].valueOffset), QStringLiteral("ca")); // cut off: still found
    }

    void tokenAtOffsetUsesTokenEnds()
    {
        const std::vector<int> ends{3, 5, 9};
        QCOMPARE(*tokenAtOffset(ends, 0), int64_t(0));
        QCOMPARE(*tokenAtOffset(ends, 2), int64_t(0));
        QCOMPARE(*tokenAtOffset(ends, 3), int64_t(1));
        QCOMPARE(*tokenAtOffset(ends, 8), int64_t(2));
        QVERIFY(!tokenAtOffset(ends, 9));
    }

    void fieldRecallReadsTheStepThatWroteTheValue()
    {
        // [{"name":"A","city":"X"}] in tokens: [{"name":"  A  ","city":"  X  "}]
        const QString answer = QStringLiteral("[{\"name\":\"A\",\"city\":\"X\"}]");
        const std::vector<int> ends{10, 11, 21, 22, 25};
        // 5 steps x 4 positions: the city's evidence is positions 2-3.
        std::vector<double> shares(20, 0.0);
        shares[3 * 4 + 2] = 1.0; // step 3 (chose token 3, the value X) sees position 2 only
        shares[2 * 4 + 3] = 1.0; // another step sees position 3
        const std::vector<LabelledPositions> spans{{QStringLiteral("A.job"), {0}},
                                                   {QStringLiteral("A.city"), {2, 3}}};
        const std::vector<FieldRecall> r =
            fieldRecalls(text2jsonAnswerFields(answer), ends, spans, shares, 4);
        QCOMPARE(int(r.size()), 1);
        QCOMPARE(r[0].name, QStringLiteral("A"));
        QCOMPARE(r[0].field, QStringLiteral("city"));
        QCOMPARE(r[0].step, int64_t(3));
        QCOMPARE(r[0].recall, 0.5);
        // A field with no evidence span (a name the context never had) is left out.
        QVERIFY(fieldRecalls(text2jsonAnswerFields(answer), ends, {}, shares, 4).empty());
    }
};

QTEST_GUILESS_MAIN(TestRetrievalRecall)
#include "tst_retrievalrecall.moc"
