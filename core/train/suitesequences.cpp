#include "train/suitesequences.h"

#include "common/error.h"
#include "tasks/promptlayout.h"
#include "tasks/taskgenerator.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <map>

namespace kvl {

TaskSequenceFn makeSuiteSequenceFn(std::shared_ptr<const Tokenizer> tokenizer, int maxLength)
{
    auto generators = std::make_shared<std::map<QString, std::unique_ptr<TaskGenerator>>>();
    return [tokenizer, generators, maxLength](const TaskDraw& draw, Rng& rng) {
        const auto [suite, variant] = splitSuiteEntry(draw.suite);
        auto& generator = (*generators)[suite];
        if (!generator)
            generator = makeTaskGenerator(suite);
        TaskOptions options;
        options.variant = variant;
        options.minTokens = draw.minTokens;
        options.maxTokens = draw.maxTokens;
        const Sample sample = generator->generate(*tokenizer, options, rng.next(), 0);
        const PromptIds ids = promptIds(*tokenizer, sample);
        TrainSequence seq;
        for (int id : ids.context)
            seq.append(id, false);
        auto ask = [&seq](const std::vector<int>& question, const std::vector<int>& answer) {
            for (int id : question)
                seq.append(id, false);
            for (int id : answer)
                seq.append(id, true);
        };
        ask(ids.question, ids.answer);
        if (draw.followUps > 0) {
            std::vector<FollowUp> more = generator->followUps(sample);
            rng.shuffle(more);
            more.resize(std::min(more.size(), size_t(draw.followUps)));
            for (const FollowUp& followUp : more) {
                const QuestionIds asked =
                    questionIds(*tokenizer, followUp.question, followUp.answer);
                // A follow-up that would run past the model's positions is left out (a
                // text2json list of twelve people asked fourteen ways does).
                const size_t length = seq.ids.size() + asked.question.size() + asked.answer.size();
                if (maxLength > 0 && length > size_t(maxLength))
                    continue;
                ask(asked.question, asked.answer);
            }
        }
        return seq;
    };
}

} // namespace kvl
