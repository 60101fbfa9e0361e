#include "tasks/spantokens.h"

namespace kvl {

TokenRange tokenRangeForChars(const std::vector<TokenSpan>& tokens, int begin, int end)
{
    TokenRange range{-1, -1};
    for (int i = 0; i < int(tokens.size()); ++i) {
        const TokenSpan& t = tokens[size_t(i)];
        if (t.begin < t.end && t.begin < end && begin < t.end) {
            if (range.begin < 0)
                range.begin = i;
            range.end = i + 1;
        }
    }
    if (range.begin < 0)
        return {};
    return range;
}

SpanTokens mapSpansToTokens(const Sample& sample, const Tokenizer& tokenizer, bool contextSpecial)
{
    SpanTokens out;
    out.context = tokenizer.encodeWithOffsets(sample.context, contextSpecial);
    out.question = tokenizer.encodeWithOffsets(sample.question, false);
    if (!sample.system.isEmpty())
        out.system = tokenizer.encodeWithOffsets(sample.system, false);
    out.spans.reserve(sample.spans.size());
    for (const Span& span : sample.spans) {
        const auto& tokens = span.field == SpanField::Context    ? out.context
                             : span.field == SpanField::Question ? out.question
                                                                 : out.system;
        out.spans.push_back(tokenRangeForChars(tokens, span.begin, span.end));
    }
    return out;
}

} // namespace kvl
