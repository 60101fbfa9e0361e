#include "storerunloader.h"

#include "viewdatashared.h"

#include "diagnose/attentionsummary.h"
#include "diagnose/failureoverlap.h"
#include "diagnose/wilsoninterval.h"
#include "keepaccumulator.h"
#include "maskviews.h"
#include "rowchecksumcache.h"
#include "store/chainbreaks.h"
#include "store/runreader.h"
#include "storedattention.h"
#include "storepolicy.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace kvl {

namespace {

// Masks averaged into the eviction map at most (a 36-layer, 32k-token mask is ~10 MB
// unpacked, and the map is rebuilt whenever a sweep commits a sample).
constexpr int kMaxAveragedMasks = 256;

QString attentionPolicyText(RunReader& reader)
{
    return storePolicyText(reader, "attention");
}

QString maskPolicyText(RunReader& reader)
{
    return storePolicyText(reader, "masks");
}

// Cells come per suite: the curve is over the samples of `suite`, or of every suite
// when it is empty.
AccuracyData accuracyOf(const std::vector<AccuracyCell>& cells, const QString& suite = {})
{
    std::map<std::pair<QString, double>, std::pair<qint64, qint64>> sums;
    for (const AccuracyCell& c : cells) {
        if (!suite.isEmpty() && c.suite != suite)
            continue;
        auto& s = sums[{c.compressor, c.ratio}];
        s.first += c.n;
        s.second += c.correct;
    }
    AccuracyData data;
    std::map<QString, AccuracyCurve> curves;
    for (const auto& [key, s] : sums) {
        const double acc = s.first > 0 ? double(s.second) / double(s.first) : kNaN;
        const RateInterval ci = wilsonInterval(s.second, s.first);
        if (key.first == kFullCacheCompressor) {
            data.fullCacheAccuracy = acc;
            data.fullCacheN = int(s.first);
            data.fullCacheCorrect = s.second;
            data.fullCacheLo = ci.lo;
            data.fullCacheHi = ci.hi;
            continue;
        }
        AccuracyCurve& c = curves[key.first];
        c.compressor = key.first;
        c.ratios << key.second; // std::map order: ratios ascending
        c.accuracy << acc;
        c.n << int(s.first);
        c.correct << s.second;
        c.lo << ci.lo;
        c.hi << ci.hi;
    }
    for (auto& [name, c] : curves)
        data.curves << c;
    return data;
}

// Appends one rate (successes of n) with its Wilson interval to a curve.
void addRate(RatioCurve& curve, double ratio, qint64 successes, qint64 n)
{
    const RateInterval ci = wilsonInterval(successes, n);
    curve.ratios << ratio;
    curve.values << (n > 0 ? double(successes) / double(n) : kNaN);
    curve.n << int(n);
    curve.successes << successes;
    curve.lo << ci.lo;
    curve.hi << ci.hi;
}

QString wilsonNote()
{
    return QCoreApplication::translate("kvl::StoreRunLoader", "Wilson score intervals");
}

TaxonomyCounts taxonomyOf(RunReader& reader, const QVector<ConfigChoice>& configs)
{
    const std::vector<SignatureCount> cells = reader.signatures();
    std::set<QString> present;
    for (const SignatureCount& c : cells)
        present.insert(c.signature);
    TaxonomyCounts t;
    // Stacking order = the table order of the signature rules.
    for (Signature s : allSignatures())
        if (present.count(signatureName(s)))
            t.signatures << signatureName(s);
    for (const QString& s : present)
        if (!t.signatures.contains(s))
            t.signatures << s;
    if (t.signatures.isEmpty())
        return t;
    for (const ConfigChoice& c : configs) {
        if (c.compressor == kFullCacheCompressor)
            continue;
        TaxonomyBar bar{c.compressor, c.ratio, QVector<int>(t.signatures.size(), 0)};
        for (const SignatureCount& s : cells)
            if (s.compressor == c.compressor && sameRatio(s.ratio, c.ratio))
                bar.counts[t.signatures.indexOf(s.signature)] = int(s.count);
        t.bars << bar;
    }
    return t;
}

// Multihop C→W rows by chain-break category: the start, each link in order, the number.
TaxonomyCounts chainBreaksOf(RunReader& reader, const QVector<ConfigChoice>& configs)
{
    const std::vector<ChainBreak> breaks = chainBreaks(reader);
    TaxonomyCounts t;
    if (breaks.empty())
        return t;
    std::set<int> links; // link steps present (1 .. links-1)
    bool start = false, value = false;
    for (const ChainBreak& b : breaks) {
        start |= b.step <= 0;
        value |= b.step >= b.links;
        if (b.step > 0 && b.step < b.links)
            links.insert(b.step);
    }
    if (start)
        t.signatures << chainBreakCategory(0, 1); // chain_start
    for (int k : links)
        t.signatures << chainBreakCategory(k, k + 1); // chain_link_<k>
    if (value)
        t.signatures << chainBreakCategory(1, 1); // chain_value: the step is the last
    for (const ConfigChoice& c : configs) {
        if (c.compressor == kFullCacheCompressor)
            continue;
        TaxonomyBar bar{c.compressor, c.ratio, QVector<int>(t.signatures.size(), 0)};
        for (const ChainBreak& b : breaks)
            if (b.result.compressor == c.compressor && sameRatio(b.result.ratio, c.ratio))
                ++bar.counts[t.signatures.indexOf(chainBreakCategory(b.step, b.links))];
        t.bars << bar;
    }
    return t;
}

// The failure sets of every compressor at each overlap ratio, with their exclusive
// intersections (the UpSet view), largest first.
void failureSetsOf(RunReader& reader, RunViewData& data)
{
    std::map<double, std::map<QString, std::set<qint64>>> byRatio;
    for (FailureSetCell& c : reader.failureSets())
        byRatio[c.ratio][c.compressor] = std::move(c.sampleIds);
    for (double ratio : data.overlapRatios) {
        FailureSets f;
        f.ratio = ratio;
        std::vector<std::set<qint64>> sets;
        for (const auto& [ratioKey, byCompressor] : byRatio) {
            if (!sameRatio(ratioKey, ratio))
                continue;
            for (const auto& [name, ids] : byCompressor) {
                f.names << name;
                f.setSizes << int(ids.size());
                sets.push_back(ids);
            }
        }
        for (const auto& [members, count] : failureIntersections(sets))
            f.intersections.push_back({QVector<int>(members.begin(), members.end()), int(count)});
        // Largest first; ties by fewer members (A only before A ∩ B), then by member order.
        std::stable_sort(f.intersections.begin(), f.intersections.end(),
                         [](const FailureIntersection& a, const FailureIntersection& b) {
                             if (a.count != b.count)
                                 return a.count > b.count;
                             if (a.members.size() != b.members.size())
                                 return a.members.size() < b.members.size();
                             return a.members < b.members;
                         });
        data.failureSets << f;
    }
}

// Failure-set overlap per ratio; the diagonal holds each compressor's own C→W count.
void overlapsOf(RunReader& reader, RunViewData& data)
{
    // No sample yet: configurations exist, but there is nothing to overlap (an all-empty
    // matrix would leave the view "with data" where every other view says the run is empty).
    if (data.sampleCount == 0)
        return;
    std::map<double, std::map<QString, qint64>> failures;
    for (const TransitionCounts& t : reader.transitions())
        if (t.compressor != kFullCacheCompressor)
            failures[t.ratio][t.compressor] = t.correctToWrong;
    for (const ConfigChoice& c : data.configs)
        if (c.compressor != kFullCacheCompressor)
            failures[c.ratio][c.compressor]; // configurations without rows yet still take part
    const std::vector<OverlapCell> cells = reader.failureOverlaps();
    for (const auto& [ratio, byCompressor] : failures) {
        if (byCompressor.size() < 2)
            continue; // one compressor at a ratio has nothing to overlap with
        OverlapMatrix m;
        m.ratio = ratio;
        for (const auto& [name, count] : byCompressor)
            m.names << name;
        const int n = m.size();
        m.jaccard.fill(kNaN, n * n);
        m.aOnly.fill(0, n * n);
        m.bOnly.fill(0, n * n);
        m.both.fill(0, n * n);
        for (int i = 0; i < n; ++i) {
            const qint64 own = byCompressor.at(m.names[i]);
            m.both[m.index(i, i)] = int(own);
            m.jaccard[m.index(i, i)] = own > 0 ? 1.0 : kNaN;
        }
        for (const OverlapCell& c : cells) {
            if (!sameRatio(c.ratio, ratio))
                continue;
            const int a = int(m.names.indexOf(c.a)), b = int(m.names.indexOf(c.b));
            if (a < 0 || b < 0)
                continue;
            const double j = c.jaccard ? *c.jaccard : kNaN;
            m.jaccard[m.index(a, b)] = m.jaccard[m.index(b, a)] = j;
            m.both[m.index(a, b)] = m.both[m.index(b, a)] = int(c.both);
            m.aOnly[m.index(a, b)] = m.bOnly[m.index(b, a)] = int(c.aOnly);
            m.bOnly[m.index(a, b)] = m.aOnly[m.index(b, a)] = int(c.bOnly);
        }
        data.overlapRatios << ratio;
        data.overlaps << m;
    }
    failureSetsOf(reader, data);
}

// The configuration the detail views show when none was asked for: the one with
// the most failures caused by compression.
ConfigChoice defaultFocus(RunReader& reader, const QVector<ConfigChoice>& configs)
{
    ConfigChoice best;
    qint64 most = -1;
    for (const TransitionCounts& t : reader.transitions())
        if (t.compressor != kFullCacheCompressor && t.correctToWrong > most) {
            most = t.correctToWrong;
            best = {t.compressor, t.ratio};
        }
    if (most >= 0)
        return best;
    for (const ConfigChoice& c : configs)
        if (c.compressor != kFullCacheCompressor)
            return c;
    return configs.isEmpty() ? ConfigChoice{} : configs.first();
}

GerData gerOf(RunReader& reader, const QString& compressor)
{
    std::map<double, GerByLayer> series;
    for (const LayerCell& c : reader.layerStatsByLayer(compressor)) {
        if (c.compressor != compressor || c.layer < 0)
            continue;
        GerByLayer& s = series[c.ratio];
        s.label = ConfigChoice{c.compressor, c.ratio}.label();
        if (s.ger.size() <= c.layer) {
            s.ger.resize(c.layer + 1, kNaN);
            s.consensus.resize(c.layer + 1, kNaN);
        }
        s.ger[c.layer] = c.meanGer ? *c.meanGer : kNaN;
        s.consensus[c.layer] = c.meanConsensus ? *c.meanConsensus : kNaN;
    }
    GerData data;
    for (auto& [ratio, s] : series)
        data.series << s;
    return data;
}

// One colour per compressor, in order of first appearance.
int colorOf(QStringList& compressors, const QString& compressor)
{
    if (!compressors.contains(compressor))
        compressors << compressor;
    return int(compressors.indexOf(compressor));
}

RatioCurve& curveNamed(QVector<RatioCurve>& curves, const QString& name, int color, bool dashed)
{
    for (RatioCurve& c : curves)
        if (c.name == name)
            return c;
    RatioCurve curve;
    curve.name = name;
    curve.colorIndex = color;
    curve.dashed = dashed;
    curves.push_back(curve);
    return curves.last();
}

RatioCurves spanKeepOf(RunReader& reader)
{
    RatioCurves out;
    out.valueLabel =
        QCoreApplication::translate("kvl::StoreRunLoader", "Mean keep rate of the span");
    out.intervalNote = QCoreApplication::translate(
        "kvl::StoreRunLoader", "intervals: mean ± 1.96 standard errors over the rows");
    QStringList colors;
    int orders = 0;
    // Cells come sorted by compressor, ratio: each curve's ratios ascend.
    for (const SpanKeepCell& c : reader.spanKeepByOrder()) {
        if (c.compressor == kFullCacheCompressor)
            continue;
        const QString name =
            QCoreApplication::translate("kvl::StoreRunLoader", "%1 · instruction #%2")
                .arg(c.compressor)
                .arg(c.order);
        // Colour = compressor, line style = the instruction's order.
        RatioCurve& curve = curveNamed(out.curves, name, colorOf(colors, c.compressor), false);
        curve.styleIndex = c.order;
        orders = std::max(orders, c.order + 1);
        const double half = c.n > 1 ? kZ95 * c.sdKeepRate / std::sqrt(double(c.n)) : kNaN;
        curve.ratios << c.ratio;
        curve.values << c.meanKeepRate;
        curve.n << int(c.n);
        curve.lo << (std::isnan(half) ? kNaN : std::max(0.0, c.meanKeepRate - half));
        curve.hi << (std::isnan(half) ? kNaN : std::min(1.0, c.meanKeepRate + half));
    }
    // One legend entry per compressor and per instruction, not one per pair.
    if (out.curves.size() > 1) {
        out.colorNames = colors;
        for (int o = 0; o < orders; ++o)
            out.styleNames
                << QCoreApplication::translate("kvl::StoreRunLoader", "instruction #%1").arg(o);
    }
    return out;
}

RatioCurves leakageOf(RunReader& reader)
{
    std::map<std::pair<QString, double>, std::pair<qint64, qint64>> sums; // (leaks, n)
    for (const LeakageCell& c : reader.leakage()) {
        auto& s = sums[{c.compressor, c.ratio}];
        s.first += c.leaks;
        s.second += c.n;
    }
    RatioCurves out;
    out.valueLabel =
        QCoreApplication::translate("kvl::StoreRunLoader", "Leak rate (ROUGE-L recall > %1)")
            .arg(kLeakageThreshold);
    out.referenceLabel = kFullCacheCompressor;
    out.intervalNote = wilsonNote();
    QStringList colors;
    for (const auto& [key, s] : sums) {
        if (key.first == kFullCacheCompressor) {
            const RateInterval ci = wilsonInterval(s.first, s.second);
            out.reference = s.second > 0 ? double(s.first) / double(s.second) : kNaN;
            out.referenceN = int(s.second);
            out.referenceLo = ci.lo;
            out.referenceHi = ci.hi;
            continue;
        }
        RatioCurve& curve = curveNamed(out.curves, key.first, colorOf(colors, key.first), false);
        addRate(curve, key.second, s.first, s.second);
    }
    if (out.curves.isEmpty()) {
        out.reference = kNaN; // nothing to compare the reference with
        out.referenceLo = out.referenceHi = kNaN;
        out.referenceN = 0;
    }
    return out;
}

RatioCurves interventionsOf(RunReader& reader)
{
    // Over every beta: the view compares boost with sham, not betas.
    std::map<std::tuple<QString, QString, double>, std::pair<qint64, qint64>> sums;
    for (const InterventionCell& c : reader.interventionRates()) {
        auto& s = sums[{c.compressor, c.kind, c.ratio}];
        s.first += c.repaired;
        s.second += c.n;
    }
    RatioCurves out;
    out.valueLabel = QCoreApplication::translate("kvl::StoreRunLoader", "Repair rate");
    out.intervalNote = wilsonNote();
    QStringList colors;
    for (const auto& [key, s] : sums) {
        const auto& [compressor, kind, ratio] = key;
        const bool sham = kind == QLatin1String("sham");
        RatioCurve& curve = curveNamed(out.curves, QStringLiteral("%1 · %2").arg(compressor, kind),
                                       colorOf(colors, compressor), sham);
        addRate(curve, ratio, s.first, s.second);
    }
    return out;
}

// Heatmap pair and eviction map of the focus configuration.
void detailsOf(RunReader& reader, const RunRequest& request, RunViewData& data)
{
    qint64 focusId = 0, fullId = 0;
    for (const ConfigRecord& c : reader.configs()) {
        if (c.compressor == data.focus.compressor && sameRatio(c.ratio, data.focus.ratio))
            focusId = c.id;
        if (c.isFullCache())
            fullId = c.id;
    }
    if (focusId == 0)
        return;
    ResultFilter filter;
    filter.compressor = data.focus.compressor;
    filter.ratio = data.focus.ratio;
    const std::vector<StoredResult> rows = reader.results(filter);

    // The heatmap's sample: the one asked for (whatever is stored for it), else the
    // first C→W row with an attention summary (the question is why it failed), else
    // any with one.
    const StoredResult* shown = nullptr;
    for (const StoredResult& r : rows) {
        if (!request.sampleKey.isEmpty()) {
            if (r.sampleKey == request.sampleKey) {
                shown = &r;
                break;
            }
            continue;
        }
        if (!r.hasAttention)
            continue;
        if (!shown || (r.record.transition == Transition::CorrectToWrong &&
                       shown->record.transition != Transition::CorrectToWrong))
            shown = &r;
    }
    // Only the samples drawn: reading every sample (contexts and metadata) cost a large
    // run most of this stage.
    std::map<qint64, SampleInfo> samples;
    const auto sampleOf = [&](const StoredResult& r) -> const SampleInfo& {
        auto it = samples.find(r.sampleId);
        if (it == samples.end())
            it = samples.emplace(r.sampleId, reader.sample(r.sampleKey).value_or(SampleInfo()))
                     .first;
        return it->second;
    };

    const QString config = data.focus.label();
    if (!shown) {
        data.heatmapMissing =
            request.sampleKey.isEmpty()
                ? QCoreApplication::translate(
                      "kvl::StoreRunLoader",
                      "No row of %1 stores question attention yet: the run keeps it for rows "
                      "answered wrong (%2), and none is stored so far.")
                      .arg(config, attentionPolicyText(reader))
                : QCoreApplication::translate("kvl::StoreRunLoader",
                                              "Sample %1 has no row under %2 yet.")
                      .arg(request.sampleKey, config);
        data.referenceMissing = data.heatmapMissing;
    } else {
        const SampleInfo& sample = sampleOf(*shown);
        const QStringList tokens = contextTokens(sample.meta, sample.contextLen);
        data.sampleKey = shown->sampleKey;
        const std::optional<KeptMask> mask = reader.mask(shown->sampleId, focusId);
        std::optional<AttentionSummary> full;
        int fullWidth = 1;
        if (fullId != 0)
            full = storedAttentionOnPositions(reader, shown->sampleId, fullId, sample.contextLen,
                                              &fullWidth);
        if (full) {
            data.referenceHeatmap = attentionHeatmap(*full, nullptr, sample.spans);
            data.referenceHeatmap.tokens = tokens;
            data.referenceProvenance.compressor = kFullCacheCompressor;
            data.referenceProvenance.note =
                QStringLiteral("sample %1").arg(shown->sampleKey) + pooledAttentionNote(fullWidth);
        } else {
            data.referenceMissing =
                fullId == 0 ? QCoreApplication::translate(
                                  "kvl::StoreRunLoader",
                                  "This run has no FullCache rows, so there is no reference "
                                  "attention to compare with.")
                            : QCoreApplication::translate(
                                  "kvl::StoreRunLoader",
                                  "No FullCache attention is stored for sample %1 (the run's "
                                  "attention policy: %2).")
                                  .arg(shown->sampleKey, attentionPolicyText(reader));
        }
        data.heatmapProvenance.compressor = data.focus.compressor;
        data.heatmapProvenance.ratio = data.focus.ratio;
        data.heatmapProvenance.note = QStringLiteral("sample %1").arg(shown->sampleKey);
        int width = 1;
        if (const auto att = shown->hasAttention
                                 ? storedAttentionOnPositions(reader, shown->sampleId, focusId,
                                                              sample.contextLen, &width)
                                 : std::nullopt) {
            data.heatmap = attentionHeatmap(*att, mask ? &*mask : nullptr, sample.spans);
            data.heatmap.tokens = tokens;
            data.heatmapProvenance.note += pooledAttentionNote(width);
        } else {
            data.heatmapMissing = missingAttentionText(config, shown->sampleKey, shown->record,
                                                       attentionPolicyText(reader));
            // What is stored still answers "what did it evict of what FullCache looked at".
            if (full && mask) {
                data.heatmap = attentionHeatmap(*full, &*mask, sample.spans);
                data.heatmap.tokens = tokens;
                data.heatmapStandIn = true;
                data.heatmapProvenance.note +=
                    QStringLiteral("; FullCache attention, entries evicted by %1 greyed")
                        .arg(config);
            }
        }
    }

    // Eviction map: one sample's mask, or the mean over every sample with a mask.
    KeepAccumulator keep;
    QString spansFrom;
    int withMask = 0;
    for (const StoredResult& r : rows) {
        if (!r.hasMask || (!request.sampleKey.isEmpty() && r.sampleKey != request.sampleKey))
            continue;
        // The view is re-read every time a sweep commits: bound the work, and say so.
        if (++withMask > kMaxAveragedMasks)
            continue;
        if (const auto mask = reader.mask(r.sampleId, focusId)) {
            keep.add(*mask);
            // Spans of the first sample that has any (a retrieval sample has none).
            if (data.eviction.spans.isEmpty()) {
                data.eviction.spans = roleSpans(sampleOf(r).spans);
                if (!data.eviction.spans.isEmpty())
                    spansFrom = r.sampleKey;
            }
        }
    }
    if (keep.samples() > 0) {
        const QVector<RoleSpan> spans = data.eviction.spans;
        data.eviction = keep.result();
        data.eviction.spans = spans;
        data.evictionAveraged = request.sampleKey.isEmpty();
        data.evictionSamples = keep.samples();
        if (!data.evictionAveraged)
            for (const StoredResult& r : rows)
                if (r.sampleKey == request.sampleKey) {
                    const SampleInfo& s = sampleOf(r);
                    data.eviction.tokens = contextTokens(s.meta, s.contextLen);
                    break;
                }
        data.evictionProvenance.compressor = data.focus.compressor;
        data.evictionProvenance.ratio = data.focus.ratio;
        data.evictionProvenance.note =
            !data.evictionAveraged ? QStringLiteral("sample %1").arg(request.sampleKey)
            : withMask > keep.samples()
                ? QStringLiteral("mean over the first %1 of %2 samples")
                      .arg(keep.samples())
                      .arg(withMask)
                : QStringLiteral("mean over %1 samples").arg(keep.samples());
        if (data.evictionAveraged && !spansFrom.isEmpty())
            data.evictionProvenance.note += QStringLiteral("; spans of sample %1").arg(spansFrom);
    } else {
        data.evictionMissing =
            rows.empty() ? QCoreApplication::translate("kvl::StoreRunLoader", "%1 has no rows yet.")
                               .arg(data.focus.label())
            : !request.sampleKey.isEmpty()
                ? QCoreApplication::translate(
                      "kvl::StoreRunLoader",
                      "No kept mask is stored for sample %1 under %2 (the run's mask policy: "
                      "%3).")
                      .arg(request.sampleKey, data.focus.label(), maskPolicyText(reader))
                : QCoreApplication::translate(
                      "kvl::StoreRunLoader",
                      "No kept mask is stored for any row of %1 (the run's mask policy: %2).")
                      .arg(data.focus.label(), maskPolicyText(reader));
    }
}

} // namespace

void LoadTimings::add(const char* stage, const QElapsedTimer& since)
{
    stages.append({QLatin1String(stage), double(since.nsecsElapsed()) / 1e6});
}

namespace {
// Times consecutive stages of a load into `timings` (when a caller asked for them): each
// lap() records the time since the previous lap, or since construction.
class StageClock
{
  public:
    explicit StageClock(LoadTimings* timings) : m_timings(timings) { m_timer.start(); }
    void lap(const char* stage)
    {
        if (m_timings)
            m_timings->add(stage, m_timer);
        m_timer.restart();
    }

  private:
    LoadTimings* m_timings;
    QElapsedTimer m_timer;
};
} // namespace

void loadRunSummary(RunReader& reader, RunViewData& data, LoadTimings* timings)
{
    StageClock clock(timings);
    const RunInfo info = reader.runInfo();
    data.runName = QFileInfo(reader.path()).completeBaseName();
    data.model = info.modelName;
    const QJsonObject imported = info.spec.value(QStringLiteral("imported")).toObject();
    data.importedFrom = imported.value(QStringLiteral("title")).toString();
    data.notReleased = imported.value(QStringLiteral("not_released")).toString();
    data.importMissing.clear();
    for (const QJsonValue& m : imported.value(QStringLiteral("missing")).toArray())
        data.importMissing << m.toString();
    data.status = info.status;
    data.sampleCount = reader.sampleCount();
    data.resultCount = reader.resultCount();
    data.missing = reader.missingRows();
    data.configs.clear();
    for (const ConfigRecord& c : reader.configs())
        data.configs << ConfigChoice{c.compressor, c.ratio};
    std::stable_sort(
        data.configs.begin(), data.configs.end(), [](const ConfigChoice& a, const ConfigChoice& b) {
            const bool fa = a.compressor == kFullCacheCompressor;
            const bool fb = b.compressor == kFullCacheCompressor;
            if (fa != fb)
                return fa;
            return a.compressor != b.compressor ? a.compressor < b.compressor : a.ratio < b.ratio;
        });
    clock.lap("run_configs");
    data.sampleKeys.clear();
    for (const QString& key : reader.sampleKeys())
        data.sampleKeys << key;
    clock.lap("sample_keys");

    const std::vector<AccuracyCell> cells = reader.accuracy();
    clock.lap("accuracy_query");
    data.accuracy = accuracyOf(cells);
    std::set<QString> suites;
    for (const AccuracyCell& c : cells)
        suites.insert(c.suite);
    for (const QString& suite : suites) {
        data.suites << suite;
        data.suiteAccuracy << accuracyOf(cells, suite);
    }
    clock.lap("accuracy_curves");
    data.defaultFocus = defaultFocus(reader, data.configs);
    clock.lap("default_focus");
}

void loadRunAggregates(RunReader& reader, RunViewData& data, LoadTimings* timings)
{
    StageClock clock(timings);
    data.taxonomy = taxonomyOf(reader, data.configs);
    clock.lap("taxonomy");
    data.chainBreaks = chainBreaksOf(reader, data.configs);
    clock.lap("chain_breaks");
    overlapsOf(reader, data);
    clock.lap("overlaps");
    data.spanKeep = spanKeepOf(reader);
    clock.lap("span_keep");
    data.leakage = leakageOf(reader);
    clock.lap("leakage");
    data.interventions = interventionsOf(reader);
    clock.lap("interventions");
    data.offload = loadOffloadViews(reader);
    clock.lap("offload");
    data.decodingEvidence = loadDecodingEvidence(reader);
    clock.lap("decoding");
}

void loadRunOverview(RunReader& reader, RunViewData& data, LoadTimings* timings)
{
    loadRunSummary(reader, data, timings);
    loadRunAggregates(reader, data, timings);
    selectOverlap(data);
}

void selectOverlap(RunViewData& data)
{
    const ConfigChoice& focus = data.focus.compressor.isEmpty() ? data.defaultFocus : data.focus;
    data.overlapIndex = -1;
    data.overlap = {};
    for (int i = 0; i < data.overlapRatios.size(); ++i)
        if (sameRatio(data.overlapRatios[i], focus.ratio) || data.overlapIndex < 0)
            data.overlapIndex = i;
    if (data.overlapIndex >= 0)
        data.overlap = data.overlaps[data.overlapIndex];
}

// A run imported from elsewhere holds only what its source released: its empty detail
// views say so, instead of the store-policy advice (which would send the researcher to
// re-run a sweep KVLens never ran).
void sayWhatWasNotReleased(RunViewData& data)
{
    if (data.importedFrom.isEmpty() || data.focus.compressor.isEmpty())
        return;
    const QString why = notReleasedText(data.importedFrom, data.notReleased);
    if (data.heatmap.values.isEmpty())
        data.heatmapMissing = why;
    if (data.referenceHeatmap.values.isEmpty())
        data.referenceMissing = why;
    if (data.eviction.isEmpty())
        data.evictionMissing = why;
}

void takeSummary(RunViewData& to, const RunViewData& from)
{
    to.path = from.path;
    to.runName = from.runName;
    to.model = from.model;
    to.importedFrom = from.importedFrom;
    to.notReleased = from.notReleased;
    to.importMissing = from.importMissing;
    to.status = from.status;
    to.sampleCount = from.sampleCount;
    to.resultCount = from.resultCount;
    to.missing = from.missing;
    to.configs = from.configs;
    to.sampleKeys = from.sampleKeys;
    to.accuracy = from.accuracy;
    to.suites = from.suites;
    to.suiteAccuracy = from.suiteAccuracy;
    to.defaultFocus = from.defaultFocus;
}

void takeAggregates(RunViewData& to, const RunViewData& from)
{
    to.taxonomy = from.taxonomy;
    to.chainBreaks = from.chainBreaks;
    to.overlapRatios = from.overlapRatios;
    to.overlaps = from.overlaps;
    to.failureSets = from.failureSets;
    to.spanKeep = from.spanKeep;
    to.leakage = from.leakage;
    to.interventions = from.interventions;
    to.offload = from.offload;
    to.decodingEvidence = from.decodingEvidence;
    selectOverlap(to);
}

void takeDetails(RunViewData& to, const RunViewData& from)
{
    to.focus = from.focus;
    to.sampleKey = from.sampleKey;
    to.evictionAveraged = from.evictionAveraged;
    to.heatmap = from.heatmap;
    to.heatmapProvenance = from.heatmapProvenance;
    to.referenceHeatmap = from.referenceHeatmap;
    to.referenceProvenance = from.referenceProvenance;
    to.eviction = from.eviction;
    to.evictionProvenance = from.evictionProvenance;
    to.heatmapMissing = from.heatmapMissing;
    to.referenceMissing = from.referenceMissing;
    to.evictionMissing = from.evictionMissing;
    to.heatmapStandIn = from.heatmapStandIn;
    to.evictionSamples = from.evictionSamples;
    to.ger = from.ger;
    selectOverlap(to);
}

void loadRunDetails(RunReader& reader, const RunRequest& request, RunViewData& data,
                    LoadTimings* timings)
{
    StageClock clock(timings);
    // `data` may hold the details of another focus: start from none.
    takeDetails(data, RunViewData());
    data.focus = data.defaultFocus;
    if (!request.compressor.isEmpty()) {
        const ConfigChoice asked{request.compressor, std::max(0.0, request.ratio)};
        for (const ConfigChoice& c : data.configs)
            if (c.compressor == asked.compressor && sameRatio(c.ratio, asked.ratio))
                data.focus = c;
    }
    data.ger = gerOf(reader, data.focus.compressor);
    clock.lap("ger");
    detailsOf(reader, request, data);
    sayWhatWasNotReleased(data);
    clock.lap("heatmaps_eviction");
}

RunViewData loadRunViewDataTimed(const RunRequest& request, LoadTimings* timings)
{
    StageClock clock(timings);
    RunReader reader(request.path);
    RunViewData data;
    data.path = request.path;
    clock.lap("open");
    // Before any figure: a row edited after it was written refuses the file, as `report` does.
    data.uncheckedRows = verifiedRowChecksums(reader).unverified;
    clock.lap("verify_checksums");
    loadRunSummary(reader, data, timings);
    loadRunAggregates(reader, data, timings);
    loadRunDetails(reader, request, data, timings);
    selectOverlap(data);
    return data;
}

RunViewData loadRunViewData(const RunRequest& request)
{
    return loadRunViewDataTimed(request, nullptr);
}

} // namespace kvl
