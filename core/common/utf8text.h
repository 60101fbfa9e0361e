#pragma once

#include <QByteArrayView>
#include <QString>

namespace kvl {

// Offset of the first byte that does not start a well-formed UTF-8 sequence (a stray
// continuation byte, a truncated or overlong sequence, a surrogate, a code point past
// U+10FFFF), or -1 when all of `bytes` is UTF-8.
qsizetype firstInvalidUtf8(QByteArrayView bytes);

// A text file's whole content, which must be UTF-8: throws kvl::Error naming the file
// and the byte offset instead of decoding bad bytes to U+FFFD silently.
QString readUtf8File(const QString& path);

} // namespace kvl
