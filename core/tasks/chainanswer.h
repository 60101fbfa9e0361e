#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// The multihop answer format, written, read and scored in one place: the chain from the
// asked variable to its number, '='-separated ("Hotel = Sierra = Whiskey = 2025"). Each
// step is then one lookup of the variable just written (a model of four layers cannot
// chase four links inside one forward pass), the scorer reads the number after the last
// '=', and under a compressed cache the written chain shows at which link it broke.

// "Hotel = Sierra = 2025" from {"Hotel", "Sierra", "2025"}.
QString chainAnswer(const QStringList& walk);

// The steps of an answer, each simplified and without a trailing '.' or ','
// ("Hotel = Sierra = 2025." -> {"Hotel", "Sierra", "2025"}; a bare "2025" -> {"2025"}).
QStringList chainSteps(const QString& answer);

// The last step: the answer's final value ("Hotel = Sierra = 2025" -> "2025").
QString finalValue(const QString& answer);

// The multihop rule: exact match of the prediction's final value against the gold
// one. The chain written before it does not count, so a bare "2025" scores the same.
// 1 or 0.
double chainValueMatch(const QString& prediction, const QString& goldValue);

// Where a written-out answer leaves the gold chain: the index of the first step it gets
// wrong or leaves out (1 = the first link followed from the asked variable, ..., the
// gold's link count = the number itself; 0 when the answer names another variable
// first). -1 when there is nothing to locate: the gold is not a chain, the answer is a
// bare value (no '='), or the answer follows the whole chain.
int chainBreakStep(const QString& answer, const QString& gold);

// The links of a gold chain answer: its '=' count ("Hotel = Sierra = 2025" -> 2).
int chainLinks(const QString& gold);

} // namespace kvl
