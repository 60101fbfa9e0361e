// ERR, ECov, DRR, keep rates and GER on one hand-built mask; every expected value is
// worked out by hand in the comments.
#include "common/error.h"
#include "diagnose/keptmask.h"
#include "diagnose/retentionmetrics.h"
#include "diagnose/routingmetrics.h"

#include <QtTest>

using namespace kvl;

namespace {
// 2 layers x 2 kv-heads x 6 positions. Kept positions per slot:
//   (0,0): {0,1,2}   (0,1): {2,3,4}   (1,0): {0,5}   (1,1): {}
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
} // namespace

class TestRetentionMetrics : public QObject
{
    Q_OBJECT
  private slots:
    void evidenceRetentionRate_()
    {
        // E = {1,2,3}: |R∩E|/|E| = 2/3, 2/3, 0, 0 -> mean over 4 slots = 1/3.
        QCOMPARE_LE(std::abs(*evidenceRetentionRate(handMask(), {1, 2, 3}) - 1.0 / 3.0), 1e-12);
        // Duplicates count once: {3,1,2,2} is the same set.
        QCOMPARE_LE(std::abs(*evidenceRetentionRate(handMask(), {3, 1, 2, 2}) - 1.0 / 3.0), 1e-12);
        QVERIFY(!evidenceRetentionRate(handMask(), {}).has_value());
        QCOMPARE(*evidenceRetentionRate(KeptMask(3, 4, 5, true), {0, 4}), 1.0);
    }
    void evidenceCoverage_()
    {
        // spans {1,2,3} and {4,5}; fraction kept per (slot, span):
        //   (0,0): 2/3 ✓, 0 ✗   (0,1): 2/3 ✓, 1/2 ✓ (0.5 counts)
        //   (1,0): 0 ✗, 1/2 ✓   (1,1): 0 ✗, 0 ✗      -> 4 of 8 = 0.5
        QCOMPARE(*evidenceCoverage(handMask(), {{1, 2, 3}, {4, 5}}), 0.5);
        // only span {4,5}: 0,1,1,0 -> 2 of 4
        QCOMPARE(*evidenceCoverage(handMask(), {{4, 5}, {}}), 0.5);
        // span {0}: kept in (0,0), (1,0) -> 2 of 4
        QCOMPARE(*evidenceCoverage(handMask(), {{0}}), 0.5);
        QVERIFY(!evidenceCoverage(handMask(), {{}, {}}).has_value());
    }
    void distractorRetentionRatio_()
    {
        // D = {4,5}: 0, 1/2, 1/2, 0 -> D_rr = 1/4; ERR = 1/3 (above).
        // DRR = (1/4) / (1/4 + 1/3) = 3/7.
        QCOMPARE_LE(std::abs(*distractorRetentionRatio(handMask(), {1, 2, 3}, {4, 5}) - 3.0 / 7.0),
                    1e-12);
        QVERIFY(!distractorRetentionRatio(handMask(), {1, 2, 3}, {}).has_value());
        QVERIFY(!distractorRetentionRatio(0.0, 0.0).has_value()); // 0/0 is undefined
        QCOMPARE(*distractorRetentionRatio(0.2, 0.6), 0.25);
    }
    void keepRates()
    {
        // t=2: layer 0 both heads (1), layer 1 none (0) -> 0.5
        QCOMPARE(tokenKeepRate(handMask(), 2), 0.5);
        // t=0: layer 0 1/2, layer 1 1/2 -> 0.5;  t=5: 0 and 1/2 -> 0.25
        QCOMPARE(tokenKeepRate(handMask(), 0), 0.5);
        QCOMPARE(tokenKeepRate(handMask(), 5), 0.25);
        // span {0,2,5}: (0.5 + 0.5 + 0.25) / 3 = 0.416666...
        QCOMPARE_LE(std::abs(*spanKeepRate(handMask(), {0, 2, 5}) - 1.25 / 3.0), 1e-12);
        QVERIFY(!spanKeepRate(handMask(), {}).has_value());
    }
    void globalEvictionRate_()
    {
        // T_ans = {1,3,5}. Layer 0: t1 kept by h0, t3 by h1, t5 by none -> 1/3.
        // Layer 1: t1 none, t3 none, t5 by h0 -> 2/3. Over the model: (1/3+2/3)/2 = 0.5.
        const std::vector<double> perLayer = globalEvictionRatePerLayer(handMask(), {1, 3, 5});
        QCOMPARE(perLayer.size(), std::size_t(2));
        QCOMPARE_LE(std::abs(perLayer[0] - 1.0 / 3.0), 1e-12);
        QCOMPARE_LE(std::abs(perLayer[1] - 2.0 / 3.0), 1e-12);
        QCOMPARE(*globalEvictionRate(handMask(), {1, 3, 5}), 0.5);
        QVERIFY(!globalEvictionRate(handMask(), {}).has_value());
        // t=2 is kept by both heads of layer 0 and by none of layer 1: 0 and 1.
        QCOMPARE(globalEvictionRatePerLayer(handMask(), {2}), (std::vector<double>{0.0, 1.0}));
    }
    void positionOutsideContextThrows()
    {
        QVERIFY_THROWS_EXCEPTION(Error, evidenceRetentionRate(handMask(), {6}));
        QVERIFY_THROWS_EXCEPTION(Error, evidenceCoverage(handMask(), {{-1}}));
        QVERIFY_THROWS_EXCEPTION(Error, globalEvictionRate(handMask(), {9}));
    }
    void maskBitPacking()
    {
        const KeptMask m = handMask();
        const QByteArray bits = m.packBits();
        QCOMPARE(bits.size(), 3); // 24 entries -> 3 bytes
        // Entries 0..7 = (0,0,0..5) then (0,1,0..1): 1,1,1,0,0,0,0,0 -> 0b00000111
        QCOMPARE(quint8(bits[0]), quint8(0x07));
        // Entries 8..15 = (0,1,2..5) then (1,0,0..1): 1,1,1,0, 1,0 -> bits 0,1,2,4 = 0x17
        QCOMPARE(quint8(bits[1]), quint8(0x17));
        // Entries 16..23 = (1,0,4..5) then (1,1,0..5): 0,1,0,0,0,0,0,0 -> bit 1 = 0x02
        QCOMPARE(quint8(bits[2]), quint8(0x02));
        QCOMPARE(KeptMask::unpackBits(bits, 2, 2, 6), m);
        QCOMPARE(m.keptCount(), 8);
        QVERIFY_THROWS_EXCEPTION(Error, KeptMask::unpackBits(bits, 2, 2, 7));
    }
};

QTEST_GUILESS_MAIN(TestRetentionMetrics)
#include "tst_retentionmetrics.moc"
