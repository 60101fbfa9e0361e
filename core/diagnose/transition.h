#pragma once

#include <QString>
#include <optional>

namespace kvl {

// FullCache outcome → compressed outcome (C = correct, W = wrong). C→W rows are the
// failures caused by compression.
enum class Transition
{
    CorrectToCorrect,
    CorrectToWrong,
    WrongToCorrect,
    WrongToWrong
};

Transition transitionOf(bool fullCorrect, bool compressedCorrect);

// "C->C", "C->W", "W->C", "W->W" (ASCII, as stored and printed).
QString transitionName(Transition transition);
// Accepts the ASCII names and the arrow forms "C→W"; nullopt otherwise.
std::optional<Transition> transitionFromName(const QString& name);

} // namespace kvl
