#include "tasks/codescore.h"

#include <QRegularExpression>
#include <algorithm>

namespace kvl {
namespace {
QStringList numbersIn(const QString& text)
{
    static const QRegularExpression number(QStringLiteral(R"(\d+)"));
    QStringList out;
    for (auto it = number.globalMatch(text); it.hasNext();)
        out << it.next().captured();
    return out;
}
} // namespace

bool allNumbers(const QStringList& values)
{
    static const QRegularExpression number(QStringLiteral(R"(^\d+$)"));
    return !values.isEmpty() && std::all_of(values.begin(), values.end(), [](const QString& v) {
        return number.match(v.trimmed()).hasMatch();
    });
}

double codesMatch(const QString& prediction, QStringList goldCodes, bool anyOrder)
{
    QStringList predicted = numbersIn(prediction);
    for (QString& code : goldCodes)
        code = code.trimmed();
    if (anyOrder) {
        std::sort(predicted.begin(), predicted.end());
        std::sort(goldCodes.begin(), goldCodes.end());
    }
    return predicted == goldCodes ? 1.0 : 0.0;
}

} // namespace kvl
