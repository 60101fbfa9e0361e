#pragma once

#include <QtGlobal>

// A chat template comes with a model directory, which is untrusted input, and a template
// is code: these bounds make every template finish quickly or fail with a kvl::Error
// naming its line and the limit, instead of exhausting the stack, the memory or the
// clock. Each is far above what real templates need (the templates of Llama 2/3, Qwen2/3,
// Mistral and Gemma use nesting under 12, no recursion, a few thousand steps per
// conversation) and, for nesting and recursion, at or above what Python's Jinja itself
// survives (about 75 nested brackets, 95 nested blocks, 250 recursive macro calls).
// README.md ("Chat templates") states them; a change here changes it there.
namespace kvl::jinja {

// Nested brackets, operators, filters, tests and blocks (an elif counts as one level).
inline constexpr int kMaxNesting = 200;
// Macro calls in progress at once (a macro calling itself counts each call).
inline constexpr int kMaxCallDepth = 100;
// Expressions and statements being evaluated at once, across macro calls: what keeps
// the renderer's own recursion inside the stack whatever the mix of the two above.
inline constexpr int kMaxEvalDepth = 2000;
// Values nested in values (a list in a list ...), as printed, compared or dumped.
inline constexpr int kMaxValueDepth = 1000;
// Iterations of every for loop of one rendering together.
inline constexpr qint64 kMaxLoopIterations = 1'000'000;
// Characters of any one string, the rendered prompt included (16 Mi UTF-16 units: four
// times the longest prompt a 1M-token context makes).
inline constexpr qint64 kMaxTextLength = qint64(16) << 20;
// Items of any one list.
inline constexpr qint64 kMaxListItems = 1'000'000;
// Steps of one rendering: one per expression or statement evaluated, loop iteration,
// list item built or compared, and per 16 characters of text built.
inline constexpr qint64 kMaxWork = 20'000'000;
inline constexpr qint64 kCharsPerStep = 16;

} // namespace kvl::jinja
