#include "tasks/taskgenerator.h"

#include "common/error.h"
#include "tasks/countedtokenizer.h"
#include "tasks/instructionsgenerator.h"
#include "tasks/multihopgenerator.h"
#include "tasks/retrievalgenerator.h"
#include "tasks/rng.h"
#include "tasks/text2jsongenerator.h"
#include "tokenizer/tokenizer.h"

namespace kvl {

Sample TaskGenerator::generate(const Tokenizer& tokenizer, const TaskOptions& options,
                               std::uint64_t seed, int index) const
{
    if (options.minTokens < 1 || options.minTokens > options.maxTokens)
        throw Error(QStringLiteral("bad token range %1:%2 (need 1 <= MIN <= MAX)")
                        .arg(options.minTokens)
                        .arg(options.maxTokens));
    const QStringList known = variants();
    if (!options.variant.isEmpty() && !known.contains(options.variant))
        throw Error(QStringLiteral("suite %1 has no variant '%2' (variants: %3)")
                        .arg(suite(), options.variant, known.join(QStringLiteral(", "))));

    Rng rng(Rng::derive(seed ^ Rng::hashString(suite()), std::uint64_t(index)));
    const QStringList drawn = drawnVariants();
    const QString variant =
        options.variant.isEmpty() ? drawn.at(rng.below(int(drawn.size()))) : options.variant;
    LengthRequest length;
    length.minTokens = options.minTokens;
    length.maxTokens = options.maxTokens;
    length.target = rng.range(options.minTokens, options.maxTokens);

    Sample sample = generateVariant(tokenizer, variant, length, rng);
    sample.id = QStringLiteral("%1-%2-%3").arg(suite()).arg(seed).arg(index);
    sample.suite = suite();
    sample.variant = variant;
    // Lengths hold for this tokenizer only: say which one counted them.
    if (const QString counted = tokenizer.identity(); !counted.isEmpty())
        sample.meta.insert(kCountedTokenizerKey, counted);
    return sample;
}

std::vector<Sample> TaskGenerator::generateMany(const Tokenizer& tokenizer,
                                                const TaskOptions& options, std::uint64_t seed,
                                                int count) const
{
    std::vector<Sample> samples;
    samples.reserve(size_t(std::max(count, 0)));
    for (int i = 0; i < count; ++i)
        samples.push_back(generate(tokenizer, options, seed, i));
    return samples;
}

std::vector<std::unique_ptr<TaskGenerator>> makeTaskGenerators()
{
    std::vector<std::unique_ptr<TaskGenerator>> list;
    list.push_back(std::make_unique<RetrievalGenerator>());
    list.push_back(std::make_unique<MultihopGenerator>());
    list.push_back(std::make_unique<InstructionsGenerator>());
    list.push_back(std::make_unique<Text2JsonGenerator>());
    return list;
}

std::vector<FollowUp> TaskGenerator::followUps(const Sample&) const
{
    return {};
}

std::unique_ptr<TaskGenerator> makeTaskGenerator(const QString& suite)
{
    for (auto& generator : makeTaskGenerators())
        if (generator->suite() == suite)
            return std::move(generator);
    throw Error(QStringLiteral("unknown suite '%1' (suites: %2)")
                    .arg(suite, taskSuiteNames().join(QStringLiteral(", "))));
}

QStringList taskSuiteNames()
{
    QStringList names;
    for (const auto& generator : makeTaskGenerators())
        names << generator->suite();
    return names;
}

} // namespace kvl
