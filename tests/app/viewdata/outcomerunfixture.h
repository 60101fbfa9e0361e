#pragma once

// A hand-made run for the outcome grids (app/viewdata/outcomegrids.h), written with
// RunWriter: seven samples in three suites under FullCache and SnapKV, TOVA, ThinK at
// ratios 0.5 and 0.75. C = correct, W = wrong; the task score follows in brackets where
// it is not 1 for C and 0 for W ("-": no score).
//
//   sample  suite  FullCache  SnapKV@0.5  SnapKV@0.75  TOVA@0.5  TOVA@0.75  ThinK@0.5
//   n0      niah   C          C           W            W         W          C
//   n1      niah   C          W (0.5)     W            C         W          C
//   n2      niah   W          W           W            W         C          W
//   q0      qa     C          C           W (0.5)      W         C          failed
//   q1      qa     W          C           W            W         W          failed
//   q2      qa     C          W (0.25)    C            W (-)     C          failed
//   m0      math   W          W           W            W         W          failed
//
// ThinK@0.75 is configured but unsupported on every sample (the sample meta's
// kUnsupportedConfigs, as an import writes it): it has no row. ThinK@0.5 failed on the
// qa and math samples (kFailedConfigs). Transitions are decided against FullCache.
#include "storefixtures.h"

#include "store/runmetakeys.h"

#include <QJsonObject>
#include <cmath>
#include <optional>

namespace kvl::outcometest {

inline const QString kThinkUnsupported = QStringLiteral("N/A: ThinK prunes keys only");

struct Column
{
    const char* compressor;
    double ratio;
};

inline const std::vector<Column>& columns()
{
    static const std::vector<Column> list = {
        {"SnapKV", 0.5}, {"SnapKV", 0.75}, {"TOVA", 0.5}, {"TOVA", 0.75}, {"ThinK", 0.5}};
    return list;
}

inline void writeOutcomeRun(const QString& path)
{
    struct Row
    {
        const char* key;
        const char* suite;
        bool full;
        // Per column of columns(): 1 correct, 0 wrong, -1 no row (failed).
        int correct[5];
        // Scores that are not 1/0 for C/W; NaN: the row has no score.
        std::optional<double> score[5];
    };
    const double none = std::nan("");
    const std::vector<Row> rows = {
        {"n0", "niah", true, {1, 0, 0, 0, 1}, {}},
        {"n1", "niah", true, {0, 0, 1, 0, 1}, {0.5}},
        {"n2", "niah", false, {0, 0, 0, 1, 0}, {}},
        {"q0", "qa", true, {1, 0, 0, 1, -1}, {std::nullopt, 0.5}},
        {"q1", "qa", false, {1, 0, 0, 0, -1}, {}},
        {"q2", "qa", true, {0, 1, 0, 1, -1}, {0.25, std::nullopt, none}},
        {"m0", "math", false, {0, 0, 0, 0, -1}, {}},
    };
    RunWriter w(path);
    w.setRunInfo(test::runInfo());
    std::vector<ConfigRecord> configs = {test::config(kFullCacheCompressor, 0.0)};
    for (const Column& c : columns())
        configs.push_back(test::config(QLatin1String(c.compressor), c.ratio));
    const ConfigRecord think75 = test::config(QStringLiteral("ThinK"), 0.75);
    configs.push_back(think75);
    for (const ConfigRecord& c : configs)
        w.addConfig(c);
    for (const Row& row : rows) {
        SampleRecord rec;
        rec.sample.key = QLatin1String(row.key);
        rec.sample.suite = QLatin1String(row.suite);
        rec.sample.sourceId = rec.sample.key;
        rec.sample.contextLen = 8;
        rec.sample.questionLen = 2;
        rec.sample.gold = QStringLiteral("gold");
        QJsonObject failed;
        ResultRecord full;
        full.configKey = configs[0].key;
        full.correct = row.full;
        full.score = row.full ? 1.0 : 0.0;
        rec.results.push_back(full);
        for (std::size_t c = 0; c < columns().size(); ++c) {
            const ConfigRecord& config = configs[c + 1];
            if (row.correct[c] < 0) {
                failed.insert(config.key, QStringLiteral("out of memory"));
                continue;
            }
            ResultRecord r;
            r.configKey = config.key;
            r.correct = row.correct[c] == 1;
            r.score = row.score[c] ? (std::isnan(*row.score[c]) ? std::nullopt : row.score[c])
                                   : std::optional<double>(r.correct ? 1.0 : 0.0);
            rec.results.push_back(r);
        }
        rec.sample.meta.insert(kUnsupportedConfigs, QJsonObject{{think75.key, kThinkUnsupported}});
        if (!failed.isEmpty())
            rec.sample.meta.insert(kFailedConfigs, failed);
        decideRows(rec, configs);
        w.writeSample(rec);
    }
    w.setStatus(QStringLiteral("finished"));
}

} // namespace kvl::outcometest
