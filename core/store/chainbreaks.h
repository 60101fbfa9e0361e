#pragma once

#include "store/runrecords.h"

#include <QString>
#include <optional>
#include <vector>

namespace kvl {

class RunReader;

// Where compressed runs leave a multihop gold chain: the C→W multihop rows whose
// answer writes the chain out ("Hotel = Sierra = Kilo = 7"), each with the step at
// which it left the gold one (tasks/chainanswer chainBreakStep). A bare answer, or a
// gold that is no chain, has no step and is left out. Read by the report's `chains`
// table and by the app's chain-break view and its drill-down.
struct ChainBreak
{
    StoredResult result;
    int links = 0; // of the gold chain
    int step = 0;  // 0 = another variable first, 1 .. links-1 = a link, links = the number
};

// In result order; compressor and ratio narrow it to one configuration.
std::vector<ChainBreak> chainBreaks(RunReader& reader,
                                    const std::optional<QString>& compressor = std::nullopt,
                                    const std::optional<double>& ratio = std::nullopt);

// The step as a category that reads the same for chains of any length: "chain_start"
// (another variable first), "chain_link_<k>" (the k-th link), "chain_value" (the
// right chain, then a wrong number).
QString chainBreakCategory(int step, int links);

} // namespace kvl
