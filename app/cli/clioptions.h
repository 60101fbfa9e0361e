#pragma once

#include <QtGlobal>

class QCommandLineParser;

namespace kvl::cli {

// An integer option's value, at least `min`; otherwise kvl::Error "--NAME must be a
// positive integer" (min 1), "... a non-negative integer" (min 0) or "... an integer >=
// MIN".
int intOption(const QCommandLineParser& parser, const char* name, int min);
// A seed option's value (any unsigned 64-bit integer), else kvl::Error naming it.
quint64 seedOption(const QCommandLineParser& parser, const char* name = "seed");

} // namespace kvl::cli
