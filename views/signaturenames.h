#pragma once

#include <QString>

namespace kvl {

// Human-readable, translated name of a failure signature id
// ("low_mapped_coverage" → "Low mapped coverage"); unknown ids are shown as given.
QString signatureDisplayName(const QString& signature);

} // namespace kvl
