#pragma once

#include "tokenizer/tokenizer.h"

namespace kvl {

// The bundled byte tokenizer (path "byte"): ids 0-255 are the UTF-8 bytes of the
// text, then three specials, matched in the text like added tokens:
//   256 "<|bos|>" (added with addSpecial), 257 "<|eos|>" (the stop id), 258 "<|pad|>".
// Needs no file, so a model can run before any tokenizer.json exists.
class ByteTokenizer : public Tokenizer
{
  public:
    static constexpr int kBos = 256;
    static constexpr int kEos = 257;
    static constexpr int kPad = 258;
    static constexpr int kVocabSize = 259;

    std::vector<int> encode(const QString& text, bool addSpecial = false) const override;
    std::vector<TokenSpan> encodeWithOffsets(const QString& text,
                                             bool addSpecial = false) const override;
    QString decode(const std::vector<int>& ids, bool skipSpecial = true) const override;

    int vocabSize() const override { return kVocabSize; }
    std::optional<int> bosId() const override { return kBos; }
    std::vector<int> stopIds() const override { return {kEos}; }
    // "<|bos|>" etc., a single ASCII character, or "<0xNN>" for any byte.
    std::optional<int> tokenToId(const QString& token) const override;
    // Printable ASCII as itself, other bytes as "<0xNN>", specials by name.
    QString idToToken(int id) const override;
    QString identity() const override { return QStringLiteral("byte"); }

    static QString specialName(int id);
};

} // namespace kvl
