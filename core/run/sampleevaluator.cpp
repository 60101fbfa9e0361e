#include "run/sampleevaluator.h"

#include "cache/keptselection.h"
#include "common/error.h"
#include "diagnose/interventionplan.h"
#include "diagnose/routingmetrics.h"
#include "diagnose/rowdiagnostics.h"
#include "diagnose/signature.h"
#include "model/transformer.h"
#include "run/preparedsample.h"
#include "run/resultrows.h"

#include <torch/torch.h>

#include <QElapsedTimer>
#include <cmath>

namespace kvl {

namespace {
double msSince(const QElapsedTimer& timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}
} // namespace

quint64 stableHash(const QString& text)
{
    quint64 h = 1469598103934665603ULL;
    for (const char c : text.toUtf8()) {
        h ^= quint64(static_cast<unsigned char>(c));
        h *= 1099511628211ULL;
    }
    return h;
}

SampleEvaluator::SampleEvaluator(const Transformer& model, const Tokenizer& tokenizer,
                                 const ExperimentSpec& spec, std::vector<SweepConfig> configs)
    : m_model(model), m_tokenizer(tokenizer), m_spec(spec), m_configs(std::move(configs)),
      m_full(fullCacheConfig()), m_stopIds(stopIdsOf(tokenizer, model.config().eosTokenIds))
{}

int SampleEvaluator::maxNewTokens(const PreparedSample& sample) const
{
    return m_spec.maxNewTokens > 0 ? m_spec.maxNewTokens : int(sample.ids.answer.size()) + 16;
}

void SampleEvaluator::checkFits(const PreparedSample& sample) const
{
    if (sample.ids.answer.empty())
        throw Error(
            QStringLiteral("sample %1: the gold answer has no tokens").arg(sample.info.key));
    const int64_t context = int64_t(sample.ids.context.size());
    const int64_t question = int64_t(sample.ids.question.size());
    // The gold answer is teacher-forced and the decoded one may run to the limit.
    const int64_t answer =
        std::max<int64_t>(int64_t(sample.ids.answer.size()), maxNewTokens(sample));
    m_model.checkLength(context + question + answer,
                        QStringLiteral("sample %1 (%2 context + %3 question + %4 answer tokens)")
                            .arg(sample.info.key)
                            .arg(context)
                            .arg(question)
                            .arg(answer));
}

bool SampleEvaluator::keepBlob(const QString& policy, bool fullCache, bool correct) const
{
    if (policy == QLatin1String("all"))
        return true;
    if (policy == QLatin1String("failures"))
        return fullCache || !correct;
    return false;
}

std::optional<SampleRecord> SampleEvaluator::evaluate(const PreparedSample& sample,
                                                      const std::function<bool()>& cancelled) const
{
    checkFits(sample);
    AnswerSettings settings;
    settings.maxNewTokens = maxNewTokens(sample);
    settings.stopIds = m_stopIds;

    QElapsedTimer timer;
    timer.start();
    int64_t window = 1;
    bool received = false;
    const int64_t length = int64_t(sample.ids.context.size());
    for (const SweepConfig& c : m_configs) {
        window = std::max(window, c.press->queryWindow(length));
        received = received || c.press->needsReceivedAttention();
    }
    PrefillOptions prefill;
    prefill.window = int(std::min(window, length));
    prefill.receivedAttention = received;
    const ContextCache cache = m_model.prefill(sample.ids.context, prefill);
    const double prefillMs = msSince(timer);

    SampleRecord record;
    record.sample = sample.info;
    const AnswerRun full = answerSample(m_model, m_tokenizer, sample, cache, CacheEdit{}, settings);
    timer.restart();
    ResultRecord fullRow;
    fullRow.configKey = m_full.key;
    fillAnswerFields(fullRow, full, sample);
    fullRow.metrics.coverageType = CoverageType::NotApplicable;
    const auto& cfg = m_model.config();
    fullRow.kvBytes = qint64(double(cfg.numLayers) * cfg.numKvHeads * double(length) * cfg.headDim *
                             2.0 * kCacheBytesPerElement);
    fullRow.layers = layerStatsOf(nullptr, full.attention, sample);
    if (keepBlob(m_spec.store.attention, true, full.correct))
        fullRow.attention = full.attention;
    fullRow.timings.prefillMs = prefillMs;
    fullRow.timings.answerMs = full.answerMs;
    fullRow.timings.diagnoseMs = msSince(timer);
    record.results.push_back(std::move(fullRow));

    for (const SweepConfig& config : m_configs) {
        if (cancelled && cancelled())
            return std::nullopt;
        record.results.push_back(compressedRow(sample, cache, full, config, settings));
    }
    return record;
}

ResultRecord SampleEvaluator::compressedRow(const PreparedSample& sample, const ContextCache& cache,
                                            const AnswerRun& full, const SweepConfig& config,
                                            const AnswerSettings& settings) const
{
    QElapsedTimer timer;
    timer.start();
    CompressionInput input;
    input.cache = &cache;
    input.config = &m_model.config();
    input.weights = &m_model.weights();
    input.rope = &m_model.rope();
    input.spans = sample.pressSpans;
    const CompressionResult result = config.press->compress(input, config.ratio);
    const double compressMs = msSince(timer);

    const ContextCache& context = result.context(cache);
    const CacheEdit edit = result.edit();
    const AnswerRun run = answerSample(m_model, m_tokenizer, sample, context, edit, settings);

    timer.restart();
    ResultRecord row;
    row.configKey = config.record.key;
    fillAnswerFields(row, run, sample);
    const KeptMask mask = keptMaskOf(result.kept);

    RowDiagnosticInputs in;
    in.coverageType = result.coverage;
    in.mask = &mask;
    in.evidenceSpans = sample.evidenceSpans;
    in.distractors = sample.distractors;
    in.nllFull = full.gold.nll;
    in.nllCompressed = run.gold.nll;
    in.fullLogits = &full.stepLogProbs;
    in.compressedLogits = &run.stepLogProbs;
    in.goldTokens = sample.ids.answer;
    in.topK = settings.topK;
    in.fullAttention = &full.attention;
    in.compressedAttention = &run.attention;
    row.metrics = computeDiagnosticRow(in);
    if (!sample.evidence.empty())
        row.ger = globalEvictionRate(mask, sample.evidence);
    row.layers = layerStatsOf(&mask, run.attention, sample);
    row.spans = spanKeepsOf(mask, sample);
    row.kvBytes = qint64(std::llround(result.keptBytes));
    row.extra.insert(QStringLiteral("kept_fraction"), result.keptFraction());
    row.extra.insert(QStringLiteral("compression"), result.toJson());
    row.transition = transitionOf(full.correct, run.correct);
    if (*row.transition == Transition::CorrectToWrong)
        row.signature = classifySignature(row.metrics);
    if (keepBlob(m_spec.store.masks, false, run.correct))
        row.mask = mask;
    if (keepBlob(m_spec.store.attention, false, run.correct))
        row.attention = run.attention;
    row.timings.compressMs = compressMs;
    row.timings.answerMs = run.answerMs;
    row.timings.diagnoseMs = msSince(timer);

    timer.restart();
    row.interventions = interventions(sample, context, edit, row, full.correct, settings);
    if (!row.interventions.empty())
        row.extra.insert(QStringLiteral("intervention_ms"), msSince(timer));
    return row;
}

std::vector<InterventionRecord>
SampleEvaluator::interventions(const PreparedSample& sample, const ContextCache& context,
                               const CacheEdit& edit, const ResultRecord& row, bool fullCorrect,
                               const AnswerSettings& settings) const
{
    std::vector<InterventionRecord> records;
    if (sample.evidence.empty())
        return records;
    const bool cToW = fullCorrect && !row.correct;
    const bool lowEar = cToW && row.metrics.ear && *row.metrics.ear < signature_thresholds::kLowEar;
    const int length = int(sample.ids.context.size());
    for (const InterventionSpec& spec : m_spec.interventions) {
        const bool selected = spec.on == QLatin1String("all") ||
                              (spec.on == QLatin1String("c_to_w") && cToW) ||
                              (spec.on == QLatin1String("low_ear") && lowEar);
        if (!selected)
            continue;
        const bool boost = spec.kind == QLatin1String("boost");
        const Positions positions =
            boost ? sample.evidence
                  : shamPositions(length, sample.evidence,
                                  stableHash(QStringLiteral("%1|%2|%3")
                                                 .arg(m_spec.seed)
                                                 .arg(sample.info.key, row.configKey)));
        const auto& cfg = m_model.config();
        at::Tensor bias = at::zeros({cfg.numLayers, cfg.numKvHeads, length}, at::kFloat);
        if (!positions.empty()) {
            const at::Tensor index =
                at::tensor(std::vector<int64_t>(positions.begin(), positions.end()), at::kLong);
            bias.index_fill_(2, index, std::log(spec.beta));
        }
        CacheEdit boosted = edit;
        boosted.logitBias = bias;
        const AnswerRun run =
            decodeSample(m_model, m_tokenizer, sample, context, boosted, settings);
        InterventionRecord r;
        r.kind = spec.kind;
        r.beta = spec.beta;
        r.answer = run.answer;
        r.repaired = run.correct;
        records.push_back(r);
    }
    return records;
}

} // namespace kvl
