#pragma once

#include "common/error.h"

#include <QString>

namespace kvl::jinja {

// The error every stage of the template engine raises (lexer, parser, renderer,
// builtins, budget): the template's line, then what went wrong.
[[noreturn]] inline void fail(int line, const QString& what)
{
    throw Error(QStringLiteral("chat template line %1: %2").arg(line).arg(what));
}

} // namespace kvl::jinja
