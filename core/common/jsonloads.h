#pragma once

#include <QString>
#include <optional>
#include <utility>
#include <vector>

namespace kvl {

// A JSON value as Python's json.loads (default arguments) builds it. The Text2JSON
// evaluator of the published study parses predictions with json.loads, so its score
// depends on what that parser accepts and on the Python types it yields: integers
// and floats are distinct types (an integer compares by its decimal text), and an
// object with a repeated key keeps the last value. Chat-template inputs (messages,
// tokenizer_config.json) are read by the same rules, as transformers reads them with json.
struct JsonLoadsMember;

struct JsonLoadsValue
{
    enum class Type
    {
        Null,
        Bool,
        Int,   // a number without fraction or exponent; text = Python's str(int)
        Float, // a number with fraction or exponent, NaN, Infinity, -Infinity
        String,
        Array,
        Object,
    };
    Type type = Type::Null;
    // String: the decoded string; Int: its canonical decimal text; Float: its JSON text
    // ("1.5e3", "NaN", "-Infinity").
    QString text;
    bool boolean = false;
    std::vector<JsonLoadsValue> items; // Array
    // Object, in input order. Not std::pair<QString, JsonLoadsValue>: a pair of an
    // incomplete type is ill-formed (gcc accepts it, clang refuses it).
    std::vector<JsonLoadsMember> members;

    // The value of `key` in an object: the last member with that key (json.loads keeps
    // the last of repeated keys); nullptr when absent or not an object.
    const JsonLoadsValue* member(const QString& key) const;
};

struct JsonLoadsMember
{
    QString key;
    JsonLoadsValue value;
};

// Where and why jsonLoads refused its text: `offset` counts UTF-16 units from the start,
// `line` and `column` count from 1 (a line ends at LF), the column in UTF-16 units.
struct JsonLoadsError
{
    QString message;
    qsizetype offset = 0;
    qsizetype line = 1;
    qsizetype column = 1;
};

// Parses `text` as json.loads(text) does, or nullopt where json.loads raises (and then
// fills `error` when given):
//  - whitespace is space, tab, LF and CR only; nothing but whitespace around the value;
//  - strings reject raw control characters U+0000-U+001F (strict mode) and escapes
//    other than \" \\ \/ \b \f \n \r \t \uXXXX;
//  - NaN, Infinity and -Infinity are accepted (as floats);
//  - numbers follow -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? with ASCII digits; an
//    integer of more than 4300 digits is refused (Python 3.11's int conversion limit);
//  - nesting deeper than kJsonLoadsMaxDepth fails (Python's recursion limit, about 1000
//    frames, stops it near there; the exact depth depends on the interpreter's stack).
inline constexpr int kJsonLoadsMaxDepth = 990;
std::optional<JsonLoadsValue> jsonLoads(const QString& text, JsonLoadsError* error = nullptr);

} // namespace kvl
