#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kvl {

class HfTokenizer;

struct BpeTrainerOptions
{
    // Final vocabulary: special tokens + 256 bytes + learned merges.
    int vocabSize = 2048;
    // Always present, in this order, first: "<|bos|>" "<|eos|>" "<|pad|>"; these are
    // extra ones (duplicates ignored).
    QStringList specialTokens;
    // Pairs seen fewer times than this are never merged.
    int minFrequency = 2;
    // Pre-tokenizer regex; the default is the Qwen2 pattern (the GPT-2 family with
    // case-insensitive contractions and one digit per piece, so numbers stay digits).
    QString pattern = defaultPattern();

    static QString defaultPattern();
};

// Learns a byte-level BPE from texts and writes it as a Hugging Face tokenizer.json
// (read back by HfTokenizer and by HF tokenizers / transformers.js). Ids: specials
// 0..k-1, byte b at k+b, then one id per merge in order. Deterministic: the most
// frequent pair wins, ties go to the smaller (left id, right id), as HF's trainer.
class BpeTrainer
{
  public:
    explicit BpeTrainer(BpeTrainerOptions options = {});

    // Counts the pre-tokens of one text (special tokens in it are left out).
    void addText(const QString& text);
    // Runs the merges; throws kvl::Error when vocabSize is below specials + 256.
    void train();

    const QStringList& specialTokens() const { return m_specials; }
    // Learned merges as (left bytes, right bytes), in rank order.
    const std::vector<std::pair<QByteArray, QByteArray>>& merges() const { return m_merges; }
    int vocabSize() const { return int(m_tokens.size()); }

    QJsonObject toJson() const;
    void save(const QString& path) const;
    std::unique_ptr<HfTokenizer> tokenizer() const;

  private:
    BpeTrainerOptions m_options;
    QStringList m_specials;
    QRegularExpression m_regex;
    std::unordered_map<std::string, std::int64_t> m_wordCounts;
    std::vector<QByteArray> m_tokens; // id -> bytes (specials: their UTF-8 text)
    std::vector<std::pair<QByteArray, QByteArray>> m_merges;
    bool m_trained = false;
};

} // namespace kvl
