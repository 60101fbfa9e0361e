#pragma once

#include "cache/compressioninput.h"
#include "diagnose/retentionmetrics.h"
#include "store/runrecords.h"
#include "tasks/promptlayout.h"
#include "tasks/sample.h"

#include <optional>
#include <vector>

namespace kvl {

class Tokenizer;

// A context span in token positions of the prefilled sequence ([bos] + context), as
// the store lists it (SampleInfo::spans, same order).
struct SpanPositions
{
    QString kind; // evidence | distractor | instruction
    QString role; // instructions: system_rule, format_rule, secret, request, defense
    QString label;
    std::optional<int> instructionOrder; // 0 = first instruction of the prompt
    Positions positions;
};

// A sample tokenized as the engine sees it (tasks/promptlayout.h), with its spans in
// token positions: what the runner, the presses and the diagnostics need.
struct PreparedSample
{
    Sample sample;
    PromptIds ids;
    std::vector<SpanPositions> spans; // context spans that cover at least one token
    std::vector<Positions> evidenceSpans;
    Positions evidence;                  // union of the evidence spans
    Positions distractors;               // union of the distractor spans
    std::vector<ContextSpan> pressSpans; // for whitelisting / fair eviction
    SampleInfo info;                     // what the store records about the sample
};

PreparedSample prepareSample(const Sample& sample, const QString& key, const Tokenizer& tokenizer);

} // namespace kvl
