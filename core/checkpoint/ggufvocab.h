#pragma once

#include "checkpoint/modelconfig.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace kvl {

class GgufWriter;

// The vocabulary a GGUF file carries (llama.cpp's tokenizer.ggml.* keys), taken from a
// Hugging Face tokenizer.json: llama.cpp tokenizes and detokenizes from the file alone.
// Only byte-level BPE vocabularies ("gpt2" in llama.cpp's words: the bundled model's,
// GPT-2's, Llama 3's, Qwen's) are written; SentencePiece and WordPiece ones are not.
struct GgufVocab
{
    QString model = QStringLiteral("gpt2"); // tokenizer.ggml.model
    // tokenizer.ggml.pre: the pre-tokenizer's split rule by llama.cpp's name for it
    // ("qwen2", "llama-bpe", "gpt-2"), "default" for a regex llama.cpp has no name for
    // (then text, not token ids, may split otherwise there).
    QString pre;
    // One entry per embedding row: llama.cpp takes the vocabulary's size from this list
    // and checks it against token_embd. Ids the tokenizer leaves unused (a model's
    // vocab_size is often rounded up) are "[PAD<id>]", type unused, as llama.cpp's
    // converter writes them.
    QStringList tokens;
    std::vector<int32_t> tokenTypes; // llama_token_type: 1 normal, 3 control, 4 user, 5 unused
    QStringList merges;              // "left right", by rank
    std::optional<int> bosId, eosId, padId;
    bool addBos = false; // whether the tokenizer's post-processor puts BOS first

    // Writes the tokenizer.ggml.* keys.
    void addTo(GgufWriter& writer) const;
};

// Reads `tokenizerJson` for a model of `config.vocabSize` rows. BOS and EOS ids come
// from the config where it gives them, else from the tokenizer (its post-processor's
// leading special token; an added special token with a usual end-of-text name). Throws
// kvl::Error naming the file: not a byte-level BPE, an id past the model's vocabulary,
// a token listed twice.
GgufVocab readGgufVocab(const QString& tokenizerJson, const ModelConfig& config);

} // namespace kvl
