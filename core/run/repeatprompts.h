#pragma once

#include "cache/repeatprompts.h"

namespace kvl {

class PromptFormat;
class Tokenizer;

// KVzip's repeat prompts for a model, as kvpress's KVzipPress derives them: the two
// prompt texts encoded without special tokens; with a chat template, the suffix is what
// the template renders after a one-user-turn conversation's text (generation prompt
// added, enable_thinking false) and prefixLength the tokens before that text; without
// one, the suffix "\n" and no prefix. Template errors throw kvl::Error naming it.
RepeatPrompts repeatPromptsFor(const Tokenizer& tokenizer, const PromptFormat& format);

} // namespace kvl
