#pragma once

// Two trivial tokenizers for the task tests, independent of core/tokenizer:
//  CharTokenizer: one token per UTF-16 character;
//  WordTokenizer: like a byte-level BPE pre-tokenizer, a token is one run of letters
//  or digits, or one other non-space character, with the single space before it
//  attached ("The code." -> "The", " code", ".").
// Both add a BOS of empty range with addSpecial.
#include "tokenizer/tokenizer.h"

#include <QHash>

namespace kvltest {

class TestTokenizerBase : public kvl::Tokenizer
{
  public:
    static constexpr int kBos = 1000000;
    std::vector<int> encode(const QString& text, bool addSpecial) const override
    {
        std::vector<int> ids;
        for (const kvl::TokenSpan& t : encodeWithOffsets(text, addSpecial))
            ids.push_back(t.id);
        return ids;
    }
    std::vector<kvl::TokenSpan> encodeWithOffsets(const QString& text,
                                                  bool addSpecial) const override
    {
        std::vector<kvl::TokenSpan> tokens;
        if (addSpecial)
            tokens.push_back({kBos, 0, 0});
        split(text, tokens);
        return tokens;
    }
    QString decode(const std::vector<int>&, bool) const override { return {}; }
    int vocabSize() const override { return kBos + 1; }
    std::optional<int> bosId() const override { return kBos; }
    std::vector<int> stopIds() const override { return {}; }
    std::optional<int> tokenToId(const QString&) const override { return std::nullopt; }
    QString idToToken(int) const override { return {}; }

  protected:
    virtual void split(const QString& text, std::vector<kvl::TokenSpan>& out) const = 0;
};

class CharTokenizer : public TestTokenizerBase
{
  protected:
    void split(const QString& text, std::vector<kvl::TokenSpan>& out) const override
    {
        for (int i = 0; i < int(text.size()); ++i)
            out.push_back({text.at(i).unicode(), i, i + 1});
    }
};

class WordTokenizer : public TestTokenizerBase
{
  protected:
    void split(const QString& text, std::vector<kvl::TokenSpan>& out) const override
    {
        const int n = int(text.size());
        int i = 0;
        while (i < n) {
            int begin = i;
            if (text.at(i) == QLatin1Char(' ') && i + 1 < n && !text.at(i + 1).isSpace())
                ++i; // the space joins the token after it
            else if (text.at(i).isSpace()) {
                out.push_back({int(text.at(i).unicode()), i, i + 1});
                ++i;
                continue;
            }
            int j = i + 1;
            if (text.at(i).isLetterOrNumber())
                while (j < n && text.at(j).isLetterOrNumber())
                    ++j;
            out.push_back({int(qHash(text.mid(begin, j - begin), 0) % 900000), begin, j});
            i = j;
        }
    }
};

} // namespace kvltest
