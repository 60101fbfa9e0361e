#include "tokenizer/hftokenizer.h"

#include "tokenizer/bytelevel.h"

namespace kvl {

namespace {
constexpr size_t kCacheLimit = 200000;
constexpr int kMaxCachedPiece = 256;
} // namespace

std::vector<BpeModel::Symbol> HfTokenizer::initialSymbols(const QString& piece) const
{
    std::vector<BpeModel::Symbol> symbols;
    symbols.reserve(size_t(piece.size()));
    const bool byteLevel = m_pre.isByteLevel();
    for (int i = 0; i < piece.size();) {
        const bool pair = piece.at(i).isHighSurrogate() && i + 1 < piece.size() &&
                          piece.at(i + 1).isLowSurrogate();
        const int units = pair ? 2 : 1;
        const QString ch = piece.mid(i, units);
        const QByteArray utf8 = ch.toUtf8();
        if (byteLevel) {
            for (char b : utf8) {
                const int id = m_byteIds[uchar(b)];
                if (id >= 0)
                    symbols.push_back({id, i, i + units});
                else if (m_unk >= 0)
                    symbols.push_back({m_unk, i, i + units});
            }
        } else if (const int id = vocabId(ch); id >= 0) {
            symbols.push_back({id, i, i + units});
        } else {
            bool fallback = m_byteFallback;
            for (char b : utf8)
                fallback = fallback && m_fallbackIds[uchar(b)] >= 0;
            if (fallback) {
                for (char b : utf8)
                    symbols.push_back({m_fallbackIds[uchar(b)], i, i + units});
            } else if (m_unk >= 0) {
                if (m_fuseUnk && !symbols.empty() && symbols.back().id == m_unk)
                    symbols.back().end = i + units;
                else
                    symbols.push_back({m_unk, i, i + units});
            }
        }
        i += units;
    }
    return symbols;
}

std::vector<BpeModel::Symbol> HfTokenizer::tokenizePiece(const QString& piece) const
{
    const bool cacheable = piece.size() <= kMaxCachedPiece;
    if (cacheable) {
        std::lock_guard lock(m_cacheMutex);
        const auto it = m_cache.find(piece);
        if (it != m_cache.end())
            return it->second;
    }
    std::vector<BpeModel::Symbol> symbols;
    if (m_ignoreMerges) {
        // Llama 3: a piece that is a whole vocabulary entry is taken as is.
        if (m_pre.isByteLevel()) {
            const auto it = m_rawVocab.find(piece.toUtf8().toStdString());
            if (it != m_rawVocab.end())
                symbols.push_back({it->second, 0, int(piece.size())});
        } else if (const int id = vocabId(piece); id >= 0) {
            symbols.push_back({id, 0, int(piece.size())});
        }
    }
    if (symbols.empty()) {
        symbols = initialSymbols(piece);
        m_bpe.merge(symbols);
    }
    if (cacheable) {
        std::lock_guard lock(m_cacheMutex);
        if (m_cache.size() >= kCacheLimit)
            m_cache.clear();
        m_cache.emplace(piece, symbols);
    }
    return symbols;
}

std::vector<TokenSpan> HfTokenizer::encodeWithOffsets(const QString& text, bool addSpecial) const
{
    std::vector<TokenSpan> out;
    if (addSpecial)
        for (int id : m_prefix)
            out.push_back({id, 0, 0});
    for (const AddedTokens::Section& section : m_added.split(text)) {
        if (section.token >= 0) {
            out.push_back({m_added.tokens()[size_t(section.token)].id, section.begin, section.end});
            continue;
        }
        NormalizedText normalized = NormalizedText::identity(
            text.mid(section.begin, section.end - section.begin), section.begin);
        m_normalizer.apply(normalized);
        if (normalized.text.isEmpty())
            continue;
        for (const NormalizedText& piece : m_pre.split(normalized)) {
            for (const BpeModel::Symbol& s : tokenizePiece(piece.text)) {
                const auto range = piece.originalRange(s.begin, s.end);
                out.push_back({s.id, range.first, range.second});
            }
        }
    }
    if (addSpecial)
        for (int id : m_suffix)
            out.push_back({id, int(text.size()), int(text.size())});
    return out;
}

std::vector<int> HfTokenizer::encode(const QString& text, bool addSpecial) const
{
    const std::vector<TokenSpan> spans = encodeWithOffsets(text, addSpecial);
    std::vector<int> ids;
    ids.reserve(spans.size());
    for (const TokenSpan& s : spans)
        ids.push_back(s.id);
    return ids;
}

QString HfTokenizer::decode(const std::vector<int>& ids, bool skipSpecial) const
{
    QStringList tokens;
    tokens.reserve(qsizetype(ids.size()));
    for (int id : ids) {
        if (const AddedTokens::Token* t = m_added.byId(id)) {
            if (!(skipSpecial && t->special))
                tokens << t->content;
        } else if (id >= 0 && id < int(m_idToToken.size())) {
            tokens << m_idToToken[size_t(id)];
        }
    }
    return m_decoder.decode(tokens);
}

std::optional<int> HfTokenizer::tokenToId(const QString& token) const
{
    if (const AddedTokens::Token* t = m_added.byContent(token))
        return t->id;
    if (const int id = vocabId(token); id >= 0)
        return id;
    return std::nullopt;
}

QString HfTokenizer::idToToken(int id) const
{
    return id >= 0 && id < int(m_idToToken.size()) ? m_idToToken[size_t(id)] : QString();
}

} // namespace kvl
