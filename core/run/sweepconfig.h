#pragma once

#include "cache/press.h"
#include "store/runrecords.h"

#include <memory>
#include <vector>

namespace kvl {

struct ExperimentSpec;
class PressCatalog;

// One compressed configuration of a sweep: the press built from its spec and the
// ratio, with the record the store keys its rows by.
struct SweepConfig
{
    ConfigRecord record;
    std::shared_ptr<const Press> press;
    double ratio = 0.0;
};

// The FullCache configuration (ratio 0, no press).
ConfigRecord fullCacheConfig();

// compressors × ratios in spec order (compressor-major). Unknown press names and bad
// parameters throw kvl::Error naming the spec.
std::vector<SweepConfig> buildSweepConfigs(const ExperimentSpec& spec, const PressCatalog& catalog);

} // namespace kvl
