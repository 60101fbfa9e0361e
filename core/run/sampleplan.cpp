#include "run/sampleplan.h"

#include "common/error.h"
#include "run/experimentspec.h"
#include "tasks/samplejsonl.h"
#include "tasks/taskgenerator.h"

#include <QSet>

namespace kvl {

std::vector<PlannedSample> planSamples(const ExperimentSpec& spec)
{
    std::vector<PlannedSample> plan;
    QSet<QString> keys;
    for (size_t s = 0; s < spec.samples.size(); ++s) {
        const SampleSource& source = spec.samples[s];
        std::vector<PlannedSample> part;
        if (source.kind == SampleSource::Kind::Jsonl) {
            std::vector<Sample> samples = readSamples(source.resolvedPath);
            if (samples.empty()) // a run that would do nothing and report success
                throw Error(source.resolvedPath,
                            QStringLiteral("no samples: the file is empty or holds only blank "
                                           "lines"));
            for (size_t i = 0; i < samples.size(); ++i)
                part.push_back({samples[i].id, int(s), int(i), std::move(samples[i])});
        } else {
            makeTaskGenerator(source.suite); // an unknown suite fails before any work
            for (int i = 0; i < source.n; ++i)
                part.push_back(
                    {QStringLiteral("%1-%2-%3").arg(source.suite).arg(source.seed).arg(i), int(s),
                     i, std::nullopt});
        }
        for (PlannedSample& p : part) {
            if (keys.contains(p.key))
                p.key += QStringLiteral("#%1").arg(s);
            keys.insert(p.key);
            plan.push_back(std::move(p));
        }
    }
    return plan;
}

Sample materializeSample(const PlannedSample& planned, const ExperimentSpec& spec,
                         const Tokenizer& tokenizer)
{
    if (planned.sample)
        return *planned.sample;
    const SampleSource& source = spec.samples[size_t(planned.source)];
    TaskOptions options;
    options.minTokens = source.minTokens;
    options.maxTokens = source.maxTokens;
    options.variant = source.variant;
    return makeTaskGenerator(source.suite)
        ->generate(tokenizer, options, source.seed, planned.index);
}

} // namespace kvl
