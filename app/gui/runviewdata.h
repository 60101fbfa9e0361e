#pragma once

#include "views/accuracydata.h"
#include "views/evictionmapdata.h"
#include "views/gerdata.h"
#include "views/heatmapdata.h"
#include "views/overlapdata.h"
#include "views/provenance.h"
#include "views/taxonomydata.h"

#include <functional>

namespace kvl {

// Everything the window's views show for one run, as plain values. The store
// adapter fills it from a run file; empty parts leave their view in the empty state.
struct RunViewData
{
    QString path;
    QString runName;
    QString model;
    AccuracyData accuracy;
    TaxonomyCounts taxonomy;
    OverlapMatrix overlap;
    Heatmap heatmap;
    Provenance heatmapProvenance; // compressor, ratio, layer/head of the heatmap
    EvictionMap eviction;
    Provenance evictionProvenance;
    GerData ger;
};

// Reads a run file into view data; throws kvl::Error naming the file on failure.
using RunLoader = std::function<RunViewData(const QString& path)>;

} // namespace kvl
