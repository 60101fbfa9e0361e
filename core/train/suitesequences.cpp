#include "train/suitesequences.h"

#include "common/error.h"
#include "tasks/promptlayout.h"
#include "tasks/taskgenerator.h"
#include "tokenizer/tokenizer.h"

#include <map>

namespace kvl {

TaskSequenceFn makeSuiteSequenceFn(std::shared_ptr<const Tokenizer> tokenizer)
{
    auto generators = std::make_shared<std::map<QString, std::unique_ptr<TaskGenerator>>>();
    return [tokenizer, generators](const QString& suite, int minTokens, int maxTokens, Rng& rng) {
        auto& generator = (*generators)[suite];
        if (!generator)
            generator = makeTaskGenerator(suite);
        TaskOptions options;
        options.minTokens = minTokens;
        options.maxTokens = maxTokens;
        const Sample sample = generator->generate(*tokenizer, options, rng.next(), 0);
        const PromptIds ids = promptIds(*tokenizer, sample);
        TrainSequence seq;
        for (int id : ids.context)
            seq.append(id, false);
        for (int id : ids.question)
            seq.append(id, false);
        for (int id : ids.answer)
            seq.append(id, true);
        return seq;
    };
}

} // namespace kvl
