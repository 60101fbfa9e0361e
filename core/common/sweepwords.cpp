#include "common/sweepwords.h"

#include <QCoreApplication>

namespace kvl::sweepwords {

// QCoreApplication::translate: untranslated where no translator is installed (the CLI),
// Japanese in the desktop app (translations/kvlens_ja.ts reads this file).

QString badTokenRange(const QString& text)
{
    return QCoreApplication::translate("kvl::SweepWords",
                                       "token range '%1' is not MIN:MAX or N (1 ≤ MIN ≤ MAX)")
        .arg(text.trimmed());
}

QString notANumber(const QString& text)
{
    return QCoreApplication::translate("kvl::SweepWords", "'%1' is not a number")
        .arg(text.trimmed());
}

QString ratioOutOfRange(const QString& text)
{
    return QCoreApplication::translate("kvl::SweepWords",
                                       "%1: a ratio is the share of the context removed, in [0, 1)")
        .arg(text.trimmed());
}

QString listedTwice(const QString& item)
{
    return QCoreApplication::translate("kvl::SweepWords", "%1 is listed twice").arg(item.trimmed());
}

QString pressesNeedRatios()
{
    return QCoreApplication::translate("kvl::SweepWords", "presses need at least one ratio");
}

QString asSentence(const QString& phrase)
{
    if (phrase.isEmpty())
        return phrase;
    QString s = phrase;
    s[0] = s[0].toUpper();
    if (!s.endsWith(QLatin1Char('.')) && !s.endsWith(QChar(0x3002)))
        s += QLatin1Char('.');
    return s;
}

} // namespace kvl::sweepwords
