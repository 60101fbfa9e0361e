#pragma once

#include <QString>

namespace kvl {

// Where a written-out multihop answer leaves the gold chain. Both are read as
// '='-separated steps ("Hotel = Sierra = Whiskey = 2025": the asked variable, then
// one step per link, the last one the number). Returns the index of the first step
// the answer gets wrong or leaves out: 1 = the first link followed from the asked
// variable, ..., the gold's step count = the number itself; 0 when the answer names
// another variable first. Returns -1 when there is nothing to locate: the gold is not
// a chain, the answer is a bare value (no '='), or the answer follows the whole chain.
int chainBreakStep(const QString& answer, const QString& gold);

// The links of a gold chain answer: its '=' count ("Hotel = Sierra = 2025" -> 2).
int chainLinks(const QString& gold);

} // namespace kvl
