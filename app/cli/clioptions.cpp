#include "clioptions.h"

#include "common/error.h"

#include <QCommandLineParser>

namespace kvl::cli {

int intOption(const QCommandLineParser& parser, const char* name, int min)
{
    bool ok = false;
    const int v = parser.value(QLatin1String(name)).toInt(&ok);
    if (ok && v >= min)
        return v;
    const QString what = min == 1   ? QStringLiteral("a positive integer")
                         : min == 0 ? QStringLiteral("a non-negative integer")
                                    : QStringLiteral("an integer >= %1").arg(min);
    throw Error(QStringLiteral("--%1 must be %2").arg(QLatin1String(name), what));
}

quint64 seedOption(const QCommandLineParser& parser, const char* name)
{
    bool ok = false;
    const quint64 v = parser.value(QLatin1String(name)).toULongLong(&ok);
    if (!ok)
        throw Error(QStringLiteral("--%1 must be a non-negative integer").arg(QLatin1String(name)));
    return v;
}

} // namespace kvl::cli
