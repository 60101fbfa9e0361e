#include "run/sampleevaluator.h"

#include "cache/keptselection.h"
#include "cache/pressprefill.h"
#include "common/error.h"
#include "diagnose/interventionplan.h"
#include "diagnose/retentionmetrics.h"
#include "diagnose/retrievalrecall.h"
#include "diagnose/routingmetrics.h"
#include "diagnose/rowdiagnostics.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"
#include "run/configanswer.h"
#include "run/preparedsample.h"
#include "run/repeatprompts.h"
#include "run/resultrows.h"
#include "store/rowdecisions.h"
#include "store/runmetakeys.h"
#include "tasks/promptformat.h"
#include "tokenizer/tokenizer.h"

#include <torch/types.h>

#include <QElapsedTimer>
#include <QJsonArray>
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
                                 const ExperimentSpec& spec, std::vector<SweepConfig> configs,
                                 const PromptFormat* format)
    : m_model(model), m_tokenizer(tokenizer), m_spec(spec), m_configs(std::move(configs)),
      m_full(fullCacheConfig()), m_stopIds(stopIdsOf(tokenizer, model.config().eosTokenIds)),
      m_repeatPrompts(repeatPromptsFor(tokenizer, format != nullptr ? *format : PromptFormat{}))
{
    // A template that cannot give KVzip its prompts fails every sample of such a
    // configuration alike: refuse the sweep before it runs rather than skip them all.
    if (!m_repeatPrompts.unavailable.isEmpty())
        for (const SweepConfig& c : m_configs)
            if (specReadsRepeatPrompts(c.press->spec()))
                throw Error(QStringLiteral("%1 (needed by %2)")
                                .arg(m_repeatPrompts.unavailable, c.press->spec()));
}

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

namespace {

// Configurations compressed and answered together: bounds the memory of rewritten
// contexts and masks held at once, while still batching the decoding.
constexpr size_t kLockstepChunk = 16;

using Chunk = std::vector<std::unique_ptr<ConfigAnswer>>;

// Moves the configurations that failed on this sample out of `chunk`, recording why
// under their config key.
void dropFailed(Chunk& chunk, QJsonObject& failures)
{
    for (const auto& c : chunk)
        if (!c->failure.isEmpty())
            failures.insert(c->config().record.key, c->failure);
    std::erase_if(chunk, [](const auto& c) { return !c->failure.isEmpty(); });
}

} // namespace

std::optional<SampleRecord> SampleEvaluator::evaluate(const PreparedSample& sample,
                                                      const std::function<bool()>& cancelled) const
{
    checkFits(sample);
    AnswerSettings settings;
    settings.maxNewTokens = maxNewTokens(sample);
    settings.stopIds = m_stopIds;

    // 1. One prefill under the full cache, shared by every configuration.
    QElapsedTimer timer;
    timer.start();
    std::vector<const Press*> presses;
    for (const SweepConfig& c : m_configs)
        presses.push_back(c.press.get());
    const PrefillOptions prefill = prefillOptionsFor(presses, int64_t(sample.ids.context.size()));
    const ContextCache cache = m_model.prefill(sample.ids.context, prefill);
    const double prefillMs = msSince(timer);
    const SamplePass pass{m_model, sample, cache, settings, generateOptionsOf(settings)};

    SampleRecord record;
    record.sample = sample.info;
    const CacheEdit fullEdit;
    PendingAnswer full;
    bool fullDone = false;
    ScoreMemo scoreMemo; // each scorer scores this sample once, for all its ratios
    QJsonObject failures; // config key -> why it has no row on this sample
    for (size_t begin = 0; begin < m_configs.size() || !fullDone; begin += kLockstepChunk) {
        // 2. Compress. A configuration that cannot compress this sample loses its row
        // here, not the sample: the others (and FullCache) still answer.
        const size_t end = std::min(m_configs.size(), begin + kLockstepChunk);
        Chunk chunk;
        for (size_t i = std::min(begin, end); i < end; ++i) {
            if (cancelled && cancelled())
                return std::nullopt;
            ConfigAnswer& c = *chunk.emplace_back(ConfigAnswer::create(m_configs[i]));
            QElapsedTimer compress;
            compress.start();
            try {
                CompressionInput input =
                    compressionInputFor(m_model, cache, &sample.ids.context, &m_repeatPrompts);
                input.spans = sample.pressSpans;
                input.scoreMemo = &scoreMemo;
                c.compress(input);
            } catch (const Error& e) {
                c.failure = e.message();
            }
            c.compressMs = msSince(compress);
        }
        dropFailed(chunk, failures);

        // 3. Answer. The rows that see the prefill's own context (FullCache and the
        // masks) answer together: one batched gold pass, then lockstep decoding.
        std::vector<const CacheEdit*> sharedEdits;
        std::vector<PendingAnswer*> sharedAnswers;
        if (!fullDone) {
            sharedEdits.push_back(&fullEdit);
            sharedAnswers.push_back(&full);
        }
        for (auto& c : chunk)
            if (const CacheEdit* edit = c->beginAnswer(pass)) {
                sharedEdits.push_back(edit);
                sharedAnswers.push_back(&c->answer);
            }
        if (!sharedEdits.empty()) {
            std::vector<PendingAnswer> begun =
                beginAnswers(m_model, sample, cache, sharedEdits, settings);
            std::vector<std::pair<const CacheEdit*, PendingAnswer*>> shared;
            for (size_t i = 0; i < begun.size(); ++i) {
                *sharedAnswers[i] = std::move(begun[i]);
                shared.emplace_back(sharedEdits[i], sharedAnswers[i]);
            }
            decodeTogether(m_model, cache, shared, pass.generate);
        }
        // Decode-time and offloading presses decode by their own loops.
        for (auto& c : chunk) {
            if (!c->decodesAlone())
                continue;
            if (cancelled && cancelled())
                return std::nullopt;
            QElapsedTimer decodeTimer;
            decodeTimer.start();
            try {
                c->decodeAlone(pass);
            } catch (const Error& e) {
                c->failure = e.message();
            }
            c->answer.run.answerMs += msSince(decodeTimer);
        }
        dropFailed(chunk, failures);

        // 4. Rows, and the interventions they call for.
        if (!fullDone) {
            finishAnswer(m_tokenizer, sample, full.run);
            record.results.push_back(fullRow(sample, full.run, prefillMs));
            fullDone = true;
        }
        std::vector<PlannedIntervention> planned;
        for (auto& c : chunk) {
            if (cancelled && cancelled())
                return std::nullopt;
            finishAnswer(m_tokenizer, sample, c->answer.run);
            record.results.push_back(compressedRow(sample, full.run, *c, settings));
            if (!c->takesInterventions())
                continue; // a re-answer would decode without the press's own loop
            for (PlannedIntervention& p :
                 planInterventions(sample, c->result.context(cache), c->edit,
                                   record.results.back(), full.run.correct,
                                   record.results.size() - 1))
                planned.push_back(std::move(p));
        }
        runInterventions(sample, planned, record.results, settings);
    }
    if (!failures.isEmpty())
        record.sample.meta.insert(kFailedConfigs, failures);
    return record;
}

ResultRecord SampleEvaluator::fullRow(const PreparedSample& sample, const AnswerRun& full,
                                      double prefillMs) const
{
    QElapsedTimer timer;
    timer.start();
    const int64_t length = int64_t(sample.ids.context.size());
    ResultRecord row;
    row.configKey = m_full.key;
    fillAnswerFields(row, full, sample);
    row.metrics.coverageType = CoverageType::NotApplicable;
    const auto& cfg = m_model.config();
    row.kvBytes = qint64(double(cfg.numLayers) * cfg.numKvHeads * double(length) * cfg.headDim *
                         2.0 * kCacheBytesPerElement);
    row.layers = layerStatsOf(nullptr, full.attention, sample);
    if (keepBlob(m_spec.store.attention, true, full.correct))
        row.attention = full.attention;
    row.timings.prefillMs = prefillMs;
    row.timings.answerMs = full.answerMs;
    row.timings.diagnoseMs = msSince(timer);
    return row;
}

ResultRecord SampleEvaluator::compressedRow(const PreparedSample& sample, const AnswerRun& full,
                                            const ConfigAnswer& compressed,
                                            const AnswerSettings& settings) const
{
    QElapsedTimer timer;
    timer.start();
    const CompressionResult& result = compressed.result;
    const AnswerRun& run = compressed.answer.run;

    ResultRecord row;
    row.configKey = compressed.config().record.key;
    fillAnswerFields(row, run, sample);
    const KeptMask mask = compressed.keptMask(sample);

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
    compressed.addToRow(row, sample, mask, m_tokenizer, m_model);
    decideRow(row, full.correct); // transition, and the signature of a C→W row
    if (keepBlob(m_spec.store.masks, false, run.correct))
        row.mask = mask;
    if (keepBlob(m_spec.store.attention, false, run.correct))
        row.attention = run.attention;
    row.timings.compressMs = compressed.compressMs;
    row.timings.answerMs = run.answerMs;
    row.timings.diagnoseMs = msSince(timer);

    return row;
}

std::vector<SampleEvaluator::PlannedIntervention>
SampleEvaluator::planInterventions(const PreparedSample& sample, const ContextCache& context,
                                   const CacheEdit& edit, const ResultRecord& row, bool fullCorrect,
                                   size_t rowIndex) const
{
    std::vector<PlannedIntervention> planned;
    if (sample.evidence.empty())
        return planned;
    const InterventionGroup group = interventionGroupOf(fullCorrect && !row.correct, row.metrics);
    const int length = int(sample.ids.context.size());
    QStringList plannedKinds; // a row stores one intervention per kind
    for (const InterventionSpec& spec : m_spec.interventions) {
        const std::optional<InterventionTarget> target = interventionTargetFromName(spec.on);
        if (!target || !targetIncludes(*target, group) || plannedKinds.contains(spec.kind))
            continue;
        plannedKinds << spec.kind;
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
        PlannedIntervention p;
        p.record.kind = spec.kind;
        p.record.beta = spec.beta;
        p.edit = edit;
        p.edit.logitBias = bias;
        p.context = &context;
        p.row = rowIndex;
        planned.push_back(std::move(p));
    }
    return planned;
}

void SampleEvaluator::runInterventions(const PreparedSample& sample,
                                       std::vector<PlannedIntervention>& planned,
                                       std::vector<ResultRecord>& rows,
                                       const AnswerSettings& settings) const
{
    // Every re-answer that sees the same context decodes in one lockstep batch.
    std::vector<bool> done(planned.size(), false);
    for (size_t first = 0; first < planned.size(); ++first) {
        if (done[first])
            continue;
        const ContextCache* context = planned[first].context;
        std::vector<size_t> group;
        std::vector<const CacheEdit*> edits;
        for (size_t i = first; i < planned.size(); ++i)
            if (!done[i] && planned[i].context == context) {
                group.push_back(i);
                edits.push_back(&planned[i].edit);
                done[i] = true;
            }
        QElapsedTimer timer;
        timer.start();
        const std::vector<Generation> generations = generateEach(
            m_model, *context, edits, sample.ids.question, generateOptionsOf(settings));
        for (size_t g = 0; g < group.size(); ++g) {
            PlannedIntervention& p = planned[group[g]];
            AnswerRun run;
            run.generation = generations[g];
            finishAnswer(m_tokenizer, sample, run);
            p.record.answer = run.answer;
            p.record.repaired = run.correct;
            rows[p.row].interventions.push_back(p.record);
        }
        const double share = msSince(timer) / double(group.size());
        for (size_t index : group) {
            ResultRecord& row = rows[planned[index].row];
            row.extra.insert(QStringLiteral("intervention_ms"),
                             row.extra.value(QStringLiteral("intervention_ms")).toDouble() + share);
        }
    }
}

} // namespace kvl
