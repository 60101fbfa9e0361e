#pragma once

#include "decodingviews.h"
#include "retrievalviews.h"
#include "store/runaggregates.h"
#include "store/runrecords.h"
#include "views/accuracydata.h"
#include "views/evictionmapdata.h"
#include "views/failuresetsdata.h"
#include "views/gerdata.h"
#include "views/heatmapdata.h"
#include "views/overlapdata.h"
#include "views/provenance.h"
#include "views/ratiocurvesdata.h"
#include "views/taxonomydata.h"

#include <cmath>
#include <functional>
#include <limits>

namespace kvl {

// Two ratios of one run are the same configuration's when they differ by less than
// this: ratios travel as doubles through SQLite, JSON and the choosers.
inline constexpr double kRatioTolerance = 1e-9;
inline bool sameRatio(double a, double b)
{
    return std::abs(a - b) < kRatioTolerance;
}

// One configuration of a run, as the choosers list it.
struct ConfigChoice
{
    QString compressor;
    double ratio = 0.0;
    // "SnapKV @ 0.75"; FullCache has no ratio.
    QString label() const
    {
        return ratio == 0.0 && compressor == kFullCacheCompressor
                   ? compressor
                   : QStringLiteral("%1 @ %2").arg(compressor).arg(ratio);
    }
    bool operator==(const ConfigChoice&) const = default;
};

// What to load from a run file: the run, and the focus of the detail views
// (heatmap, eviction map, GER). An empty compressor lets the loader pick the
// configuration with the most C→W rows; an empty sample key averages the
// eviction map over samples and shows the first failing sample's attention.
struct RunRequest
{
    QString path;
    QString compressor;
    double ratio = -1.0;
    QString sampleKey;
};

// Everything the window's views show for one run, as plain values. The store
// adapter fills it from a run file; empty parts leave their view in the empty state.
struct RunViewData
{
    QString path;
    QString runName;
    QString model;
    // Rows made elsewhere (kvlens-cli import-run): the source's title ("KVDiagnosis
    // release") and what it never released, for the views that would draw it.
    QString importedFrom;
    QString notReleased;
    // What the imported source lacked that a complete one holds ("diagnostics of ruler8k:
    // ... is absent"), one line each: the views' figures stand on the rest.
    QStringList importMissing;
    QString status; // running | finished | failed (empty: unknown)
    qint64 sampleCount = 0;
    qint64 resultCount = 0;
    // Result rows written before schema version 3 carry no checksum: read unverified
    // (every other row was verified when the file's state was first seen).
    qint64 uncheckedRows = 0;
    // Samples the sweep skipped and configurations that failed on a sample: the rows the
    // accuracy curves lack, with why (RunReader::missingRows).
    std::vector<MissingCell> missing;
    AccuracyData accuracy; // over every suite of the run
    // The run's suites (sorted) and the accuracy of each alone, for the suite chooser:
    // a pooled curve hides a suite that breaks at a lower ratio than the others.
    QStringList suites;
    QVector<AccuracyData> suiteAccuracy;
    TaxonomyCounts taxonomy;
    // Multihop C→W rows by the step where the written chain left the gold one
    // (store/chainbreaks categories), drawn like the taxonomy.
    TaxonomyCounts chainBreaks;
    OverlapMatrix overlap; // at focus.ratio when present, else the first ratio
    // Failure overlap at every ratio of the run (the overlap view's ratio chooser).
    QVector<double> overlapRatios;
    QVector<OverlapMatrix> overlaps;
    // The failure sets of every compressor at each of those ratios (an UpSet view).
    QVector<FailureSets> failureSets;
    int overlapIndex = -1; // of `overlap` in `overlaps`
    Heatmap heatmap;
    Provenance heatmapProvenance; // compressor, ratio, layer/head of the heatmap
    // The same sample's attention under FullCache, drawn beside the compressed one.
    Heatmap referenceHeatmap;
    Provenance referenceProvenance;
    EvictionMap eviction;
    Provenance evictionProvenance;
    // What the detail views lack and why, in words for their empty or partial state
    // ("SnapKV @ 0.75's own attention is not stored for sample s3 (C→C) ..."); empty
    // when everything is there.
    QString heatmapMissing;
    QString referenceMissing;
    QString evictionMissing;

    // The model as figures' provenance names it: an imported run says where it came from.
    QString provenanceModel() const
    {
        if (importedFrom.isEmpty())
            return model;
        return model.isEmpty() ? QStringLiteral("imported from %1").arg(importedFrom)
                               : QStringLiteral("%1, imported from %2").arg(model, importedFrom);
    }
    // The compressed row stores no attention of its own: `heatmap` is FullCache's with
    // the compressor's evictions greyed.
    bool heatmapStandIn = false;
    int evictionSamples = 0; // masks in the eviction map (1 for one sample)
    GerData ger;
    // Instruction suites: keep rate of instruction spans by their order in the
    // prompt, and system-prompt leakage rate, against ratio (FullCache reference).
    RatioCurves spanKeep;
    RatioCurves leakage;
    // Repair rate of the attention boost (solid) and of the sham (dashed).
    RatioCurves interventions;
    // Offloading (issue 19): retrieval recall and task score against the sweep ratio, and
    // the rows whose retrieval map can be drawn.
    OffloadViews offload;
    // Decode-time presses (issue 17): evidence kept after each compression while the
    // answer is decoded, per configuration.
    RatioCurves decodingEvidence;
    // The selection the detail views were built for, and what can be chosen.
    ConfigChoice focus;
    // The focus when none is asked for: the configuration with the most C→W rows.
    ConfigChoice defaultFocus;
    QString sampleKey; // sample of the heatmaps (and of the eviction map when chosen)
    bool evictionAveraged = false;
    QVector<ConfigChoice> configs;
    QStringList sampleKeys;
};

} // namespace kvl
