#pragma once

#include "tasks/promptformat.h"
#include "tasks/promptlayout.h"
#include "tasks/spantokens.h"

#include <QString>
#include <utility>
#include <vector>

namespace kvl {

class Tokenizer;
struct Sample;

// A sample's prompt ids and where its spans and context characters sit in the prefilled
// (compressed) sequence, in the base layout (promptIds) or through a chat template
// (chatPromptIds, the kvpress convention): the one place the engine's span positions
// come from.
struct PromptPlacement
{
    PromptIds ids;
    // Per sample span (same order): its prefilled positions; empty for a question span
    // and for a span that covers no token.
    std::vector<TokenRange> spans;
    // Per prefilled position: its characters [begin, end) of the context; {0, 0} for a
    // token outside it (BOS, template tokens, the system turn).
    std::vector<std::pair<int, int>> contextOffsets;
    // With a chat template: the prefilled and the tail text, and each prefilled
    // position's characters of the prefilled text.
    QString prefix;
    QString tail;
    std::vector<std::pair<int, int>> prefixOffsets;
};

// A sample with a system turn needs a chat template (the base layout has no place for
// it): kvl::Error saying so. Errors of the template (a rejected conversation, a render
// that drops the context) throw kvl::Error naming the template.
PromptPlacement placePrompt(const Sample& sample, const Tokenizer& tokenizer,
                            const PromptFormat& format = {});

} // namespace kvl
