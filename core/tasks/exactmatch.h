#pragma once

#include <QString>

namespace kvl {

// The normal form exact match compares: trimmed, runs of whitespace as one space,
// trailing punctuation (. , ; : ! ?) removed, case folded.
QString normalizeAnswer(const QString& text);

// 1 when the normal forms are equal, else 0 (scores are numbers in [0, 1]).
double exactMatch(const QString& prediction, const QString& gold);

} // namespace kvl
