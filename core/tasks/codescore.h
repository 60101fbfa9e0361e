#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// The retrieval rule: the numbers a prediction states, read left to right, must be the
// gold codes: in order (one code, or a multiquery's codes in the asked order), or as a
// multiset when `anyOrder` (multivalue: "all the codes of" has no order). Words around
// the numbers do not count, so "Anna Berg is 4821" and "4821" both answer 4821, while a
// missing, wrong or extra code scores 0. Returns 1 or 0.
double codesMatch(const QString& prediction, QStringList goldCodes, bool anyOrder);

// Whether every entry is a decimal number: only then does codesMatch() apply; other
// values (a user's own dataset) fall back to exact match of the whole answer.
bool allNumbers(const QStringList& values);

} // namespace kvl
