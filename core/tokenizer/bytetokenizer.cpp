#include "tokenizer/bytetokenizer.h"

namespace kvl {

QString ByteTokenizer::specialName(int id)
{
    switch (id) {
    case kBos:
        return QStringLiteral("<|bos|>");
    case kEos:
        return QStringLiteral("<|eos|>");
    case kPad:
        return QStringLiteral("<|pad|>");
    default:
        return {};
    }
}

std::vector<TokenSpan> ByteTokenizer::encodeWithOffsets(const QString& text, bool addSpecial) const
{
    std::vector<TokenSpan> out;
    out.reserve(size_t(text.size()) + 1);
    if (addSpecial)
        out.push_back({kBos, 0, 0});
    for (int i = 0; i < text.size();) {
        if (text.at(i) == QLatin1Char('<')) {
            int special = -1;
            for (int id = kBos; id < kVocabSize && special < 0; ++id)
                if (QStringView(text).sliced(i).startsWith(specialName(id)))
                    special = id;
            if (special >= 0) {
                const int len = int(specialName(special).size());
                out.push_back({special, i, i + len});
                i += len;
                continue;
            }
        }
        const int units =
            text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()
                ? 2
                : 1;
        for (char b : text.mid(i, units).toUtf8())
            out.push_back({int(uchar(b)), i, i + units});
        i += units;
    }
    return out;
}

std::vector<int> ByteTokenizer::encode(const QString& text, bool addSpecial) const
{
    std::vector<int> ids;
    for (const TokenSpan& s : encodeWithOffsets(text, addSpecial))
        ids.push_back(s.id);
    return ids;
}

QString ByteTokenizer::decode(const std::vector<int>& ids, bool skipSpecial) const
{
    QByteArray bytes;
    for (int id : ids) {
        if (id >= 0 && id < 256)
            bytes.append(char(id));
        else if (id >= kBos && id < kVocabSize && !skipSpecial)
            bytes.append(specialName(id).toUtf8());
    }
    return QString::fromUtf8(bytes);
}

std::optional<int> ByteTokenizer::tokenToId(const QString& token) const
{
    for (int id = kBos; id < kVocabSize; ++id)
        if (token == specialName(id))
            return id;
    if (token.size() == 1 && token.at(0).unicode() < 128)
        return token.at(0).unicode();
    if (token.size() == 6 && token.startsWith(QLatin1String("<0x")) &&
        token.endsWith(QLatin1Char('>'))) {
        bool ok = false;
        const int v = token.mid(3, 2).toInt(&ok, 16);
        if (ok)
            return v;
    }
    return std::nullopt;
}

QString ByteTokenizer::idToToken(int id) const
{
    if (id >= kBos && id < kVocabSize)
        return specialName(id);
    if (id >= 0x20 && id < 0x7F)
        return QString(QChar(id));
    if (id >= 0 && id < 256)
        return QStringLiteral("<0x") +
               QString::number(id, 16).toUpper().rightJustified(2, QLatin1Char('0')) +
               QLatin1Char('>');
    return {};
}

} // namespace kvl
