#pragma once

#include <QString>

namespace kvl {

struct Sample;
class Tokenizer;

// Generated samples record in meta which tokenizer counted their context length
// (Tokenizer::identity()): the same text has another length under another tokenizer.
inline const QString kCountedTokenizerKey = QStringLiteral("tokenizer");

// Throws kvl::Error naming `samplesPath`, the sample and both tokenizers when `sample`
// records a tokenizer other than `tokenizer` (loaded from `tokenizerPath`). Samples that
// record none (a user's own data) and tokenizers of unknown identity pass.
void checkCountedTokenizer(const Sample& sample, const QString& samplesPath,
                           const Tokenizer& tokenizer, const QString& tokenizerPath);

} // namespace kvl
