#pragma once

#include "tokenizer/addedtokens.h"
#include "tokenizer/bpemodel.h"
#include "tokenizer/decoder.h"
#include "tokenizer/normalizer.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/vocabindex.h"

#include <QJsonObject>
#include <array>
#include <mutex>
#include <string>
#include <unordered_map>

namespace kvl {

// A BPE tokenizer read from a Hugging Face tokenizer.json, in both flavours:
// byte-level (GPT-2, Llama 3, Qwen2/3: merges over UTF-8 bytes) and character
// level with byte fallback (Llama 2, Mistral: Metaspace "▁", <0xNN> tokens).
// Pipeline per call: added tokens -> normalizer -> pre-tokenizer -> BPE per piece
// (cached) -> post-processor template (only with addSpecial).
class HfTokenizer : public Tokenizer
{
  public:
    // Throws kvl::Error naming `path` for anything malformed or unsupported.
    // tokenizer_config.json / generation_config.json beside it, when present, add
    // the bos/eos names (and add_bos_token when there is no template).
    static std::unique_ptr<HfTokenizer> load(const QString& path);
    // From an already parsed tokenizer.json; `path` only names it in errors.
    static std::unique_ptr<HfTokenizer> fromJson(const QJsonObject& json, const QString& path,
                                                 const QJsonObject& config = {},
                                                 const QJsonObject& generationConfig = {});

    std::vector<int> encode(const QString& text, bool addSpecial = false) const override;
    std::vector<TokenSpan> encodeWithOffsets(const QString& text,
                                             bool addSpecial = false) const override;
    QString decode(const std::vector<int>& ids, bool skipSpecial = true) const override;

    int vocabSize() const override { return int(m_idToToken.size()); }
    std::optional<int> bosId() const override { return m_bos; }
    std::vector<int> stopIds() const override { return m_stop; }
    std::optional<int> tokenToId(const QString& token) const override;
    QString idToToken(int id) const override;
    QString identity() const override { return m_identity; }

    bool isByteLevel() const { return m_pre.isByteLevel(); }
    // Ids added before / after the text with addSpecial.
    const std::vector<int>& prefixIds() const { return m_prefix; }
    const std::vector<int>& suffixIds() const { return m_suffix; }

  private:
    HfTokenizer() = default;
    void loadModel(const QJsonObject& model, const QString& path);
    void loadAddedTokens(const QJsonArray& added, const QString& path);
    // The id -> token table, after checking the ids are dense and unique.
    void buildIdTable(const QString& path);
    void loadPostProcessor(const QJsonValue& json, const QString& path, const QJsonObject& config);
    void loadSpecialNames(const QJsonObject& config, const QJsonObject& generationConfig);
    std::optional<int> configTokenId(const QJsonValue& v) const;
    int vocabId(QStringView token) const { return m_vocab.find(token); }

    // BPE tokens of one pre-token piece; ranges are unit offsets in the piece.
    std::vector<BpeModel::Symbol> tokenizePiece(const QString& piece) const;
    std::vector<BpeModel::Symbol> initialSymbols(const QString& piece) const;

    QString m_identity;
    std::vector<QString> m_idToToken;
    VocabIndex m_vocab; // model vocabulary only
    AddedTokens m_added;
    BpeModel m_bpe;
    Normalizer m_normalizer;
    PreTokenizer m_pre;
    Decoder m_decoder;

    std::array<int, 256> m_byteIds{};                // byte-level: byte -> id
    std::array<int, 256> m_fallbackIds{};            // <0xNN> -> id, or -1
    std::unordered_map<std::string, int> m_rawVocab; // byte-level ignore_merges lookup
    bool m_byteFallback = false;
    bool m_ignoreMerges = false;
    bool m_fuseUnk = false;
    int m_unk = -1;

    std::vector<int> m_prefix;
    std::vector<int> m_suffix;
    std::optional<int> m_bos;
    std::vector<int> m_stop;

    // Per-piece cache: long texts repeat the same words over and over.
    mutable std::mutex m_cacheMutex;
    mutable std::unordered_map<QString, std::vector<BpeModel::Symbol>> m_cache;
};

} // namespace kvl
