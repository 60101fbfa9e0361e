#pragma once

#include "chattemplate/chatpromptlayout.h"
#include "tasks/promptlayout.h"
#include "tasks/spantokens.h"

#include <vector>

namespace kvl {

class Tokenizer;
struct Sample;

// The token ids an instruct model sees for a sample, in the kvpress convention (see
// layoutChatPrompt): ids.context = encode(prefix), the rendered chat through the end of
// the context, special tokens such as <|im_start|> and the template's BOS as text;
// ids.question = encode(tail), question + end of turn + generation prompt, positions
// continuing; ids.answer = encode(answer) + [stop], the answer following the
// generation prompt directly. Parts are encoded separately, as kvpress does.
struct ChatPromptIds
{
    PromptIds ids; // contextOffset: the first token of the context text
    ChatPromptLayout layout;
    std::vector<TokenSpan> prefixTokens; // offsets into layout.prefix
    std::vector<TokenSpan> tailTokens;   // offsets into layout.tail

    // Token positions of a field's character range: in ids.context for the system and
    // context texts, in ids.question for the question; empty when no token covers it.
    TokenRange tokens(ChatPromptLayout::Field field, int begin, int end) const;
};

// `system` is the system turn's text (empty: none). Errors from the template (a
// rejected conversation, a text it changes) throw kvl::Error naming the template.
ChatPromptIds chatPromptIds(const Tokenizer& tokenizer, const ChatTemplate& chatTemplate,
                            const Sample& sample, const QString& system,
                            const ChatTemplate::Options& options);

} // namespace kvl
