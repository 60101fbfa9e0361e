#pragma once

#include "tasks/sample.h"

#include <QString>
#include <optional>
#include <vector>

namespace kvl {

struct ExperimentSpec;
class Tokenizer;

// One sample of a sweep, in the spec's order, before it is generated: its store key
// is known up front (generators name sample i of seed s "<suite>-<s>-<i>"), so a
// resumed or sharded run can skip samples without generating them.
struct PlannedSample
{
    QString key;
    int source = 0;               // index into ExperimentSpec::samples
    int index = 0;                // sample index within its source
    std::optional<Sample> sample; // loaded already for JSONL sources
};

// Every sample of the spec, JSONL files read and validated (errors name the file and
// line). A key met twice (the same id in two sources) gets "#<source>" appended.
std::vector<PlannedSample> planSamples(const ExperimentSpec& spec);

// The sample itself: generated with the model's tokenizer for generator sources.
Sample materializeSample(const PlannedSample& planned, const ExperimentSpec& spec,
                         const Tokenizer& tokenizer);

} // namespace kvl
