#pragma once

#include "cache/repeatprompts.h"

namespace kvl {

class PromptFormat;
class Tokenizer;

// KVzip's repeat prompts for a model, as kvpress's KVzipPress derives them: the two
// prompt texts encoded without special tokens; with a chat template, the suffix is what
// the template renders after a one-user-turn conversation's text (generation prompt
// added, enable_thinking false) and prefixLength the tokens before that text; without
// one, the suffix "\n" and no prefix. A template that raises or hides the user's text
// leaves RepeatPrompts::unavailable naming it (only the presses that read the prompts fail).
RepeatPrompts repeatPromptsFor(const Tokenizer& tokenizer, const PromptFormat& format);

// Whether a press of this canonical spec reads the repeat prompts: it names the kvzip
// scorer (alone or inside a wrapper). A sweep checks its configurations with it before
// any sample runs, so a template that cannot give the prompts stops it at once.
bool specReadsRepeatPrompts(const QString& canonicalSpec);

} // namespace kvl
