#include "tokenizer/bytelevel.h"

#include <array>

namespace kvl::bytelevel {

namespace {
struct Tables
{
    std::array<char16_t, 256> toChar{};
    std::array<short, 512> toByte{};

    Tables()
    {
        toByte.fill(-1);
        int extra = 0;
        for (int b = 0; b < 256; ++b) {
            const bool printable =
                (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            const int c = printable ? b : 256 + extra++;
            toChar[size_t(b)] = char16_t(c);
            toByte[size_t(c)] = short(b);
        }
    }
};

const Tables& tables()
{
    static const Tables t;
    return t;
}
} // namespace

QChar byteToChar(unsigned char byte)
{
    return QChar(tables().toChar[byte]);
}

int charToByte(QChar c)
{
    return c.unicode() < 512 ? tables().toByte[c.unicode()] : -1;
}

QString toChars(const QByteArray& bytes)
{
    QString s(bytes.size(), Qt::Uninitialized);
    for (int i = 0; i < bytes.size(); ++i)
        s[i] = byteToChar(static_cast<unsigned char>(bytes[i]));
    return s;
}

bool fromChars(const QString& chars, QByteArray& bytes)
{
    bytes.resize(chars.size());
    for (int i = 0; i < chars.size(); ++i) {
        const int b = charToByte(chars[i]);
        if (b < 0)
            return false;
        bytes[i] = char(b);
    }
    return true;
}

} // namespace kvl::bytelevel
