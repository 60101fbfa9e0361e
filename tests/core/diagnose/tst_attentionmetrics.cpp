// Evidence attention mass, EAR and head consensus on hand-built summaries.
#include "common/error.h"
#include "diagnose/attentionmetrics.h"

#include <QtTest>

using namespace kvl;

namespace {
AttentionSummary summary(int layers, int heads, const std::vector<std::vector<float>>& rows)
{
    AttentionSummary a(layers, heads, int(rows.front().size()));
    std::size_t i = 0;
    for (const auto& row : rows)
        for (float w : row)
            a.weights[i++] = w;
    return a;
}
} // namespace

class TestAttentionMetrics : public QObject
{
    Q_OBJECT
  private slots:
    void evidenceAttentionRatio_()
    {
        // 1 layer x 2 heads x 4 positions, E = {1,2}.
        // full:  h0 (.1 .6 .2 .1) -> .8;  h1 (.25 .25 .25 .25) -> .5;  mean .65
        // comp:  h0 (.5 .3 0 .2) -> .3;   h1 (.4 .2 0 .4) -> .2;       mean .25
        // EAR = .25 / .65 = 0.38461538...
        const AttentionSummary full =
            summary(1, 2, {{.1f, .6f, .2f, .1f}, {.25f, .25f, .25f, .25f}});
        const AttentionSummary comp = summary(1, 2, {{.5f, .3f, 0, .2f}, {.4f, .2f, 0, .4f}});
        QCOMPARE_LE(std::abs(*evidenceAttentionMass(full, {1, 2}) - 0.65), 1e-6);
        QCOMPARE_LE(std::abs(*evidenceAttentionMass(comp, {1, 2}) - 0.25), 1e-6);
        QCOMPARE_LE(std::abs(*evidenceAttentionRatio(comp, full, {1, 2}) - 0.25 / 0.65), 1e-6);
        QVERIFY(!evidenceAttentionRatio(comp, full, {}).has_value());
        QVERIFY(!evidenceAttentionRatio(0.3, 0.0).has_value()); // no mass in FullCache
        QVERIFY(!evidenceAttentionRatio(std::nullopt, 0.5).has_value());
        QCOMPARE(*evidenceAttentionRatio(0.3, 0.6), 0.5);
        QVERIFY_THROWS_EXCEPTION(Error, evidenceAttentionMass(full, {4}));
    }
    void headConsensus()
    {
        // 2 layers x 3 heads x 4 positions.
        // layer 0 argmaxes: 1, 1, 1 -> 1 distinct / 3 heads = 1/3
        // layer 1 argmaxes: 0, 2, 3 -> 3 / 3 = 1
        const AttentionSummary a = summary(2, 3,
                                           {{.1f, .7f, .1f, .1f},
                                            {.2f, .5f, .2f, .1f},
                                            {0, .9f, .1f, 0},
                                            {.6f, .2f, .1f, .1f},
                                            {.1f, .1f, .7f, .1f},
                                            {.1f, .1f, .1f, .7f}});
        const std::vector<double> c = headConsensusPerLayer(a);
        QCOMPARE(c.size(), std::size_t(2));
        QCOMPARE_LE(std::abs(c[0] - 1.0 / 3.0), 1e-12);
        QCOMPARE(c[1], 1.0);
        // Ties take the first position: (.5 .5) and (.2 .8) -> argmax 0 and 1 -> 2/2.
        QCOMPARE(headConsensusPerLayer(summary(1, 2, {{.5f, .5f}, {.2f, .8f}})),
                 (std::vector<double>{1.0}));
        QCOMPARE(headConsensusPerLayer(summary(1, 2, {{.5f, .5f}, {.6f, .4f}})),
                 (std::vector<double>{0.5}));
    }
};

QTEST_GUILESS_MAIN(TestAttentionMetrics)
#include "tst_attentionmetrics.moc"
