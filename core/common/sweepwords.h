#pragma once

#include <QString>

namespace kvl::sweepwords {

// The words a sweep's bad choices are refused with, defined once for the New run dialog
// (NewRunChoices::problems, translated under the context "kvl::SweepWords") and for
// `kvlens-cli run` and its spec files (ExperimentSpec, in English): the same mistake
// reads the same in both. Phrases, without a capital or a full stop; the dialog shows
// them as sentences (asSentence), the CLI after the field they name.

// "token range '64:32' is not MIN:MAX or N (1 ≤ MIN ≤ MAX)"
QString badTokenRange(const QString& text);
// "'half' is not a number"
QString notANumber(const QString& text);
// "1.5: a ratio is the share of the context removed, in [0, 1)"
QString ratioOutOfRange(const QString& text);
// "0.5 is listed twice"
QString listedTwice(const QString& item);
// "presses need at least one ratio"
QString pressesNeedRatios();

// "presses need at least one ratio" -> "Presses need at least one ratio."
QString asSentence(const QString& phrase);

} // namespace kvl::sweepwords
