#pragma once

#include <QString>

namespace kvl {

// Human-readable, translated name of a failure signature id
// ("low_mapped_coverage" → "Low mapped coverage"), or of a chain-break category
// ("chain_link_2" → "Link 2"; store/chainbreaks); unknown ids are shown as given.
QString signatureDisplayName(const QString& signature);

} // namespace kvl
