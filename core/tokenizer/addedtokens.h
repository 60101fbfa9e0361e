#pragma once

#include <QHash>
#include <QString>
#include <vector>

namespace kvl {

// Added tokens ("<|im_start|>", "<s>", ...) are found in the raw text before
// normalization and pre-tokenization, leftmost-longest, as HF tokenizers and
// transformers.js do. lstrip/rstrip tokens swallow the whitespace beside them.
class AddedTokens
{
  public:
    struct Token
    {
        QString content;
        int id = 0;
        bool special = false;
        bool lstrip = false;
        bool rstrip = false;
        bool singleWord = false;
    };
    // A piece of the text: plain text (token < 0) or an added token's index.
    struct Section
    {
        int begin;
        int end;
        int token;
    };

    void add(const Token& token);
    const std::vector<Token>& tokens() const { return m_tokens; }
    const Token* byId(int id) const;
    const Token* byContent(const QString& content) const;

    std::vector<Section> split(const QString& text) const;

  private:
    int matchAt(const QString& text, int pos) const;

    std::vector<Token> m_tokens;
    QHash<QChar, std::vector<int>> m_byFirstChar; // longest first
    QHash<int, int> m_byId;
    QHash<QString, int> m_byContent;
};

} // namespace kvl
