#pragma once

#include "chattemplate/jinjaast.h"
#include "chattemplate/jinjalexer.h"

namespace kvl::jinja {

// Parses the tokens of a template into statements with Jinja's grammar and operator
// precedence. A tag, operator or syntax outside the supported subset throws kvl::Error
// naming the construct and the template line.
Body parseTemplate(const std::vector<Token>& tokens);

} // namespace kvl::jinja
