#pragma once

#include "cache/compressioninput.h"
#include "diagnose/retentionmetrics.h"
#include "store/runrecords.h"
#include "tasks/promptformat.h"
#include "tasks/promptlayout.h"
#include "tasks/sample.h"

#include <optional>
#include <vector>

namespace kvl {

class Tokenizer;

// A context or system-turn span in token positions of the prefilled sequence ([bos] +
// context, or the rendered chat through the end of the context), as the store lists it
// (SampleInfo::spans, same order).
struct SpanPositions
{
    QString kind; // evidence | distractor | instruction
    QString role; // instructions: system_rule, format_rule, secret, request, defense
    QString label;
    QString field;                       // context | system
    std::optional<int> instructionOrder; // 0 = first instruction of the prompt
    Positions positions;
};

// A sample tokenized as the engine sees it (the base layout of tasks/promptlayout.h, or
// the chat template's of tasks/chatpromptids.h), with its spans in token positions: what
// the runner, the presses and the diagnostics need.
struct PreparedSample
{
    Sample sample;
    PromptIds ids;
    // context and system spans that cover at least one token (question spans are not in
    // the prefilled part)
    std::vector<SpanPositions> spans;
    std::vector<Positions> evidenceSpans;
    Positions evidence;                  // union of the evidence spans
    Positions distractors;               // union of the distractor spans
    std::vector<ContextSpan> pressSpans; // for whitelisting / fair eviction
    SampleInfo info;                     // what the store records about the sample
};

// A sample with a system turn needs a chat template (a base layout has no place for it):
// kvl::Error. Errors of the template (it rejects the conversation, drops the context)
// throw kvl::Error naming the template.
PreparedSample prepareSample(const Sample& sample, const QString& key, const Tokenizer& tokenizer,
                             const PromptFormat& format = {});

} // namespace kvl
