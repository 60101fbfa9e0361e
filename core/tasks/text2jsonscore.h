#pragma once

#include <QJsonArray>
#include <QString>

namespace kvl {

// The Text2JSON score of one prediction (SCIENCE.md section 4), in [0, 1]:
//  - the prediction is the JSON array between its first '[' and its last ']'; no such
//    array (unparseable output) scores 0;
//  - a predicted object is matched to the first unmatched gold object with the same
//    "name" (exact string); it scores 1 - 0.5 per gold key it lacks - 0.25 per gold
//    key whose value differs (exact string; a JSON number compares by its decimal
//    text), floored at 0; keys the gold object lacks are ignored;
//  - score = sum of matched scores / (gold objects + unmatched predicted objects +
//    nameless predicted elements: no string "name", or not an object).
// Both empty scores 1. The study reports 100 x the mean over samples.
double text2jsonScore(const QString& prediction, const QJsonArray& gold);

} // namespace kvl
