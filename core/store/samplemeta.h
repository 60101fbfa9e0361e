#pragma once

#include <QLatin1String>

namespace kvl {

// Keys of SampleInfo::meta that the sweep writes and the report reads.

// {config key: why}: the configurations whose compression or decoding failed on the
// sample. They have no row there; the sample's other rows (FullCache included) are kept.
inline constexpr QLatin1String kFailedConfigs("failed_configs");

} // namespace kvl
