#include "run/suiteevaluation.h"

#include "common/error.h"
#include "model/transformer.h"
#include "run/answerrun.h"
#include "run/preparedsample.h"
#include "tasks/samplescorer.h"
#include "tokenizer/tokenizer.h"

#include <c10/core/InferenceMode.h>

#include <QJsonArray>
#include <map>

namespace kvl {

std::pair<int, int> lengthBucketOf(int tokens)
{
    int hi = 128;
    while (tokens > hi)
        hi *= 2;
    return {hi == 128 ? 1 : hi / 2 + 1, hi};
}

QJsonObject SuiteEvaluation::toJson() const
{
    QJsonArray b;
    for (const LengthBucketScore& s : buckets)
        b.append(QJsonObject{
            {QStringLiteral("tokens"), QStringLiteral("%1:%2").arg(s.minTokens).arg(s.maxTokens)},
            {QStringLiteral("n"), s.n},
            {QStringLiteral("score"), s.score}});
    QJsonArray v;
    for (const VariantScore& s : variants)
        v.append(QJsonObject{{QStringLiteral("variant"), s.variant},
                             {QStringLiteral("n"), s.n},
                             {QStringLiteral("score"), s.score}});
    return {{QStringLiteral("suite"), suite},     {QStringLiteral("n"), n},
            {QStringLiteral("score"), score},     {QStringLiteral("skipped"), skipped},
            {QStringLiteral("summary"), summary}, {QStringLiteral("buckets"), b},
            {QStringLiteral("variants"), v}};
}

std::vector<std::pair<QString, double>> SuiteEvaluation::scorerFields() const
{
    std::vector<std::pair<QString, double>> fields;
    for (auto it = summary.begin(); it != summary.end(); ++it)
        if (it.key() != QLatin1String("score") && it.key() != QLatin1String("n") &&
            it.key() != QLatin1String("percent"))
            fields.emplace_back(it.key(), it.value().toDouble());
    return fields;
}

namespace {
// Whether context, question and up to maxNewTokens answer tokens fit the model's positions.
bool fitsModel(const Transformer& model, const PreparedSample& prepared, int maxNewTokens)
{
    try {
        model.checkLength(int64_t(prepared.ids.context.size() + prepared.ids.question.size()) +
                          maxNewTokens);
        return true;
    } catch (const Error&) {
        return false;
    }
}
} // namespace

SuiteEvaluation evaluateSuite(const Transformer& model, const Tokenizer& tokenizer,
                              const QString& suite, int n, const std::vector<TaskOptions>& lengths,
                              std::uint64_t seed, int maxNewTokens,
                              const std::function<void(int, int)>& progress,
                              const SampleAnswerSink& answered, const PromptFormat& format)
{
    const auto generator = makeTaskGenerator(suite);
    AnswerSettings settings;
    settings.stopIds = stopIdsOf(tokenizer, model.config().eosTokenIds);

    SuiteEvaluation eval;
    eval.suite = generator->suite();
    ScoreSummary summary;
    double scoreSum = 0.0;
    std::map<int, LengthBucketScore> buckets;
    std::map<QString, VariantScore> variants;
    c10::InferenceMode inference;
    const int samples = n * int(lengths.size());
    int done = 0;
    for (const TaskOptions& options : lengths)
        for (int i = 0; i < n; ++i) {
            Sample sample = generator->generate(tokenizer, options, seed, i);
            // Sample i of every range shares the id "<suite>-<seed>-<i>": the range
            // tells them apart (ids key the predictions `score` reads back).
            if (lengths.size() > 1)
                sample.id += QStringLiteral("@%1:%2").arg(options.minTokens).arg(options.maxTokens);
            const PreparedSample prepared = prepareSample(sample, sample.id, tokenizer, format);
            settings.maxNewTokens =
                maxNewTokens > 0 ? maxNewTokens : int(prepared.ids.answer.size()) + 16;
            if (fitsModel(model, prepared, settings.maxNewTokens)) {
                const ContextCache cache =
                    model.prefill(prepared.ids.context, PrefillOptions{1, {}});
                const AnswerRun run = decodeSample(model, tokenizer, prepared, cache, {}, settings);
                summary.add(run.scoreJson);
                if (answered)
                    answered(sample, run);
                scoreSum += run.score;
                ++eval.n;
                const auto [lo, hi] =
                    lengthBucketOf(int(prepared.ids.context.size()) - prepared.ids.contextOffset);
                LengthBucketScore& b = buckets[lo];
                b.minTokens = lo;
                b.maxTokens = hi;
                b.score += run.score;
                ++b.n;
                VariantScore& v = variants[sample.variant];
                v.variant = sample.variant;
                v.score += run.score;
                ++v.n;
            } else {
                ++eval.skipped;
            }
            if (progress)
                progress(++done, samples);
        }
    eval.score = eval.n > 0 ? scoreSum / eval.n : 0.0;
    eval.summary = summary.toJson();
    for (auto& [lo, b] : buckets) {
        b.score /= b.n;
        eval.buckets.push_back(b);
    }
    QStringList order = generator->variants();
    for (const auto& [name, v] : variants) // a variant the list lacks goes last
        if (!order.contains(name))
            order << name;
    for (const QString& name : order)
        if (const auto it = variants.find(name); it != variants.end()) {
            VariantScore v = it->second;
            v.score /= v.n;
            eval.variants.push_back(v);
        }
    return eval;
}

} // namespace kvl
