#pragma once

#include <QCoreApplication>
#include <QString>
#include <limits>

namespace kvl {

// What the view-data builders share.

// A cell or point with no value (no rows, an undefined ratio): the views leave it blank.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// tr() for code outside a QObject: lupdate files a namespace-level tr() call under the
// namespace, so the lookup uses that context too. n selects a plural form (%n).
inline QString tr(const char* text, int n = -1)
{
    return QCoreApplication::translate("kvl", text, nullptr, n);
}

} // namespace kvl
