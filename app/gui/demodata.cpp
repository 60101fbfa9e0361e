#include "demodata.h"

#include <QRandomGenerator>

#include <cmath>

namespace kvl {

namespace {

AccuracyData demoAccuracy()
{
    AccuracyData a;
    a.fullCacheAccuracy = 0.82;
    const QVector<double> r{0.1, 0.25, 0.5, 0.75, 0.9};
    a.curves = {{QStringLiteral("SnapKV"), r, {0.82, 0.81, 0.78, 0.52, 0.31}},
                {QStringLiteral("TOVA"), r, {0.82, 0.80, 0.77, 0.61, 0.28}},
                {QStringLiteral("StreamingLLM"), r, {0.74, 0.60, 0.39, 0.21, 0.12}},
                {QStringLiteral("KNorm"), r, {0.80, 0.72, 0.55, 0.33, 0.18}}};
    return a;
}

TaxonomyCounts demoTaxonomy()
{
    TaxonomyCounts t;
    t.signatures = {QStringLiteral("low_mapped_coverage"),
                    QStringLiteral("partial_mapped_coverage"),
                    QStringLiteral("structural_position_likelihood_drift"),
                    QStringLiteral("low_ear_candidate"),
                    QStringLiteral("decode_scorer_candidate"),
                    QStringLiteral("conflicting_diagnostic_signals"),
                    QStringLiteral("ambiguous")};
    t.bars = {{QStringLiteral("SnapKV"), 0.5, {12, 8, 0, 1, 2, 4, 1}},
              {QStringLiteral("SnapKV"), 0.75, {41, 19, 0, 2, 3, 11, 3}},
              {QStringLiteral("TOVA"), 0.5, {9, 7, 0, 1, 1, 3, 1}},
              {QStringLiteral("TOVA"), 0.75, {30, 22, 0, 1, 4, 9, 2}},
              {QStringLiteral("StreamingLLM"), 0.5, {70, 12, 0, 0, 1, 6, 2}},
              {QStringLiteral("StreamingLLM"), 0.75, {96, 10, 0, 0, 1, 5, 3}}};
    return t;
}

OverlapMatrix demoOverlap()
{
    OverlapMatrix m;
    m.names = {QStringLiteral("SnapKV"), QStringLiteral("TOVA"), QStringLiteral("StreamingLLM"),
               QStringLiteral("KNorm")};
    const int sizes[] = {79, 68, 111, 95};
    const int both[4][4] = {
        {79, 21, 40, 33}, {21, 68, 30, 25}, {40, 30, 111, 52}, {33, 25, 52, 95}};
    const int n = 4;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const int bo = both[a][b];
            const int ao = sizes[a] - bo, bOnly = sizes[b] - bo;
            m.both << bo;
            m.aOnly << ao;
            m.bOnly << bOnly;
            m.jaccard << double(bo) / (ao + bOnly + bo);
        }
    return m;
}

Heatmap demoHeatmap()
{
    Heatmap h;
    h.rows = 24;
    h.cols = 4096;
    h.values.resize(h.rows * h.cols);
    h.evicted.resize(h.rows * h.cols);
    h.evidence = {{2900, 2960, QStringLiteral("evidence: record 17")}};
    QRandomGenerator rng(7);
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.cols; ++c) {
            double v = 0.02 * rng.generateDouble() + 0.05 * std::exp(-(h.cols - c) / 300.0);
            if (c < 4)
                v += 0.5; // attention sink
            if (c >= 2900 && c < 2960)
                v += 0.25 * std::exp(-std::pow(r - 16.0, 2) / 30.0);
            h.values[r * h.cols + c] = v;
            // SnapKV-like: keeps the window and the sink; drops the evidence in upper layers.
            // Chunks of 64 positions kept or dropped together, as a chunked press would.
            const quint32 chunk = quint32(c / 64) * 2654435761u ^ quint32(r) * 40503u;
            const bool kept = c < 4 || c > h.cols - 512 || (chunk >> 7) % 5 == 0 ||
                              (c >= 2900 && c < 2960 && r < 10);
            h.evicted[r * h.cols + c] = !kept;
        }
    return h;
}

EvictionMap demoEviction()
{
    EvictionMap e;
    e.layers = 24;
    e.positions = 1800;
    e.spans = {{0, 220, QStringLiteral("system"), QStringLiteral("system prompt")},
               {220, 300, QStringLiteral("defense"), QStringLiteral("defense")},
               {300, 420, QStringLiteral("format"), QStringLiteral("format rules")},
               {1650, 1800, QStringLiteral("request"), QStringLiteral("request")}};
    e.keep.resize(e.layers * e.positions);
    QRandomGenerator rng(11);
    for (int l = 0; l < e.layers; ++l)
        for (int p = 0; p < e.positions; ++p) {
            const double recency = double(p) / e.positions;
            double keep = std::clamp(0.1 + 0.9 * std::pow(recency, 2.0 - l / 24.0) +
                                         0.15 * (rng.generateDouble() - 0.5),
                                     0.0, 1.0);
            if (p < 4)
                keep = 1.0;
            e.keep[l * e.positions + p] = keep;
        }
    return e;
}

GerData demoGer()
{
    GerData g;
    const int layers = 24;
    for (const auto& [label, ratio] : {std::pair{QStringLiteral("SnapKV @ 0.5"), 0.5},
                                       std::pair{QStringLiteral("SnapKV @ 0.75"), 0.75},
                                       std::pair{QStringLiteral("SnapKV @ 0.9"), 0.9}}) {
        GerByLayer s;
        s.label = label;
        for (int l = 0; l < layers; ++l) {
            s.ger << std::clamp(std::pow(ratio, 3) * (0.4 + 0.6 * l / double(layers)), 0.0, 1.0);
            s.consensus << std::clamp(0.25 + 0.5 * l / double(layers) - 0.1 * ratio, 0.0, 1.0);
        }
        g.series << s;
    }
    return g;
}

} // namespace

RunViewData makeDemoData()
{
    RunViewData d;
    d.path = QStringLiteral("demo.kvl");
    d.runName = QStringLiteral("DEMO (synthetic data)");
    d.model = QStringLiteral("none");
    d.accuracy = demoAccuracy();
    d.taxonomy = demoTaxonomy();
    d.overlap = demoOverlap();
    d.heatmap = demoHeatmap();
    d.heatmapProvenance.compressor = QStringLiteral("SnapKV");
    d.heatmapProvenance.ratio = 0.75;
    d.eviction = demoEviction();
    d.evictionProvenance.compressor = QStringLiteral("StreamingLLM");
    d.evictionProvenance.ratio = 0.5;
    d.ger = demoGer();
    return d;
}

} // namespace kvl
