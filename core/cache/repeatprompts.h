#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace kvl {

// KVzip's reconstruction prompts (kvpress kvzip_press.py), tokenized with the model's
// tokenizer: the first chunk is fed after the context as `first + suffix + chunk`, a
// later one as `later + the previous chunk's last 8 ids + suffix + chunk`. Built where
// the tokenizer and the chat template are known (run/repeatprompts.h); presses only
// read the ids.
struct RepeatPrompts
{
    std::vector<int> first;  // "\n\nRepeat the previous context exactly."
    std::vector<int> later;  // "\n\nRepeat the part of the previous context exactly, starting with"
    std::vector<int> suffix; // what the chat template puts after the user turn; "\n" without one
    // Tokens of the template before the user's text (kvpress prefix_length): context
    // positions before it are not re-read (0 without a template).
    int64_t prefixLength = 0;
    // Why the prompts could not be built (a chat template that does not render the
    // user's text as given), empty when they could. Only the presses that read the
    // prompts fail on it (with this message): a sweep without them must not.
    QString unavailable;
};

} // namespace kvl
