#pragma once

#include "sampledetail.h"

namespace kvl {

// The sample's context as rich text: every token on a background coloured by how
// many heads kept it (cividis, dark = evicted by all), evidence tokens bold and
// underlined, instruction tokens italic and overlined. Without stored text the
// token positions stand in for the tokens. The first token of evidence span k (in
// evidenceStarts order) carries the anchor evidenceAnchor(k), to scroll to.
QString contextHtml(const SampleDetail& detail);

// The first position of each evidence span inside the context, ascending, once each.
QVector<int> evidenceStarts(const SampleDetail& detail);
QString evidenceAnchor(int k);

} // namespace kvl
