#include "tasks/promptplacement.h"

#include "common/error.h"
#include "tasks/chatpromptids.h"
#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>

namespace kvl {
namespace {

// The base layout: [bos] + encode(context); spans index the context encoded without BOS.
PromptPlacement placeBase(const Sample& sample, const Tokenizer& tokenizer)
{
    if (!sample.system.isEmpty())
        throw Error(QStringLiteral("sample '%1' has a system turn, but the prompt has no chat "
                                   "template to place it (give --chat-template FILE, or leave "
                                   "the system field out for a base model)")
                        .arg(sample.id));
    PromptPlacement out;
    out.ids = promptIds(tokenizer, sample);
    const SpanTokens tokens = mapSpansToTokens(sample, tokenizer, false);
    const int shift = out.ids.contextOffset;
    for (size_t i = 0; i < sample.spans.size(); ++i) {
        const TokenRange r = tokens.spans[i];
        out.spans.push_back(sample.spans[i].field == SpanField::Context && r.size() > 0
                                ? TokenRange{r.begin + shift, r.end + shift}
                                : TokenRange{});
    }
    out.contextOffsets.assign(size_t(shift), {0, 0}); // BOS covers no text
    for (const TokenSpan& t : tokens.context)
        out.contextOffsets.push_back({t.begin, t.end});
    return out;
}

// The instruct layout: the rendered chat through the end of the context is prefilled;
// spans land on its tokens through the template.
PromptPlacement placeChat(const Sample& sample, const Tokenizer& tokenizer,
                          const PromptFormat& format)
{
    const ChatPromptIds chat =
        chatPromptIds(tokenizer, format.chatTemplate(), sample, sample.system, format.options());
    PromptPlacement out;
    out.ids = chat.ids;
    out.prefix = chat.layout.prefix;
    out.tail = chat.layout.tail;
    for (const Span& s : sample.spans) {
        const auto field = s.field == SpanField::System ? ChatPromptLayout::Field::System
                                                        : ChatPromptLayout::Field::Context;
        out.spans.push_back(s.field == SpanField::Question ? TokenRange{}
                                                           : chat.tokens(field, s.begin, s.end));
    }
    const FieldPlacement& c = chat.layout.context;
    const int contextBegin = c.offset + c.keptBegin, contextEnd = c.offset + c.keptEnd;
    for (const TokenSpan& t : chat.prefixTokens) {
        const int b = std::max(t.begin, contextBegin), e = std::min(t.end, contextEnd);
        out.contextOffsets.push_back(c.present && b < e ? std::pair{b - c.offset, e - c.offset}
                                                        : std::pair{0, 0});
        out.prefixOffsets.push_back({t.begin, t.end});
    }
    return out;
}

} // namespace

PromptPlacement placePrompt(const Sample& sample, const Tokenizer& tokenizer,
                            const PromptFormat& format)
{
    return format.isChat() ? placeChat(sample, tokenizer, format) : placeBase(sample, tokenizer);
}

} // namespace kvl
