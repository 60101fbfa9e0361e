#pragma once

// A hand-made run of offloaded decoding (issue 19) for the Offloading views' tests,
// written with RunWriter. Four samples (o0..o3, 40 context positions, evidence spans
// "alice.city" over 5..9 and "bob.age" over 20..23) under five configurations:
//
//   config                  landmark        chunk  mean_evidence_recall (o0..o3)  correct / score
//   FullCache@0             -               -      -                               C C C W
//   shadowkv@0.5            low_rank_mean   8      0.2 0.3 0.4 0.5 (mean 0.35)     C W C W
//   shadowkv@0.75           low_rank_mean   8      0.0 0.1 0.2 0.3 (mean 0.15)     W W W W
//   shadowkv-c1@0.5         low_rank_mean   1      0.6 every row                   C C W W
//   yakv@0.5                quantized_keys  1      0.9 every row                   score 0.8
//   0.9 1.0 0.7
//
// Retrieval maps (6 steps x 40 positions) on the shadowkv@0.5 and yakv@0.5 rows: byte
// (step * 40 + t) % 256; field_recall: alice.city written at step 2 (recall 0.25),
// bob.age at step 4 (recall 1.0).
#include "storefixtures.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvl::offloadtest {

struct OffloadConfig
{
    const char* compressor;
    double ratio;
    const char* landmark;
    int chunk;
};

inline const std::vector<OffloadConfig>& offloadConfigs()
{
    static const std::vector<OffloadConfig> list = {{"shadowkv", 0.5, "low_rank_mean", 8},
                                                    {"shadowkv", 0.75, "low_rank_mean", 8},
                                                    {"shadowkv-c1", 0.5, "low_rank_mean", 1},
                                                    {"yakv", 0.5, "quantized_keys", 1}};
    return list;
}

inline RetrievalMap fixtureMap()
{
    RetrievalMap m;
    m.steps = 6;
    m.contextLength = 40;
    m.shares.resize(240);
    for (int s = 0; s < 6; ++s)
        for (int t = 0; t < 40; ++t)
            m.shares[m.index(s, t)] = std::uint8_t((s * 40 + t) % 256);
    return m;
}

inline SampleRecord offloadSample(int i)
{
    SampleRecord rec;
    rec.sample.key = QStringLiteral("o%1").arg(i);
    rec.sample.suite = QStringLiteral("text2json");
    rec.sample.sourceId = QString::number(i);
    rec.sample.contextLen = 40;
    rec.sample.questionLen = 4;
    rec.sample.gold = QStringLiteral("{}");
    rec.sample.spans = QJsonArray{
        QJsonObject{{"kind", "evidence"}, {"start", 5}, {"end", 9}, {"label", "alice.city"}},
        QJsonObject{{"kind", "evidence"}, {"start", 20}, {"end", 23}, {"label", "bob.age"}},
        QJsonObject{{"kind", "distractor"}, {"start", 30}, {"end", 33}}};
    ResultRecord full;
    full.configKey = ConfigRecord::makeKey(kFullCacheCompressor, 0.0);
    full.correct = i < 3;
    rec.results.push_back(full);
    const bool correct[4][4] = {{true, false, true, false},
                                {false, false, false, false},
                                {true, true, false, false},
                                {true, true, true, true}};
    const double recall[4][4] = {
        {0.2, 0.3, 0.4, 0.5}, {0.0, 0.1, 0.2, 0.3}, {0.6, 0.6, 0.6, 0.6}, {0.9, 0.9, 0.9, 0.9}};
    const double yakvScore[4] = {0.8, 0.9, 1.0, 0.7};
    for (std::size_t c = 0; c < offloadConfigs().size(); ++c) {
        const OffloadConfig& oc = offloadConfigs()[c];
        ResultRecord r;
        r.configKey = ConfigRecord::makeKey(QLatin1String(oc.compressor), oc.ratio);
        r.correct = correct[c][i];
        if (c == 3)
            r.score = yakvScore[i];
        r.extra.insert(
            QStringLiteral("retrieval"),
            QJsonObject{
                {"landmark", oc.landmark},
                {"chunk", oc.chunk},
                {"budget_tokens", int(40 * (1 - oc.ratio))},
                {"steps", 6},
                {"mean_evidence_recall", recall[c][i]},
                {"evidence_recall", QJsonArray{1.0, 0.5, 0.25, 0.5, 1.0, 0.0}},
                {"field_recall",
                 QJsonArray{
                     QJsonObject{
                         {"name", "alice"}, {"field", "city"}, {"step", 2}, {"recall", 0.25}},
                     QJsonObject{
                         {"name", "bob"}, {"field", "age"}, {"step", 4}, {"recall", 1.0}}}}});
        if (c == 0 || c == 3)
            r.retrieval = fixtureMap();
        rec.results.push_back(r);
    }
    return rec;
}

inline void writeOffloadRun(const QString& path)
{
    RunWriter w(path);
    w.setRunInfo(test::runInfo());
    ConfigRecord full;
    full.compressor = kFullCacheCompressor;
    full.key = ConfigRecord::makeKey(kFullCacheCompressor, 0.0);
    w.addConfig(full);
    for (const OffloadConfig& oc : offloadConfigs()) {
        ConfigRecord c;
        c.compressor = QLatin1String(oc.compressor);
        c.ratio = oc.ratio;
        c.key = ConfigRecord::makeKey(c.compressor, c.ratio);
        w.addConfig(c);
    }
    for (int i = 0; i < 4; ++i)
        w.writeSample(offloadSample(i));
    w.setStatus(QStringLiteral("finished"));
}

} // namespace kvl::offloadtest
