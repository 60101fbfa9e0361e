#pragma once

// Small hand-built data for each view, shared by the export and selection tests.
#include "views/accuracyratioview.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/gerconsensusview.h"
#include "views/heatmapview.h"
#include "views/overlapmatrixview.h"
#include "views/taxonomyview.h"

#include <memory>

namespace sample {

inline kvl::AccuracyData accuracy()
{
    kvl::AccuracyData d;
    d.fullCacheAccuracy = 0.9;
    d.fullCacheN = 10;
    d.fullCacheCorrect = 9;
    d.fullCacheLo = 0.6;
    d.fullCacheHi = 0.98;
    // A with counts and intervals (views draw the intervals they are given); the
    // second curve without, as data from before counts were kept.
    d.curves = {{QStringLiteral("A"),
                 {0.5, 0.25, 0.75},
                 {0.7, 0.8, 0.2},
                 {10, 10, 10},
                 {7, 8, 2},
                 {0.4, 0.5, 0.05},
                 {0.9, 0.95, 0.5}},
                {QStringLiteral("AdaKV(SnapKV, 0.2)"), {0.25, 0.5}, {0.5, 0.6}}};
    return d;
}

inline kvl::TaxonomyCounts taxonomy()
{
    kvl::TaxonomyCounts t;
    t.signatures = {QStringLiteral("low_mapped_coverage"), QStringLiteral("ambiguous")};
    t.bars = {{QStringLiteral("S"), 0.5, {3, 1}},
              {QStringLiteral("T"), 0.75, {0, 0}},
              {QStringLiteral("T"), 0.9, {2, 6}}};
    return t;
}

// A fails rows {1,2,3}, B fails rows {3,4}.
inline kvl::OverlapMatrix overlap()
{
    kvl::OverlapMatrix m;
    m.ratio = 0.5;
    m.names = {QStringLiteral("A"), QStringLiteral("B")};
    m.jaccard = {1.0, 0.25, 0.25, 1.0};
    m.aOnly = {0, 2, 1, 0};
    m.bOnly = {0, 1, 2, 0};
    m.both = {3, 1, 1, 2};
    return m;
}

// A fails {1,2,3}, B {3,4}, C {3,4,5}: A only {1,2}; C only {5}; B & C {4}; all {3}.
inline kvl::FailureSets failureSets()
{
    kvl::FailureSets f;
    f.ratio = 0.75;
    f.names = {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")};
    f.setSizes = {3, 2, 3};
    f.intersections = {{{0}, 2}, {{2}, 1}, {{1, 2}, 1}, {{0, 1, 2}, 1}};
    return f;
}

inline kvl::Heatmap heatmap()
{
    kvl::Heatmap h;
    h.rowKind = QStringLiteral("head");
    h.rows = 2;
    h.cols = 3;
    h.values = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    h.evidence = {{1, 2, QStringLiteral("needle")}};
    h.evicted = {false, true, false, false, false, true};
    return h;
}

inline kvl::EvictionMap eviction()
{
    kvl::EvictionMap e;
    e.layers = 2;
    e.positions = 3;
    e.keep = {1, 0.5, 0, 0.25, 1, 1};
    e.spans = {{0, 1, QStringLiteral("system"), QStringLiteral("sys rule")},
               {2, 3, QStringLiteral("request"), QString()}};
    return e;
}

inline kvl::GerData ger()
{
    kvl::GerData g;
    g.series = {{QStringLiteral("S @ 0.5"), {0.1, 0.2}, {0.5}}};
    return g;
}

// A view of the named kind holding its sample data.
inline std::unique_ptr<kvl::PlotView> makeView(const QString& kind)
{
    std::unique_ptr<kvl::PlotView> view;
    if (kind == QLatin1String("accuracy")) {
        auto* v = new kvl::AccuracyRatioView;
        v->setData(accuracy());
        view.reset(v);
    } else if (kind == QLatin1String("taxonomy")) {
        auto* v = new kvl::TaxonomyView;
        v->setData(taxonomy());
        view.reset(v);
    } else if (kind == QLatin1String("overlap")) {
        auto* v = new kvl::OverlapMatrixView;
        v->setData(overlap());
        view.reset(v);
    } else if (kind == QLatin1String("heatmap")) {
        auto* v = new kvl::HeatmapView;
        v->setData(heatmap());
        view.reset(v);
    } else if (kind == QLatin1String("eviction")) {
        auto* v = new kvl::EvictionMapView;
        v->setData(eviction());
        view.reset(v);
    } else if (kind == QLatin1String("failuresets")) {
        auto* v = new kvl::FailureSetsView;
        v->setData(failureSets());
        view.reset(v);
    } else if (kind == QLatin1String("ger")) {
        auto* v = new kvl::GerConsensusView;
        v->setData(ger());
        view.reset(v);
    }
    return view;
}

inline const QStringList kinds{QStringLiteral("accuracy"),   QStringLiteral("taxonomy"),
                               QStringLiteral("overlap"),    QStringLiteral("heatmap"),
                               QStringLiteral("eviction"),   QStringLiteral("ger"),
                               QStringLiteral("failuresets")};

} // namespace sample
