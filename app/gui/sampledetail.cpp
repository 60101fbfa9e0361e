#include "sampledetail.h"

#include "diagnose/attentionsummary.h"
#include "maskviews.h"
#include "runviewdata.h"
#include "store/runreader.h"
#include "storedattention.h"
#include "storepolicy.h"

#include <QCoreApplication>
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
    const QJsonObject imported =
        reader.runInfo().spec.value(QStringLiteral("imported")).toObject();
    d.notReleased = notReleasedText(imported.value(QStringLiteral("title")).toString(),
                                    imported.value(QStringLiteral("not_released")).toString());
    d.context = sample->meta.value(QStringLiteral("context")).toString();
    d.question = sample->meta.value(QStringLiteral("question")).toString();
    d.system = sample->meta.value(QStringLiteral("system")).toString();
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
        if (r.compressor == compressor && sameRatio(r.ratio, ratio)) {
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
    const QStringList tokens = contextTokens(sample->meta, sample->contextLen);
    std::optional<AttentionSummary> full;
    if (fullId != 0)
        full = storedAttentionOnPositions(reader, sample->id, fullId, sample->contextLen);
    if (full) {
        d.referenceHeatmap = attentionHeatmap(*full, nullptr, sample->spans);
        d.referenceHeatmap.tokens = tokens;
    } else {
        d.referenceMissing =
            fullId == 0
                ? QCoreApplication::translate(
                      "kvl::SampleDetail",
                      "This sample has no FullCache row, so there is no reference "
                      "attention to compare with.")
                : QCoreApplication::translate("kvl::SampleDetail",
                                              "No FullCache attention is stored for this sample.");
    }
    std::optional<AttentionSummary> own;
    if (configId != 0)
        own = configId == fullId
                  ? full
                  : storedAttentionOnPositions(reader, sample->id, configId, sample->contextLen);
    if (own) {
        d.heatmap = attentionHeatmap(*own, mask ? &*mask : nullptr, sample->spans);
        d.heatmap.tokens = tokens;
    } else if (configId != 0) {
        const QString config = ConfigChoice{compressor, ratio}.label();
        d.heatmapMissing =
            missingAttentionText(config, sampleKey, d.result, storePolicyText(reader, "attention"));
        if (full && mask) {
            d.heatmap = attentionHeatmap(*full, &*mask, sample->spans);
            d.heatmap.tokens = tokens;
            d.heatmapStandIn = true;
        }
    } else {
        d.heatmapMissing =
            QCoreApplication::translate("kvl::SampleDetail", "Sample %1 has no row under %2 yet.")
                .arg(sampleKey, ConfigChoice{compressor, ratio}.label());
    }
    if (!d.notReleased.isEmpty()) {
        if (d.referenceHeatmap.isEmpty())
            d.referenceMissing = d.notReleased;
        if (d.heatmap.isEmpty() && configId != 0)
            d.heatmapMissing = d.notReleased;
    }
    return d;
}

} // namespace kvl
