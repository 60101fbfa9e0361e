#pragma once

// Tests reach the views through the window's pages, by type: the window itself holds no
// view (MainWindow is menus, docks, the navigator and the registry loop).
#include "accuracypage.h"
#include "attentionpage.h"
#include "comparepanel.h"
#include "mainwindow.h"
#include "overlaplists.h"
#include "overlappages.h"
#include "routingpages.h"
#include "runcomparepanel.h"
#include "sampleinspector.h"
#include "samplespages.h"
#include "taxonomypages.h"
#include "views/accuracyratioview.h"
#include "views/evictionmapview.h"
#include "views/failuresetsview.h"
#include "views/gerconsensusview.h"
#include "views/headgridview.h"
#include "views/headselector.h"
#include "views/heatmapview.h"
#include "views/overlapmatrixview.h"
#include "views/taxonomyview.h"

namespace kvl {

template <typename P> P* pageOf(const MainWindow& window)
{
    for (RunPage* page : window.runPages())
        if (auto* p = qobject_cast<P*>(page))
            return p;
    return nullptr;
}

// The eight views the window had as members, in their old order: accuracy, taxonomy,
// chain breaks, overlap, attention heatmap, eviction map, GER, failure sets.
inline QVector<PlotView*> mainViews(const MainWindow& w)
{
    return {pageOf<AccuracyPage>(w)->view(),     pageOf<TaxonomyPage>(w)->view(),
            pageOf<ChainBreaksPage>(w)->view(),  pageOf<OverlapPage>(w)->view(),
            pageOf<AttentionPage>(w)->heatmap(), pageOf<EvictionPage>(w)->view(),
            pageOf<GerPage>(w)->view(),          pageOf<FailureSetsPage>(w)->view()};
}

inline HeadSelector* headSelector(const MainWindow& w)
{
    return pageOf<AttentionPage>(w)->headSelector();
}
inline HeadGridView* headGrid(const MainWindow& w)
{
    return pageOf<AttentionPage>(w)->headGrid();
}
inline HeatmapView* referenceHeatmap(const MainWindow& w)
{
    return pageOf<AttentionPage>(w)->referenceHeatmap();
}
inline SampleInspector* sampleInspector(const MainWindow& w)
{
    return pageOf<SamplePage>(w)->inspector();
}
inline ComparePanel* comparePanel(const MainWindow& w)
{
    return pageOf<CompareSamplesPage>(w)->panel();
}
inline RunComparePanel* runComparePanel(const MainWindow& w)
{
    return pageOf<CompareRunsPage>(w)->panel();
}
inline OverlapLists* overlapLists(const MainWindow& w)
{
    return pageOf<OverlapPage>(w)->lists();
}
inline FailureSetsView* failureSetsView(const MainWindow& w)
{
    return pageOf<FailureSetsPage>(w)->view();
}

} // namespace kvl
