// ΔNLL, GPR, KL, top-k overlap and gold-rank shift on hand-computed cases.
#include "common/error.h"
#include "diagnose/likelihoodmetrics.h"

#include <QtTest>
#include <cmath>

using namespace kvl;

class TestLikelihoodMetrics : public QObject
{
    Q_OBJECT
  private slots:
    void deltaNllAndGpr()
    {
        // NLL_comp 2.5, NLL_full 1.0 -> ΔNLL = 1.5; GPR = e^-1.5 = 0.22313016014842982
        QCOMPARE(deltaNll(2.5, 1.0), 1.5);
        QCOMPARE_LE(std::abs(goldProbabilityRatio(1.5) - 0.22313016014842982), 1e-15);
        QCOMPARE(goldProbabilityRatio(0.0), 1.0);
        // p_full = 0.5, p_comp = 0.25: ΔNLL = ln 2, GPR = 0.5 = p_comp / p_full
        QCOMPARE_LE(std::abs(goldProbabilityRatio(deltaNll(-std::log(0.25), -std::log(0.5))) - 0.5),
                    1e-15);
    }
    void kl()
    {
        // full logits (0,0) -> P = (1/2, 1/2); comp logits (ln 3, 0) -> Q = (3/4, 1/4).
        // KL(P‖Q) = 1/2 ln((1/2)/(3/4)) + 1/2 ln((1/2)/(1/4)) = 1/2 ln(4/3) = 0.14384103622589045
        const std::vector<float> full{0.0f, 0.0f};
        const std::vector<float> comp{float(std::log(3.0)), 0.0f};
        QCOMPARE_LE(std::abs(nextTokenKl(full, comp) - 0.14384103622589045), 1e-7);
        QCOMPARE(nextTokenKl(full, full), 0.0);
        // Shifting all logits by a constant leaves the distribution unchanged.
        QCOMPARE_LE(nextTokenKl({1.0f, 2.0f, 3.0f}, {11.0f, 12.0f, 13.0f}), 1e-9);
        QVERIFY_THROWS_EXCEPTION(Error, nextTokenKl({0.0f}, {0.0f, 1.0f}));
    }
    void topK()
    {
        // full top-2 = {0,1}; comp top-2 = {1,2} -> 1/2. top-3: {0,1,2} vs {1,2,3} -> 2/3.
        const std::vector<float> full{5, 4, 3, 2, 1};
        const std::vector<float> comp{1, 5, 4, 3, 2};
        QCOMPARE(*topKOverlap(full, comp, 2), 0.5);
        QCOMPARE_LE(std::abs(*topKOverlap(full, comp, 3) - 2.0 / 3.0), 1e-12);
        QCOMPARE(*topKOverlap(full, comp, 5), 1.0);  // the whole vocabulary
        QCOMPARE(*topKOverlap(full, comp, 50), 1.0); // k clamped to 5
        // Ties go to the lower id: (1,1,1) top-2 = {0,1}; (0,1,1) top-2 = {1,2} -> 1/2.
        QCOMPARE(*topKOverlap({1, 1, 1}, {0, 1, 1}, 2), 0.5);
        QVERIFY(!topKOverlap(full, comp, 0).has_value());
    }
    void goldRankShift_()
    {
        // gold = 2. full: logit 3, higher are 5 and 4 -> rank 2. comp: logit 4, higher is
        // 5 -> rank 1. shift = 1 - 2 = -1 (the gold moved up).
        const std::vector<float> full{5, 4, 3, 2, 1};
        const std::vector<float> comp{1, 5, 4, 3, 2};
        QCOMPARE(goldRank(full, 2), 2);
        QCOMPARE(goldRank(comp, 2), 1);
        QCOMPARE(goldRankShift(full, comp, 2), -1);
        // gold = 0: rank 0 in full, rank 4 in comp -> +4
        QCOMPARE(goldRankShift(full, comp, 0), 4);
        QVERIFY_THROWS_EXCEPTION(Error, goldRank(full, 5));
    }
};

QTEST_GUILESS_MAIN(TestLikelihoodMetrics)
#include "tst_likelihoodmetrics.moc"
