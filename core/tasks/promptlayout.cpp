#include "tasks/promptlayout.h"

#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

namespace kvl {

PromptIds promptIds(const Tokenizer& tokenizer, const Sample& sample)
{
    PromptIds ids;
    if (const auto bos = tokenizer.bosId())
        ids.context.push_back(*bos);
    ids.contextOffset = int(ids.context.size());
    const std::vector<int> context = tokenizer.encode(sample.context);
    ids.context.insert(ids.context.end(), context.begin(), context.end());
    QuestionIds asked = questionIds(tokenizer, sample.question, sample.answer);
    ids.question = std::move(asked.question);
    ids.answer = std::move(asked.answer);
    return ids;
}

QuestionIds questionIds(const Tokenizer& tokenizer, const QString& question,
                        const QString& answer)
{
    QuestionIds ids;
    ids.question = tokenizer.encode(question);
    ids.answer = tokenizer.encode(QLatin1Char(' ') + answer);
    const std::vector<int> stops = tokenizer.stopIds();
    if (!stops.empty())
        ids.answer.push_back(stops.front());
    return ids;
}

} // namespace kvl
