#include "diagnose/transition.h"

namespace kvl {

Transition transitionOf(bool fullCorrect, bool compressedCorrect)
{
    if (fullCorrect)
        return compressedCorrect ? Transition::CorrectToCorrect : Transition::CorrectToWrong;
    return compressedCorrect ? Transition::WrongToCorrect : Transition::WrongToWrong;
}

QString transitionName(Transition transition)
{
    switch (transition) {
    case Transition::CorrectToCorrect:
        return QStringLiteral("C->C");
    case Transition::CorrectToWrong:
        return QStringLiteral("C->W");
    case Transition::WrongToCorrect:
        return QStringLiteral("W->C");
    case Transition::WrongToWrong:
        return QStringLiteral("W->W");
    }
    return {};
}

std::optional<Transition> transitionFromName(const QString& name)
{
    QString n = name.trimmed();
    n.replace(QChar(0x2192), QStringLiteral("->"));
    for (Transition t : {Transition::CorrectToCorrect, Transition::CorrectToWrong,
                         Transition::WrongToCorrect, Transition::WrongToWrong})
        if (n == transitionName(t))
            return t;
    return std::nullopt;
}

} // namespace kvl
