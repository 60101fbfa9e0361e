#include "store/decodingsteps.h"

#include "store/runmetakeys.h"
#include "store/runreader.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvl {

namespace {
// A configuration whose rows carry extra_json.decoding: the sweep's flag, or for runs
// written before it was recorded, the decode-time families' spec names.
bool isDecodeTime(const ConfigRecord& c)
{
    if (c.params.contains(kDecodeTimeParam))
        return c.params.value(kDecodeTimeParam).toBool();
    const QString spec = c.params.value(QStringLiteral("spec")).toString();
    for (const char* family : {"decoding", "compression_ratio_decoding", "prefill_decoding", "cam"})
        if (spec.startsWith(QLatin1String(family)))
            return true;
    return false;
}
} // namespace

std::vector<DecodingConfigSteps> decodingSteps(RunReader& reader)
{
    std::vector<DecodingConfigSteps> out;
    for (const ConfigRecord& c : reader.configs()) {
        if (!isDecodeTime(c))
            continue;
        ResultFilter filter;
        filter.configKey = c.key;
        DecodingConfigSteps config{c.compressor, c.ratio, {}};
        for (const StoredResult& r : reader.results(filter)) {
            const QJsonObject d = r.record.extra.value(QStringLiteral("decoding")).toObject();
            if (d.isEmpty())
                continue;
            const auto add = [&](int step, const QJsonValue& evidence, double generated,
                                 double entries) {
                DecodingStepValues& s = config.steps[step];
                ++s.rows;
                s.generated += generated;
                s.entriesAfter += entries;
                if (evidence.isDouble())
                    s.evidence.push_back(evidence.toDouble());
            };
            add(0, d.value(QStringLiteral("prefill_evidence_kept")), 0.0, 0.0);
            int k = 0;
            for (const QJsonValue& v : d.value(QStringLiteral("steps")).toArray()) {
                const QJsonObject o = v.toObject();
                add(++k, o.value(QStringLiteral("evidence_kept")),
                    o.value(QStringLiteral("generated")).toDouble(),
                    o.value(QStringLiteral("entries_after")).toDouble());
            }
        }
        if (!config.steps.empty())
            out.push_back(std::move(config));
    }
    return out;
}

} // namespace kvl
