#pragma once

// Small run fixtures: a hand-built run whose aggregates are worked out by hand in
// tst_runstore, and helpers to write runs. The app tests build their own run
// (tests/app/gui/guirunfixture.h) on the same configurations and correctness.
#include "store/rowdecisions.h"
#include "store/runwriter.h"

#include <QString>
#include <vector>

namespace kvl::test {

inline ConfigRecord config(const QString& compressor, double ratio)
{
    ConfigRecord c;
    c.compressor = compressor;
    c.ratio = ratio;
    c.key = ConfigRecord::makeKey(compressor, ratio);
    return c;
}

inline RunInfo runInfo(const QString& shard = QString())
{
    RunInfo info;
    info.spec = QJsonObject{{QStringLiteral("model"), QStringLiteral("bundled")},
                            {QStringLiteral("ratios"), QJsonArray{0.5, 0.75}}};
    if (!shard.isEmpty())
        info.spec.insert(QStringLiteral("shard"), shard);
    info.modelName = QStringLiteral("tiny");
    info.modelHash = QStringLiteral("abc123");
    info.toolVersion = QStringLiteral("0.1.0");
    return info;
}

// The four configurations of the hand-built runs.
inline std::vector<ConfigRecord> handConfigs()
{
    return {config(QStringLiteral("FullCache"), 0.0), config(QStringLiteral("SnapKV"), 0.5),
            config(QStringLiteral("TOVA"), 0.5), config(QStringLiteral("SnapKV"), 0.75)};
}

// The result rows of sample s (0..3), one per hand configuration in that order.
// Correct per configuration (FullCache, SnapKV@0.5, TOVA@0.5, SnapKV@0.75):
//   s0: C C W W    s1: C W W W    s2: W C W W    s3: C W C C
// A correct row answers `gold`, a wrong one "wrong"; the rest is left to the run.
inline std::vector<ResultRecord> handResults(int s, const QString& gold)
{
    static const bool correct[4][4] = {{true, true, false, false},
                                       {true, false, false, false},
                                       {false, true, false, false},
                                       {true, false, true, true}};
    const std::vector<ConfigRecord> configs = handConfigs();
    std::vector<ResultRecord> results;
    for (int c = 0; c < 4; ++c) {
        ResultRecord r;
        r.configKey = configs[std::size_t(c)].key;
        r.correct = correct[s][c];
        r.answer = r.correct ? gold : QStringLiteral("wrong");
        results.push_back(r);
    }
    return results;
}

// Writes a run of the hand configurations and makeSample(s) for each of `samples`,
// then sets its status.
template <typename MakeSample>
void writeRunOf(const QString& path, const RunInfo& info, const std::vector<int>& samples,
                MakeSample makeSample, const QString& status)
{
    RunWriter w(path);
    w.setRunInfo(info);
    for (const ConfigRecord& c : handConfigs())
        w.addConfig(c);
    for (int s : samples) {
        SampleRecord rec = makeSample(s);
        decideRows(rec, handConfigs()); // what the run decides before its rows are written
        w.writeSample(rec);
    }
    w.setStatus(status);
}

inline DiagnosticRow measured(double ecov, std::optional<double> dnll = std::nullopt)
{
    DiagnosticRow m;
    m.coverageType = CoverageType::MeasuredTokenCoverage;
    m.ecovSlot = ecov;
    m.deltaNll = dnll;
    return m;
}

// The hand-built run: samples s0..s3 (suites niah, niah, qa, qa), correct as in
// handResults(). C→W rows carry metrics that give known signatures:
//   SnapKV@0.5: s1 ECov 0.2 (low), s3 ECov 0.7 (partial)
//   TOVA@0.5:   s0 ECov 0.3 (low), s1 ECov 0.95 + dNLL 2 (high coverage drift)
//   SnapKV@0.75: s0, s1 ECov 0.1 (low)
// SnapKV@0.5 rows also carry instruction spans (order 0: 0.2, 0.4, 0.6, 0.8;
// order 1: 1.0) and an evidence span (0.0), leakage (0.1, 0.5, 0.31, 0.3) and
// per-layer stats (layer 0 GER 0, 0.5, 1, 0.5; layer 1 GER 0, consensus 0.25).
// TOVA@0.5: interventions on s0 (boost repaired, sham not) and s1 (neither).
inline SampleRecord handSample(int s)
{
    SampleRecord rec;
    rec.sample.key = QStringLiteral("s%1").arg(s);
    rec.sample.suite = s < 2 ? QStringLiteral("niah") : QStringLiteral("qa");
    rec.sample.sourceId = QString::number(100 + s);
    rec.sample.contextLen = 8;
    rec.sample.questionLen = 3;
    rec.sample.gold = QStringLiteral("gold%1").arg(s);
    rec.sample.spans = QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("evidence")},
                                              {QStringLiteral("start"), 2},
                                              {QStringLiteral("end"), 4}}};
    rec.results = handResults(s, rec.sample.gold);
    auto& snap = rec.results[1];
    auto& tova = rec.results[2];
    auto& snap75 = rec.results[3];
    if (s == 1)
        snap.metrics = measured(0.2);
    if (s == 3)
        snap.metrics = measured(0.7);
    if (s == 0)
        tova.metrics = measured(0.3);
    if (s == 1)
        tova.metrics = measured(0.95, 2.0);
    if (s == 0 || s == 1)
        snap75.metrics = measured(0.1);
    // A C→C row with low coverage must stay without a signature.
    if (s == 0)
        snap.metrics = measured(0.1);
    snap.spans = {{0, QStringLiteral("instruction"), 0, 0.2 * (s + 1)},
                  {1, QStringLiteral("instruction"), 1, 1.0},
                  {2, QStringLiteral("evidence"), std::nullopt, 0.0}};
    snap.leakage = std::vector<double>{0.1, 0.5, 0.31, 0.3}[std::size_t(s)];
    snap.layers = {{0, std::vector<double>{0, 0.5, 1, 0.5}[std::size_t(s)], std::nullopt},
                   {1, 0.0, 0.25}};
    if (s == 0)
        tova.interventions = {{QStringLiteral("boost"), 4.0, QStringLiteral("gold0"), true},
                              {QStringLiteral("sham"), 4.0, QStringLiteral("wrong"), false}};
    if (s == 1)
        tova.interventions = {{QStringLiteral("boost"), 4.0, QStringLiteral("x"), false},
                              {QStringLiteral("sham"), 4.0, QStringLiteral("y"), false}};
    decideRows(rec, handConfigs());
    return rec;
}

inline void writeHandRun(const QString& path, const std::vector<int>& samples,
                         const QString& shard = QString())
{
    writeRunOf(path, runInfo(shard), samples, handSample, QStringLiteral("finished"));
}

} // namespace kvl::test
