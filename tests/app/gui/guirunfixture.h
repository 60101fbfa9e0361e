#pragma once

// A hand-made run for the app tests, written with RunWriter. The numbers every
// test expects are worked out by hand in the comments below, not by the loader.
//
// Configurations and correctness are the store tests' (storefixtures.h: handConfigs,
// handResults): FullCache, SnapKV@0.5, TOVA@0.5, SnapKV@0.75. Correct per sample:
//        FC  S.5  T.5  S.75
//   s0:  C   C    W    W
//   s1:  C   W    W    W
//   s2:  W   C    W    W
//   s3:  C   W    C    C
// Accuracy: FullCache 3/4; SnapKV 0.5 → 2/4, 0.75 → 1/4; TOVA 0.5 → 1/4.
// C→W: SnapKV@0.5 {s1 low, s3 partial}; TOVA@0.5 {s0 low, s1 high-drift};
//      SnapKV@0.75 {s0 low, s1 low}.
// Overlap at 0.5: SnapKV only {s3}, TOVA only {s0}, both {s1}: Jaccard 1/3.
// SnapKV@0.5 masks (2 layers × 2 kv-heads): s0 over 4 positions, all kept but
// (L0,h0,t3), (L1,h0,t2), (L1,h1,t2); s1 over 5 positions, all kept but (L0,h0,t0),
// (L0,h1,t0), (L1,h1,t3). Attention of s1 under SnapKV@0.5: w(l,h,t) =
// (10l + 2h + t)/100; under FullCache 0.2 everywhere. Layer stats of SnapKV@0.5:
// s0 L0 GER 0.2 cons 0.5, L1 GER 0.4; s1 L0 GER 0.6 cons 1.0, L1 nothing; of
// SnapKV@0.75: s0 L0 GER 1.0.
// Instruction keep (order 0): SnapKV@0.5 s0 0.2, s1 0.6 (mean 0.4); SnapKV@0.75 s0 0.1.
// SnapKV@0.75 masks: s2 (no spans) all kept but (L0,h0,t0); s3 (a "format" span over
// position 1, labelled "fmt") all kept but (L0,h0,t1), (L0,h1,t1): s3 is C→C there and
// stores no attention of its own, while its FullCache attention is 0.1 everywhere.
// Leakage (leak when > 0.3): FullCache s0 0.1, s1 0.5 (rate 1/2); SnapKV@0.5 s0 0.4,
// s1 0.9 (rate 1). Interventions on TOVA@0.5: s0 boost repaired, sham not; s1 neither
// (boost 1/2, sham 0/2).
#include "storefixtures.h"

#include <QJsonArray>
#include <QJsonObject>
#include <map>

namespace kvl::guitest {

inline KeptMask maskWithout(int layers, int heads, int len, std::vector<std::array<int, 3>> off)
{
    KeptMask m(layers, heads, len, true);
    for (const auto& [l, h, t] : off)
        m.set(l, h, t, false);
    return m;
}

inline SampleRecord sample(int s)
{
    SampleRecord rec;
    rec.sample.key = QStringLiteral("s%1").arg(s);
    rec.sample.suite = QStringLiteral("niah");
    rec.sample.sourceId = QString::number(s);
    rec.sample.contextLen = s == 1 ? 5 : 4;
    rec.sample.questionLen = 2;
    rec.sample.gold = QStringLiteral("gold%1").arg(s);
    if (s == 0)
        rec.sample.spans = QJsonArray{QJsonObject{{"kind", "instruction"},
                                                  {"start", 0},
                                                  {"end", 2},
                                                  {"role", "system"},
                                                  {"label", "rules"}}};
    if (s == 3)
        rec.sample.spans = QJsonArray{QJsonObject{{"kind", "instruction"},
                                                  {"start", 1},
                                                  {"end", 2},
                                                  {"role", "format"},
                                                  {"label", "fmt"}}};
    if (s == 1) {
        rec.sample.spans = QJsonArray{
            QJsonObject{{"kind", "evidence"}, {"start", 1}, {"end", 3}},
            QJsonObject{{"kind", "instruction"}, {"start", 3}, {"end", 5}, {"order", 0}}};
        rec.sample.meta = QJsonObject{
            {"context", "ab cd ef gh ij"},
            {"token_offsets", QJsonArray{QJsonArray{0, 2}, QJsonArray{3, 5}, QJsonArray{6, 8},
                                         QJsonArray{9, 11}, QJsonArray{12, 14}}}};
    }
    rec.results = test::handResults(s, rec.sample.gold);
    auto& snap = rec.results[1];
    auto& tova = rec.results[2];
    auto& snap75 = rec.results[3];
    auto low = [](ResultRecord& r, double ecov) {
        r.signature = Signature::LowMappedCoverage;
        r.metrics.ecovSlot = ecov;
    };
    if (s == 1)
        low(snap, 0.2);
    if (s == 3) {
        snap.signature = Signature::PartialMappedCoverage;
        snap.metrics.ecovSlot = 0.7;
    }
    if (s == 0)
        low(tova, 0.3);
    if (s == 1) {
        tova.signature = Signature::HighMappedCoverageLikelihoodDrift;
        tova.metrics.ecovSlot = 0.95;
        tova.metrics.deltaNll = 2.0;
    }
    if (s == 0 || s == 1)
        low(snap75, 0.1);
    if (s == 0) {
        snap.spans = {{0, QStringLiteral("instruction"), 0, 0.2}};
        snap75.spans = {{0, QStringLiteral("instruction"), 0, 0.1}};
        rec.results[0].leakage = 0.1;
        snap.leakage = 0.4;
        tova.interventions = {{QStringLiteral("boost"), 4.0, QStringLiteral("gold0"), true},
                              {QStringLiteral("sham"), 4.0, QStringLiteral("x"), false}};
    }
    if (s == 1) {
        snap.spans = {{1, QStringLiteral("instruction"), 0, 0.6}};
        rec.results[0].leakage = 0.5;
        snap.leakage = 0.9;
        tova.interventions = {{QStringLiteral("boost"), 4.0, QStringLiteral("y"), false},
                              {QStringLiteral("sham"), 4.0, QStringLiteral("z"), false}};
    }
    if (s == 0) {
        snap.mask = maskWithout(2, 2, 4, {{0, 0, 3}, {1, 0, 2}, {1, 1, 2}});
        snap.layers = {{0, 0.2, 0.5}, {1, 0.4, std::nullopt}};
        snap75.layers = {{0, 1.0, std::nullopt}};
    }
    if (s == 1) {
        snap.mask = maskWithout(2, 2, 5, {{0, 0, 0}, {0, 1, 0}, {1, 1, 3}});
        snap.layers = {{0, 0.6, 1.0}};
        AttentionSummary a(2, 2, 5);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h)
                for (int t = 0; t < 5; ++t)
                    a.at(l, h, t) = float(10 * l + 2 * h + t) / 100.0f;
        snap.attention = a;
        AttentionSummary full(2, 2, 5);
        std::fill(full.weights.begin(), full.weights.end(), 0.2f);
        rec.results[0].attention = full;
    }
    if (s == 2)
        snap75.mask = maskWithout(2, 2, 4, {{0, 0, 0}});
    if (s == 3) {
        snap75.mask = maskWithout(2, 2, 4, {{0, 0, 1}, {0, 1, 1}});
        AttentionSummary full(2, 2, 4);
        std::fill(full.weights.begin(), full.weights.end(), 0.1f);
        rec.results[0].attention = full;
    }
    decideRows(rec, test::handConfigs()); // the transitions the run would have decided
    return rec;
}

inline void writeRun(const QString& path, const std::vector<int>& samples,
                     const QString& status = QStringLiteral("finished"))
{
    RunInfo info;
    info.modelName = QStringLiteral("tiny");
    test::writeRunOf(path, info, samples, sample, status);
}

// Multihop samples s0, s1, s3 with the three-link gold chain "Hotel = Sierra = Charlie =
// 2025". C->W rows (handResults): SnapKV@0.5 {s1, s3}, TOVA@0.5 {s0, s1}, SnapKV@0.75
// {s0, s1}; each answers a chain broken as the table below says (a bare answer has no
// step). Chain breaks: SnapKV@0.5 start 1, link 2 1; SnapKV@0.75 link 1 1; TOVA@0.5
// link 1 1, number 1.
inline void writeChainRun(const QString& path)
{
    const QString gold = QStringLiteral("Hotel = Sierra = Charlie = 2025");
    // (sample, configuration index in handConfigs) -> the broken answer
    const std::map<std::pair<int, int>, QString> broken{
        {{1, 1}, QStringLiteral("Kilo = 7")},                     // another start
        {{3, 1}, QStringLiteral("Hotel = Sierra = Kilo = 7")},    // link 2
        {{0, 2}, QStringLiteral("Hotel = Tango = 3816")},         // link 1
        {{1, 2}, QStringLiteral("Hotel = Sierra = Charlie = 7")}, // the number
        {{0, 3}, QStringLiteral("3816")},                         // bare: no step
        {{1, 3}, QStringLiteral("Hotel = Tango = 3816")}};        // link 1
    const auto makeSample = [&](int s) {
        SampleRecord rec = test::handSample(s);
        rec.sample.suite = QStringLiteral("multihop");
        rec.sample.gold = gold;
        rec.results = test::handResults(s, gold);
        for (const auto& [where, answer] : broken)
            if (where.first == s)
                rec.results[std::size_t(where.second)].answer = answer;
        return rec;
    };
    test::writeRunOf(path, test::runInfo(), {0, 1, 3}, makeSample, QStringLiteral("finished"));
}

} // namespace kvl::guitest
