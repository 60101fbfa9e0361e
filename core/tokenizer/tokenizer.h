#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace kvl {

// A token id with the character range [begin, end) of the input text it covers
// (UTF-16 code unit offsets into the QString, as Qt indexes strings). Tokens that
// cover no input (added BOS) have begin == end.
// A token's range includes the space it carries (" world" covers the space); the
// byte tokens of one character split by byte-level BPE or byte fallback each get
// that whole character's range; characters a normalizer rewrote (NFC) map to the
// range they came from; text inserted by the tokenizer (Llama 2's leading "▁")
// covers nothing by itself. In order, ranges never leave gaps in the text.
struct TokenSpan
{
    int id = 0;
    int begin = 0;
    int end = 0;
};

// Text <-> token ids. Implementations: the byte-level and Metaspace BPE read from a
// Hugging Face tokenizer.json, and the bundled byte tokenizer.
class Tokenizer
{
public:
    virtual ~Tokenizer() = default;

    // Ids of `text`; special tokens (BOS) only when addSpecial is true.
    virtual std::vector<int> encode(const QString& text, bool addSpecial = false) const = 0;
    // Same ids, each with the character range it came from (for token-exact spans).
    virtual std::vector<TokenSpan> encodeWithOffsets(const QString& text,
                                                     bool addSpecial = false) const = 0;
    virtual QString decode(const std::vector<int>& ids, bool skipSpecial = true) const = 0;

    virtual int vocabSize() const = 0;
    virtual std::optional<int> bosId() const = 0;
    // Every id that ends generation (eos and end-of-turn tokens).
    virtual std::vector<int> stopIds() const = 0;
    // Id of a token given its exact text in the vocabulary / added tokens.
    virtual std::optional<int> tokenToId(const QString& token) const = 0;
    // The vocabulary entry of an id (for display in the GUI).
    virtual QString idToToken(int id) const = 0;
    // Which tokenizer this is, as generated samples record it (meta.tokenizer): "byte",
    // or "sha256:" and the first 16 hex digits of the tokenizer.json file's SHA-256.
    // Empty: unknown (a tokenizer built in memory).
    virtual QString identity() const { return {}; }
};

// Loads tokenizer.json (both BPE flavours) or, for the path "byte", the bundled byte
// tokenizer. Throws kvl::Error naming the file and the problem.
std::unique_ptr<Tokenizer> loadTokenizer(const QString& path);

} // namespace kvl
