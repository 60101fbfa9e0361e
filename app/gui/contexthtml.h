#pragma once

#include "sampledetail.h"

namespace kvl {

// The sample's context as rich text: every token on a background coloured by how
// many heads kept it (cividis, dark = evicted by all), evidence tokens bold and
// underlined, instruction tokens italic and overlined. Without stored text the
// token positions stand in for the tokens.
QString contextHtml(const SampleDetail& detail);

} // namespace kvl
