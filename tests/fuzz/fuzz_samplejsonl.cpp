// Sample JSONL: the line parser (parseSampleLines) on arbitrary bytes; whatever parses
// must write back (samplesToJsonl) and parse again to as many samples.

#include "common/error.h"
#include "fuzztarget.h"
#include "tasks/samplejsonl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<kvl::SampleLine> lines;
    try {
        lines = kvl::parseSampleLines(kvl::fuzz::bytesOf(data, size), QStringLiteral("fuzz.jsonl"));
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
        return 0;
    }
    std::vector<kvl::Sample> samples;
    for (const kvl::SampleLine& line : lines)
        samples.push_back(line.sample);
    try {
        if (kvl::parseSampleLines(kvl::samplesToJsonl(samples), QStringLiteral("again.jsonl"))
                .size() != samples.size())
            __builtin_trap();
    } catch (const kvl::Error& e) {
        // A sample the parser accepted must survive its own writer.
        qFatal("accepted samples do not parse again: %s", e.what());
    }
    return 0;
}
