#pragma once

#include "runviewdata.h"

#include <QVector>

namespace kvl {

class EvictionMapView;
class HeatmapView;
class PlotView;

// Titles and empty-state hints of the detail views of a loaded run: each names the
// configuration and sample it shows and, where something is not stored, says exactly
// what and why, so that no view is blank with "No run open." while a run is open.
void describeAttentionViews(const RunViewData& data, HeatmapView* heatmap, HeatmapView* reference);
void describeEvictionView(const RunViewData& data, EvictionMapView* eviction);

// A run that holds no sample yet (running, or cancelled before its first sample) says
// so in every view; once samples land, the views' own hints come back. Call with
// every view of the window on each load, and with an empty RunViewData on close.
void describeRunState(const RunViewData& data, const QVector<PlotView*>& views);

} // namespace kvl
