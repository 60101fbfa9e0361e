#pragma once

#include <QString>
#include <vector>

namespace kvl::jinja {

struct Token
{
    enum class Type
    {
        Text,       // template data between tags, whitespace control already applied
        VarBegin,   // {{
        VarEnd,     // }}
        BlockBegin, // {%
        BlockEnd,   // %}
        Name,
        String, // value unescaped
        Int,
        Float,
        Operator,
        End
    };
    Type type = Type::End;
    QString value;
    int line = 1;
};

// Splits a template into tokens the way Jinja's lexer does under transformers'
// environment: newlines normalized to \n, one trailing newline dropped
// (keep_trailing_newline=False), "-" and "+" whitespace control, trim_blocks (the
// newline after a block or comment tag) and lstrip_blocks (spaces before a block or
// comment tag at the start of a line). Comments are dropped. A malformed tag throws
// kvl::Error naming the line.
std::vector<Token> tokenize(const QString& source);

} // namespace kvl::jinja
