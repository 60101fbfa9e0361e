#pragma once

#include "tasks/sample.h"
#include "tokenizer/tokenizer.h"

#include <vector>

namespace kvl {

// Token positions [begin, end) of one span, relative to the tokens of the field the
// span indexes (context, question or system, each tokenized on its own). Empty when no token
// overlaps the span.
struct TokenRange
{
    int begin = 0;
    int end = 0;

    int size() const { return end - begin; }
    bool operator==(const TokenRange&) const = default;
};

// The tokens of a sample's fields, each encoded on its own, and the token range of
// every span (same order as sample.spans). An instruct layout places the fields through
// the chat template instead (tasks/chatpromptids.h).
struct SpanTokens
{
    std::vector<TokenSpan> context;
    std::vector<TokenSpan> question;
    std::vector<TokenSpan> system; // empty without a system turn
    std::vector<TokenRange> spans;
};

// Tokens whose character range overlaps [begin, end): a token belongs to a span when
// they share at least one character. Tokens that cover no text (BOS) belong to none.
TokenRange tokenRangeForChars(const std::vector<TokenSpan>& tokens, int begin, int end);

// Maps every span of `sample` to token positions. With contextSpecial the context is
// encoded with special tokens (BOS) and positions index that sequence, as an engine
// that prefills BOS + context sees it; the question never gets special tokens.
SpanTokens mapSpansToTokens(const Sample& sample, const Tokenizer& tokenizer,
                            bool contextSpecial = false);

} // namespace kvl
