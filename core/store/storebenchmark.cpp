#include "store/storebenchmark.h"

#include "common/error.h"
#include "store/rowdecisions.h"
#include "store/runwriter.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace kvl {

StoreWriteBenchmark benchmarkStoreWrite(const QString& path, int samples, int configsPerSample,
                                        int layers)
{
    if (QFileInfo::exists(path))
        throw Error(path, QStringLiteral("the benchmark writes a new file; this one exists"));
    RunWriter writer(path);
    writer.setRunInfo({QJsonObject{{QStringLiteral("benchmark"), true}},
                       QStringLiteral("synthetic"), QString(), QString(), QStringLiteral("running"),
                       QString(), QString()});
    std::vector<ConfigRecord> configs;
    configs.push_back({QString(), kFullCacheCompressor, 0.0, {}, 0});
    for (int c = 1; c < configsPerSample; ++c)
        configs.push_back(
            {QString(), QStringLiteral("press%1").arg(c / 3), 0.25 * (1 + c % 3), {}, 0});
    QStringList keys;
    for (ConfigRecord& c : configs) {
        c.key = ConfigRecord::makeKey(c.compressor, c.ratio);
        writer.addConfig(c);
        keys << c.key;
    }

    QElapsedTimer timer;
    timer.start();
    for (int s = 0; s < samples; ++s) {
        SampleRecord record;
        record.sample.key = QStringLiteral("bench-%1").arg(s);
        record.sample.suite = QStringLiteral("synthetic");
        record.sample.contextLen = 4096;
        for (int c = 0; c < configsPerSample; ++c) {
            ResultRecord r;
            r.configKey = keys[c];
            r.answer = QStringLiteral("answer %1").arg((s + c) % 7);
            r.correct = (s + c) % 3 != 0;
            r.score = r.correct ? 1.0 : 0.0;
            r.metrics = {0.5, 0.6, 0.2, 0.3, 0.74,
                         0.1, 0.9, 1.0, 0.8, CoverageType::MeasuredTokenCoverage};
            r.ger = 0.1;
            r.kvBytes = 1 << 20;
            r.timings = {12.0, 1.0, 30.0, 2.0};
            for (int l = 0; l < layers; ++l)
                r.layers.push_back({l, 0.1, 0.5});
            r.spans = {{0, QStringLiteral("instruction"), 0, 0.7},
                       {1, QStringLiteral("evidence"), std::nullopt, 0.4}};
            record.results.push_back(std::move(r));
        }
        decideRows(record, configs); // the run's decisions, as a sweep's rows carry them
        writer.writeSample(record);
    }
    writer.setStatus(QStringLiteral("finished"));
    StoreWriteBenchmark b;
    b.seconds = double(timer.nsecsElapsed()) / 1e9;
    b.samples = samples;
    b.rows = qint64(samples) * configsPerSample;
    b.rowsPerSecond = b.seconds > 0 ? double(b.rows) / b.seconds : 0.0;
    return b;
}

} // namespace kvl
