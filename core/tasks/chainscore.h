#pragma once

#include <QString>

namespace kvl {

// The multihop rule: the final value of an answer is the text after its last '='
// (the whole answer when it has none), and the score is exact match of the
// prediction's final value against the gold one. The chain written before it
// ("Hotel = Sierra = 2025") does not count, so a bare "2025" scores the same. 1 or 0.
double chainValueMatch(const QString& prediction, const QString& goldValue);

// The text after the last '=' of an answer, trimmed ("Hotel = Sierra = 2025" -> "2025").
QString finalValue(const QString& answer);

} // namespace kvl
