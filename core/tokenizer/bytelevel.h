#pragma once

#include <QByteArray>
#include <QChar>
#include <QString>

namespace kvl::bytelevel {

// GPT-2's reversible byte -> printable character map: printable Latin-1 bytes map
// to themselves, the other 68 bytes to U+0100.. in order (space -> 'Ġ', '\n' -> 'Ċ').
QChar byteToChar(unsigned char byte);
// The byte a mapped character stands for, or -1 for a character outside the map.
int charToByte(QChar c);

// Bytes -> mapped string, and back. fromChars returns false when `chars` holds a
// character outside the map (then `bytes` is left unspecified).
QString toChars(const QByteArray& bytes);
bool fromChars(const QString& chars, QByteArray& bytes);

} // namespace kvl::bytelevel
