#include "run/sweepbenchmark.h"

#include "compressors/presscatalog.h"
#include "run/preparedsample.h"
#include "run/sampleevaluator.h"
#include "run/sampleplan.h"

#include <c10/core/InferenceMode.h>

#include <QElapsedTimer>
#include <algorithm>

namespace kvl {

QJsonObject SweepBenchmark::toJson() const
{
    QJsonObject o{{QStringLiteral("samples"), samples},
                  {QStringLiteral("repeats"), repeats},
                  {QStringLiteral("configs"), configs},
                  {QStringLiteral("full_pass_ms"), fullPassMs},
                  {QStringLiteral("sweep_ms"), sweepMs},
                  {QStringLiteral("prompt_tokens"), promptTokens},
                  {QStringLiteral("answer_tokens"), answerTokens},
                  {QStringLiteral("sweep_over_full"), ratio},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("meets_target"), ratio <= target}};
    if (store)
        o.insert(QStringLiteral("store"),
                 QJsonObject{{QStringLiteral("rows"), store->rows},
                             {QStringLiteral("seconds"), store->seconds},
                             {QStringLiteral("rows_per_s"), store->rowsPerSecond},
                             {QStringLiteral("meets_target"),
                              store->rows >= 60000 ? store->seconds <= 5.0
                                                   : store->rowsPerSecond >= 12000.0}});
    return o;
}

SweepBenchmark benchmarkSweep(const Transformer& model, const Tokenizer& tokenizer,
                              const ExperimentSpec& specIn, int samples, int repeats)
{
    ExperimentSpec spec = specIn;
    spec.interventions.clear();
    const PressCatalog catalog;
    const SampleEvaluator fullOnly(model, tokenizer, spec, {});
    const SampleEvaluator sweep(model, tokenizer, spec, buildSweepConfigs(spec, catalog));
    const std::vector<PlannedSample> plan = planSamples(spec);

    SweepBenchmark b;
    b.configs = int(sweep.configs().size());
    b.repeats = std::max(1, repeats);
    b.target = 1.0 + 0.05 * b.configs;
    c10::InferenceMode inference;
    QElapsedTimer timer;
    for (const PlannedSample& planned : plan) {
        if (b.samples >= samples)
            break;
        const PreparedSample prepared =
            prepareSample(materializeSample(planned, spec, tokenizer), planned.key, tokenizer);
        try {
            sweep.checkFits(prepared);
        } catch (const std::exception&) {
            continue; // too long for the model: not a timing
        }
        double full = 0.0, swept = 0.0;
        for (int r = 0; r < b.repeats; ++r) {
            timer.start();
            fullOnly.evaluate(prepared);
            const double f = double(timer.nsecsElapsed()) / 1e6;
            timer.start();
            sweep.evaluate(prepared);
            const double s = double(timer.nsecsElapsed()) / 1e6;
            full = r == 0 ? f : std::min(full, f);
            swept = r == 0 ? s : std::min(swept, s);
        }
        b.fullPassMs += full;
        b.sweepMs += swept;
        b.promptTokens += double(prepared.ids.context.size() + prepared.ids.question.size());
        b.answerTokens += double(prepared.ids.answer.size());
        ++b.samples;
    }
    if (b.samples > 0) {
        b.fullPassMs /= b.samples;
        b.sweepMs /= b.samples;
        b.promptTokens /= b.samples;
        b.answerTokens /= b.samples;
        b.ratio = b.fullPassMs > 0.0 ? b.sweepMs / b.fullPassMs : 0.0;
    }
    return b;
}

SweepBenchmark benchmarkSweepAndStore(const Transformer& model, const Tokenizer& tokenizer,
                                      const ExperimentSpec& spec, int samples, int repeats,
                                      const QString& storePath)
{
    SweepBenchmark b = benchmarkSweep(model, tokenizer, spec, samples, repeats);
    if (b.samples == 0)
        return b; // nothing timed: the caller reports it, without a store timing first
    b.store = benchmarkStoreWrite(storePath, 2600, 23);
    return b;
}

} // namespace kvl
