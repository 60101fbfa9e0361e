#include "run/sweepconfig.h"

#include "compressors/decodingpress.h"
#include "compressors/presscatalog.h"
#include "run/experimentspec.h"
#include "store/runmetakeys.h"

namespace kvl {

ConfigRecord fullCacheConfig()
{
    ConfigRecord c;
    c.compressor = kFullCacheCompressor;
    c.ratio = 0.0;
    c.key = ConfigRecord::makeKey(c.compressor, c.ratio);
    return c;
}

std::vector<SweepConfig> buildSweepConfigs(const ExperimentSpec& spec, const PressCatalog& catalog)
{
    std::vector<SweepConfig> configs;
    for (const CompressorConfig& c : spec.compressors) {
        std::shared_ptr<const Press> press = catalog.press(c.spec);
        for (double ratio : spec.ratios) {
            SweepConfig config;
            config.press = press;
            config.ratio = ratio;
            config.record.compressor = c.name;
            config.record.ratio = ratio;
            config.record.key = ConfigRecord::makeKey(c.name, ratio);
            config.record.params = {{QStringLiteral("spec"), press->spec()},
                                    {QStringLiteral("written"), c.spec}};
            // Readers of the store (torch-free) pick the decode-time configurations by
            // this flag rather than by the spec's name.
            if (dynamic_cast<const DecodingPress*>(press.get()))
                config.record.params.insert(kDecodeTimeParam, true);
            configs.push_back(std::move(config));
        }
    }
    return configs;
}

} // namespace kvl
