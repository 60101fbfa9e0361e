#include "retrievalviews.h"

#include "viewdatashared.h"

#include "meanpoint.h"

#include "common/error.h"
#include "diagnose/retrievalmap.h"
#include "diagnose/wilsoninterval.h"
#include "store/runreader.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace kvl {

namespace {

QString landmarkOf(const QJsonObject& retrieval)
{
    return retrieval.value(QLatin1String("landmark")).toString();
}

int chunkOf(const QJsonObject& retrieval)
{
    return retrieval.value(QLatin1String("chunk")).toInt(-1);
}

int indexIn(QStringList& names, const QString& name)
{
    qsizetype i = names.indexOf(name);
    if (i < 0) {
        names << name;
        i = names.size() - 1;
    }
    return int(i);
}

QString intervalNote()
{
    return tr("intervals: Wilson score for 0/1 values, else mean ± 1.96 standard errors");
}
} // namespace

OffloadViews offloadViewsOf(const std::vector<RetrievalRow>& rows)
{
    OffloadViews out;
    // compressor -> ratio -> values; rows come sorted by compressor, ratio.
    std::map<QString, std::map<double, MeanCell>> recall, score;
    std::map<QString, QJsonObject> settings; // a compressor's first retrieval object
    MeanCell full;
    for (const RetrievalRow& r : rows) {
        if (r.isFullCache()) {
            full.add(r.taskScore());
            continue;
        }
        settings.emplace(r.compressor, r.retrieval);
        score[r.compressor][r.ratio].add(r.taskScore());
        const QJsonValue mean = r.retrieval.value(QLatin1String("mean_evidence_recall"));
        if (mean.isDouble())
            recall[r.compressor][r.ratio].add(mean.toDouble());
        if (r.hasMap) {
            const QString recallText =
                mean.isDouble() ? tr(" (evidence recall %1)").arg(mean.toDouble(), 0, 'f', 2)
                                : QString();
            out.rows.push_back({r.sampleKey, r.configKey,
                                QStringLiteral("%1 · %2 @ %3%4")
                                    .arg(r.sampleKey, r.compressor)
                                    .arg(r.ratio)
                                    .arg(recallText),
                                r.compressor, r.ratio});
        }
    }
    const auto nameOf = [&](const QString& compressor) {
        const QJsonObject& s = settings[compressor];
        return tr("%1 · %2, chunk %3").arg(compressor, landmarkOf(s)).arg(chunkOf(s));
    };

    out.recall.valueLabel = tr("Mean evidence recall (share of evidence entries retrieved)");
    // Every entry stays (offloaded): the ratio only sets the retrieval budget.
    const QString ratioLabel = tr("Ratio r: each decoding step attends to ⌊T(1 − r)⌋ of the T "
                                  "context entries per kv-head (unless a budget is set in tokens)");
    out.recall.ratioLabel = ratioLabel;
    out.recall.intervalNote = intervalNote();
    int color = 0;
    for (const auto& [compressor, cells] : recall) {
        RatioCurve curve;
        curve.name = nameOf(compressor);
        curve.colorIndex = color++;
        for (const auto& [ratio, cell] : cells)
            appendMeanPoint(curve, ratio, cell);
        out.recall.curves << curve;
    }

    out.score.valueLabel = tr("Task score (mean over rows)");
    out.score.ratioLabel = ratioLabel;
    out.score.intervalNote = intervalNote();
    QStringList landmarks, chunks;
    std::set<std::pair<QString, int>> pairs;
    bool uniquePairs = true;
    for (const auto& [compressor, cells] : score) {
        const QJsonObject& s = settings[compressor];
        RatioCurve curve;
        curve.name = nameOf(compressor);
        // Colour = landmark kind, line style = chunk: chunk 1 against chunk 8 of one
        // landmark reads as one colour, two styles.
        curve.colorIndex = indexIn(landmarks, landmarkOf(s));
        curve.styleIndex = indexIn(chunks, tr("chunk %1").arg(chunkOf(s)));
        uniquePairs = pairs.insert({landmarkOf(s), chunkOf(s)}).second && uniquePairs;
        for (const auto& [ratio, cell] : cells)
            appendMeanPoint(curve, ratio, cell);
        out.score.curves << curve;
    }
    // A grouped legend only when each (landmark, chunk) is one compressor: else two
    // curves would share colour and style, and each needs its own entry.
    if (uniquePairs && out.score.curves.size() > 1) {
        out.score.colorNames = landmarks;
        out.score.styleNames = chunks;
    } else {
        for (RatioCurve& c : out.score.curves) {
            c.colorIndex = int(&c - out.score.curves.data());
            c.styleIndex = -1;
        }
    }
    if (!full.values.empty() && !out.score.curves.isEmpty()) {
        RatioCurve ref;
        appendMeanPoint(ref, 0.0, full);
        out.score.reference = ref.values[0];
        out.score.referenceLo = ref.lo[0];
        out.score.referenceHi = ref.hi[0];
        out.score.referenceN = ref.n[0];
        out.score.referenceLabel = tr("FullCache");
    }
    return out;
}

OffloadViews loadOffloadViews(RunReader& reader)
{
    return offloadViewsOf(reader.retrievalRows());
}

RetrievalMapData retrievalMapData(const RetrievalMap& map, const SampleInfo& sample,
                                  const QJsonObject& retrieval)
{
    RetrievalMapData data;
    if (!map.isConsistent())
        return data;
    data.steps = int(map.steps);
    data.positions = int(map.contextLength);
    data.shares.resize(qsizetype(map.shares.size()));
    for (std::size_t i = 0; i < map.shares.size(); ++i)
        data.shares[qsizetype(i)] = double(map.shares[i]) / 255.0;
    // field_recall: "<name>.<field>" -> (step, recall).
    std::map<QString, std::pair<int, double>> written;
    for (const QJsonValue& v : retrieval.value(QLatin1String("field_recall")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString label = QStringLiteral("%1.%2").arg(
            o.value(QLatin1String("name")).toString(), o.value(QLatin1String("field")).toString());
        const QJsonValue recall = o.value(QLatin1String("recall"));
        written[label] = {o.value(QLatin1String("step")).toInt(-1),
                          recall.isDouble() ? recall.toDouble() : kNaN};
    }
    for (const QJsonValue& v : sample.spans) {
        const QJsonObject s = v.toObject();
        if (s.value(QLatin1String("kind")).toString() != QLatin1String("evidence"))
            continue;
        // Spans over the question or a system turn are not context positions.
        const QString field = s.value(QLatin1String("field")).toString();
        if (!field.isEmpty() && field != QLatin1String("context"))
            continue;
        RetrievalField f;
        f.begin = std::clamp(s.value(QLatin1String("start")).toInt(), 0, data.positions);
        f.end = std::clamp(s.value(QLatin1String("end")).toInt(), f.begin, data.positions);
        if (f.end <= f.begin)
            continue;
        f.label = s.value(QLatin1String("label")).toString();
        if (f.label.isEmpty())
            f.label = QStringLiteral("evidence");
        if (const auto it = written.find(f.label); it != written.end()) {
            f.step = it->second.first;
            f.recall = it->second.second;
        }
        data.fields << f;
    }
    const QJsonArray perStep = retrieval.value(QLatin1String("evidence_recall")).toArray();
    if (!perStep.isEmpty()) {
        data.stepRecall.fill(kNaN, data.steps);
        for (int i = 0; i < std::min(data.steps, int(perStep.size())); ++i)
            if (perStep[i].isDouble())
                data.stepRecall[i] = perStep[i].toDouble();
    }
    return data;
}

RetrievalMapData loadRetrievalMap(RunReader& reader, const QString& sampleKey,
                                  const QString& configKey)
{
    const std::optional<RetrievalMap> map = reader.retrieval(sampleKey, configKey);
    const std::optional<SampleInfo> sample = reader.sample(sampleKey);
    if (!map || !sample)
        return {};
    QJsonObject retrieval;
    ResultFilter f;
    f.sampleKey = sampleKey;
    f.configKey = configKey;
    const std::vector<StoredResult> rows = reader.results(f);
    if (!rows.empty())
        retrieval = rows.front().record.extra.value(QLatin1String("retrieval")).toObject();
    return retrievalMapData(*map, *sample, retrieval);
}

} // namespace kvl
