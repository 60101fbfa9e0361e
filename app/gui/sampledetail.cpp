#include "sampledetail.h"

#include "maskviews.h"
#include "store/runreader.h"

#include <QJsonArray>

#include <cmath>

namespace kvl {

SampleDetail loadSampleDetail(const QString& path, const QString& sampleKey,
                              const QString& compressor, double ratio)
{
    RunReader reader(path);
    SampleDetail d;
    d.path = path;
    d.compressor = compressor;
    d.ratio = ratio;
    const std::optional<SampleInfo> sample = reader.sample(sampleKey);
    if (!sample)
        return d;
    d.sample = *sample;
    d.context = sample->meta.value(QStringLiteral("context")).toString();
    for (const QJsonValue& v : sample->meta.value(QStringLiteral("token_offsets")).toArray()) {
        const QJsonArray pair = v.toArray();
        d.tokenOffsets.push_back({pair.at(0).toInt(), pair.at(1).toInt()});
    }

    ResultFilter f;
    f.sampleKey = sampleKey;
    qint64 configId = 0, fullId = 0;
    for (const StoredResult& r : reader.results(f)) {
        if (r.compressor == kFullCacheCompressor) {
            fullId = r.configId;
            d.referenceAnswer = r.record.answer;
            d.referenceCorrect = r.record.correct;
        }
        if (r.compressor == compressor && std::abs(r.ratio - ratio) < 1e-9) {
            configId = r.configId;
            d.result = r.record;
            d.found = true;
        }
    }
    std::optional<KeptMask> mask;
    if (configId != 0 && compressor != kFullCacheCompressor) {
        mask = reader.mask(sample->id, configId);
        if (mask)
            d.tokenKeep = tokenKeepRates(*mask);
    }
    if (configId != 0)
        if (const auto att = reader.attention(sample->id, configId))
            d.heatmap = attentionHeatmap(*att, mask ? &*mask : nullptr, sample->spans);
    if (fullId != 0 && fullId != configId)
        if (const auto att = reader.attention(sample->id, fullId))
            d.referenceHeatmap = attentionHeatmap(*att, nullptr, sample->spans);
    return d;
}

} // namespace kvl
