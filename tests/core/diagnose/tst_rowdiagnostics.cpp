// computeDiagnosticRow: the metrics of one row from the engine's plain data, worked
// out by hand (the mask is the one of tst_retentionmetrics).
#include "diagnose/interventionplan.h"
#include "diagnose/rowdiagnostics.h"

#include <QtTest>
#include <cmath>

using namespace kvl;

namespace {
// 2 layers x 2 kv-heads x 6 positions; kept: (0,0) {0,1,2}, (0,1) {2,3,4}, (1,0) {0,5}.
KeptMask handMask()
{
    KeptMask m(2, 2, 6, false);
    for (int t : {0, 1, 2})
        m.set(0, 0, t, true);
    for (int t : {2, 3, 4})
        m.set(0, 1, t, true);
    for (int t : {0, 5})
        m.set(1, 0, t, true);
    return m;
}

AttentionSummary attention(const std::vector<float>& h0, const std::vector<float>& h1)
{
    AttentionSummary a(1, 2, int(h0.size()));
    for (std::size_t t = 0; t < h0.size(); ++t) {
        a.at(0, 0, int(t)) = h0[t];
        a.at(0, 1, int(t)) = h1[t];
    }
    return a;
}
} // namespace

class TestRowDiagnostics : public QObject
{
    Q_OBJECT
  private slots:
    void measuredRow()
    {
        const KeptMask mask = handMask();
        const float ln3 = float(std::log(3.0));
        const std::vector<std::vector<float>> full{{0, 0}, {0, 0}};
        const std::vector<std::vector<float>> comp{{ln3, 0}, {0, ln3}};
        const AttentionSummary fullAtt = attention({.1f, .6f, .2f, .1f}, {.25f, .25f, .25f, .25f});
        const AttentionSummary compAtt = attention({.5f, .3f, 0, .2f}, {.4f, .2f, 0, .4f});
        RowDiagnosticInputs in;
        in.coverageType = CoverageType::MeasuredTokenCoverage;
        in.mask = &mask;
        in.evidenceSpans = {{1, 2, 3}};
        in.distractors = {4, 5};
        in.nllFull = 1.0;
        in.nllCompressed = 2.5;
        in.fullLogits = &full;
        in.compressedLogits = &comp;
        in.goldTokens = {1, 1};
        in.topK = 1;
        in.fullAttention = &fullAtt;
        in.compressedAttention = &compAtt;
        const DiagnosticRow row = computeDiagnosticRow(in);

        // ERR: 2/3, 2/3, 0, 0 -> 1/3. ECov of span {1,2,3}: ✓ ✓ ✗ ✗ -> 0.5.
        // DRR: D_rr over {4,5} = (0 + 1/2 + 1/2 + 0)/4 = 1/4 -> (1/4)/(1/4+1/3) = 3/7.
        QVERIFY(std::abs(*row.errSlot - 1.0 / 3.0) < 1e-12);
        QCOMPARE(*row.ecovSlot, 0.5);
        QVERIFY(std::abs(*row.drr - 3.0 / 7.0) < 1e-12);
        // ΔNLL = 2.5 - 1.0 = 1.5; GPR = e^-1.5.
        QCOMPARE(*row.deltaNll, 1.5);
        QVERIFY(std::abs(*row.gpr - std::exp(-1.5)) < 1e-15);
        // Step 1: P = (1/2,1/2), Q = (3/4,1/4): KL = 1/2 ln(4/3). Step 2 mirrors it:
        // the same KL. Mean = 0.14384103622589045.
        QVERIFY(std::abs(*row.kl - 0.5 * std::log(4.0 / 3.0)) < 1e-6);
        // Top-1: step 1 {0} vs {0} -> 1; step 2 {0} (tie -> lower id) vs {1} -> 0. Mean 0.5.
        QCOMPARE(*row.topK, 0.5);
        // Gold token 1: step 1 rank 0 -> 1 (shift +1); step 2 rank 0 -> 0 (0). Mean 0.5.
        QCOMPARE(*row.goldRankShift, 0.5);
        // EAR over E = {1,2,3}: full (.6+.2+.1 = .9, .75) -> .825; compressed
        // (.3+0+.2 = .5, .2+0+.4 = .6) -> .55; EAR = .55/.825 = 2/3.
        QVERIFY(std::abs(*row.ear - 2.0 / 3.0) < 1e-6);
        QCOMPARE(row.coverageType, CoverageType::MeasuredTokenCoverage);
    }

    void structuralRowHasNoCoverage()
    {
        const KeptMask mask = handMask();
        RowDiagnosticInputs in;
        in.coverageType = CoverageType::StructuralPositionAddressability;
        in.mask = &mask;
        in.evidenceSpans = {{1, 2, 3}};
        in.nllFull = 1.0;
        const DiagnosticRow row = computeDiagnosticRow(in);
        QVERIFY(!row.errSlot && !row.ecovSlot && !row.drr);
        QVERIFY(!row.deltaNll && !row.gpr); // compressed NLL missing
        QVERIFY(!row.kl && !row.topK && !row.goldRankShift && !row.ear);
    }

    void shamPositionsAvoidEvidence()
    {
        const Positions evidence{3, 4, 5, 9};
        const Positions sham = shamPositions(12, evidence, 7);
        QCOMPARE(sham.size(), evidence.size());
        QVERIFY(std::is_sorted(sham.begin(), sham.end()));
        QVERIFY(std::adjacent_find(sham.begin(), sham.end()) == sham.end());
        for (int t : sham) {
            QVERIFY(t >= 0 && t < 12);
            QVERIFY(std::find(evidence.begin(), evidence.end(), t) == evidence.end());
        }
        QCOMPARE(shamPositions(12, evidence, 7), sham); // deterministic
        // Only 2 non-evidence positions left: both, whatever the seed.
        QCOMPARE(shamPositions(5, {0, 1, 2}, 1), (Positions{3, 4}));
        QVERIFY(shamPositions(4, {}, 1).empty());
    }
};

QTEST_GUILESS_MAIN(TestRowDiagnostics)
#include "tst_rowdiagnostics.moc"
