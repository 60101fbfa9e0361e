#include "common/utf8text.h"

#include "common/error.h"
#include "common/jsonio.h"

namespace kvl {

qsizetype firstInvalidUtf8(QByteArrayView bytes)
{
    const auto* s = reinterpret_cast<const uchar*>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar lead = s[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        char32_t cp = 0;
        char32_t smallest = 0; // below it the sequence is overlong
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            cp = lead & 0x1F;
            smallest = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            cp = lead & 0x0F;
            smallest = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            cp = lead & 0x07;
            smallest = 0x10000;
        } else {
            return i;
        }
        if (i + length > n)
            return i;
        for (int k = 1; k < length; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += length;
    }
    return -1;
}

QString readUtf8File(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    if (const qsizetype bad = firstInvalidUtf8(bytes); bad >= 0)
        throw Error(path, QStringLiteral("not UTF-8 text: invalid byte 0x%1 at offset %2")
                              .arg(uchar(bytes[bad]), 2, 16, QLatin1Char('0'))
                              .arg(bad));
    return QString::fromUtf8(bytes);
}

} // namespace kvl
