#include "tasks/chatpromptids.h"

#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

namespace kvl {

TokenRange ChatPromptIds::tokens(ChatPromptLayout::Field field, int begin, int end) const
{
    const auto [b, e] = layout.map(field, begin, end);
    if (b < 0)
        return {};
    return tokenRangeForChars(
        field == ChatPromptLayout::Field::Question ? tailTokens : prefixTokens, b, e);
}

ChatPromptIds chatPromptIds(const Tokenizer& tokenizer, const ChatTemplate& chatTemplate,
                            const Sample& sample, const QString& system,
                            const ChatTemplate::Options& options)
{
    ChatPromptIds out;
    out.layout = layoutChatPrompt(chatTemplate, {system, sample.context, sample.question}, options);
    out.prefixTokens = tokenizer.encodeWithOffsets(out.layout.prefix, false);
    out.tailTokens = tokenizer.encodeWithOffsets(out.layout.tail, false);
    for (const TokenSpan& t : out.prefixTokens)
        out.ids.context.push_back(t.id);
    for (const TokenSpan& t : out.tailTokens)
        out.ids.question.push_back(t.id);
    const TokenRange first =
        out.tokens(ChatPromptLayout::Field::Context, 0, int(sample.context.size()));
    out.ids.contextOffset = first.size() > 0 ? first.begin : int(out.ids.context.size());
    out.ids.answer = tokenizer.encode(sample.answer, false);
    const std::vector<int> stops = tokenizer.stopIds();
    if (!stops.empty())
        out.ids.answer.push_back(stops.front());
    return out;
}

} // namespace kvl
