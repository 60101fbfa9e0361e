#pragma once

#include <QStringList>
#include <cstdint>

namespace kvl {

// Plain-text lines for training a tokenizer on the suites' closed world: each word
// list on a line, then the context, question and answer of `samplesPerSuite`
// samples of every suite (variants drawn at random), contexts of 64-512 words.
// Needs no tokenizer (lengths are counted in words), so it can run before one
// exists. Deterministic in the seed.
QStringList taskCorpusLines(int samplesPerSuite, std::uint64_t seed);

} // namespace kvl
