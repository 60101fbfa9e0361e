#include "tokenizer/addedtokens.h"

#include <algorithm>

namespace kvl {

void AddedTokens::add(const Token& token)
{
    if (token.content.isEmpty() || m_byContent.contains(token.content))
        return;
    const int index = int(m_tokens.size());
    m_tokens.push_back(token);
    m_byId.insert(token.id, index);
    m_byContent.insert(token.content, index);
    auto& list = m_byFirstChar[token.content.at(0)];
    list.push_back(index);
    std::stable_sort(list.begin(), list.end(), [this](int a, int b) {
        return m_tokens[size_t(a)].content.size() > m_tokens[size_t(b)].content.size();
    });
}

const AddedTokens::Token* AddedTokens::byId(int id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.cend() ? nullptr : &m_tokens[size_t(*it)];
}

const AddedTokens::Token* AddedTokens::byContent(const QString& content) const
{
    const auto it = m_byContent.constFind(content);
    return it == m_byContent.cend() ? nullptr : &m_tokens[size_t(*it)];
}

int AddedTokens::matchAt(const QString& text, int pos) const
{
    const auto it = m_byFirstChar.constFind(text.at(pos));
    if (it == m_byFirstChar.cend())
        return -1;
    const auto isWord = [](QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); };
    for (int index : *it) {
        const Token& t = m_tokens[size_t(index)];
        if (!QStringView(text).sliced(pos).startsWith(t.content))
            continue;
        const int end = pos + int(t.content.size());
        if (t.singleWord &&
            ((pos > 0 && isWord(text.at(pos - 1))) || (end < text.size() && isWord(text.at(end)))))
            continue;
        return index;
    }
    return -1;
}

std::vector<AddedTokens::Section> AddedTokens::split(const QString& text) const
{
    std::vector<Section> out;
    int start = 0;
    int i = 0;
    const int n = int(text.size());
    while (i < n) {
        const int index = m_tokens.empty() ? -1 : matchAt(text, i);
        if (index < 0) {
            ++i;
            continue;
        }
        const Token& t = m_tokens[size_t(index)];
        int begin = i;
        int end = i + int(t.content.size());
        if (t.lstrip)
            while (begin > start && text.at(begin - 1).isSpace())
                --begin;
        if (t.rstrip)
            while (end < n && text.at(end).isSpace())
                ++end;
        if (begin > start)
            out.push_back({start, begin, -1});
        out.push_back({begin, end, index});
        start = i = end;
    }
    if (start < n)
        out.push_back({start, n, -1});
    return out;
}

} // namespace kvl
