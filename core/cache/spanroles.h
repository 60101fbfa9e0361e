#pragma once

#include "cache/compressioninput.h"

#include <QStringList>

namespace kvl {

// Which spans whitelisting and fair eviction act on. By default the instruction spans
// (every role but "evidence" and "distractor", which the runner also passes for the
// diagnostics: protecting evidence would let a press see the answer); "all" takes every
// span; otherwise the roles listed.
inline bool spanSelected(const ContextSpan& span, const QStringList& roles)
{
    if (roles.isEmpty())
        return span.role != QLatin1String("evidence") && span.role != QLatin1String("distractor");
    return roles.contains(QLatin1String("all")) || roles.contains(span.role);
}

} // namespace kvl
