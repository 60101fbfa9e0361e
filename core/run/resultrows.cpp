#include "run/resultrows.h"

#include "diagnose/attentionmetrics.h"
#include "diagnose/routingmetrics.h"
#include "run/answerrun.h"
#include "run/preparedsample.h"

#include <torch/types.h>

#include <algorithm>

namespace kvl {

KeptMask keptMaskOf(const at::Tensor& kept)
{
    const at::Tensor bytes = kept.to(at::kByte).contiguous();
    KeptMask mask(int(bytes.size(0)), int(bytes.size(1)), int(bytes.size(2)), false);
    std::copy_n(bytes.data_ptr<uint8_t>(), bytes.numel(), mask.kept.begin());
    return mask;
}

void fillAnswerFields(ResultRecord& row, const AnswerRun& run, const PreparedSample& sample)
{
    row.answer = run.answer;
    row.correct = run.correct;
    row.score = run.score;
    const QString& suite = sample.sample.suite;
    if (suite == QLatin1String("instructions")) {
        row.leakage = run.scoreJson.value(QStringLiteral("leak_recall")).toDouble();
        QJsonObject compliance = run.scoreJson;
        for (const char* key : {"score", "leak", "leak_recall"})
            compliance.remove(QLatin1String(key));
        row.compliance = compliance;
    }
    if (suite == QLatin1String("text2json"))
        row.text2json = run.score;
    row.extra.insert(QStringLiteral("stop"), stopName(run.generation.stop));
    row.extra.insert(QStringLiteral("answer_tokens"), int(run.generation.ids.size()));
    if (!run.gold.tokenLogprobs.empty())
        row.extra.insert(QStringLiteral("nll"), run.gold.nll);
}

std::vector<SpanKeep> spanKeepsOf(const KeptMask& mask, const PreparedSample& sample)
{
    std::vector<SpanKeep> keeps;
    for (size_t i = 0; i < sample.spans.size(); ++i) {
        SpanKeep k;
        k.spanIndex = int(i);
        k.kind = sample.spans[i].kind;
        k.instructionOrder = sample.spans[i].instructionOrder;
        k.keepRate = spanKeepRate(mask, sample.spans[i].positions);
        keeps.push_back(k);
    }
    return keeps;
}

std::vector<LayerStat> layerStatsOf(const KeptMask* mask, const AttentionSummary& attention,
                                    const PreparedSample& sample)
{
    std::vector<double> ger;
    if (mask)
        ger = globalEvictionRatePerLayer(*mask, sample.evidence);
    const std::vector<double> consensus = headConsensusPerLayer(attention);
    const size_t layers = std::max(ger.size(), consensus.size());
    std::vector<LayerStat> stats;
    for (size_t l = 0; l < layers; ++l) {
        LayerStat s;
        s.layer = int(l);
        if (l < ger.size())
            s.ger = ger[l];
        if (l < consensus.size())
            s.consensus = consensus[l];
        stats.push_back(s);
    }
    return stats;
}

} // namespace kvl
