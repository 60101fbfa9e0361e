#pragma once

#include <QJsonArray>
#include <QString>

namespace kvl {

// Which Text2JSON rule scores a prediction (SCIENCE.md section 4; SCHEMA.md, Scoring).
enum class Text2jsonRule
{
    // The published evaluator's rule (Text2jsonEvaluator of the study's code), where it
    // gives a score; KVLens's documented choices where it raises.
    Published,
    // KVLens's earlier, more forgiving reading: the JSON array between the first '['
    // and the last ']' (Qt's parser), exact names, a null value counts as wrong.
    Lenient,
};

// "published" or "lenient": how score summaries and reports name the rule.
QString text2jsonRuleName(Text2jsonRule rule);

// The Text2JSON score of one prediction, in [0, 1].
//
// Published rule:
//  - the prediction must hold exactly one '[' and one ']', the '[' first; the text
//    between them (inclusive) must parse as Python's json.loads parses it (common/jsonloads.h:
//    strict strings, so a raw newline inside a string fails); otherwise 0;
//  - names and string values compare after mapping U+2019 (’) to an apostrophe (');
//  - a predicted object matches the gold object with its "name" if that gold object is
//    still unmatched; it scores 1 - 1/k per gold field it lacks or sets to null -
//    1/(2k) per wrong value, k = the gold object's fields besides "name" (k = 2 in the
//    study: 0.5 and 0.25); a JSON integer compares by its decimal text; a float, boolean
//    or object value is wrong (the evaluator raises there);
//  - score = sum of matched scores / (gold objects + predicted elements that are not
//    objects, have no string "name", or match no unmatched gold object); 1 when both
//    lists are empty (the evaluator divides by zero there).
//  Throws kvl::Error when the gold is not a list of objects with string names, or
//  repeats a name (the evaluator drops such a sample from its mean).
//
// Lenient rule: the array between the first '[' and the last ']' (Qt's parser); a
// predicted object matches the first unmatched gold object with exactly its name; 1 -
// 0.5 per gold key it lacks - 0.25 per gold key with a different value (a JSON number
// compares by its decimal text, null is a wrong value), floored at 0; the same
// denominator; both empty score 1. It never throws.
double text2jsonScore(const QString& prediction, const QJsonArray& gold,
                      Text2jsonRule rule = Text2jsonRule::Published);

} // namespace kvl
