#pragma once

#include "store/runrecords.h"
#include "views/heatmapdata.h"

#include <QPair>
#include <QVector>

namespace kvl {

// Everything the sample inspector shows for one sample under one configuration.
struct SampleDetail
{
    QString path;
    SampleInfo sample;
    QString compressor;
    double ratio = 0.0;
    bool found = false; // a row of this sample under this configuration exists
    ResultRecord result;
    QString referenceAnswer; // the FullCache answer, when stored
    std::optional<bool> referenceCorrect;
    // Context text and each token position's character range in it, when the run
    // stored them (sample meta "context" and "token_offsets"); empty otherwise.
    QString context;
    QVector<QPair<int, int>> tokenOffsets;
    // The question asked after the context, and the system turn before it, when the run
    // stored them (sample meta "question", "system"); empty otherwise.
    QString question;
    QString system;
    // Per context position, fraction of (layer, kv-head) slots that kept it; empty
    // without a stored mask.
    QVector<double> tokenKeep;
    Heatmap heatmap;          // this configuration
    Heatmap referenceHeatmap; // FullCache
    // The row stores no attention of its own: `heatmap` is FullCache's with this
    // configuration's evictions greyed.
    bool heatmapStandIn = false;
    // What each heatmap lacks and why, for its empty or partial state; empty when stored.
    QString heatmapMissing;
    QString referenceMissing;
    // A run imported from elsewhere: what its source did not release (its contexts among
    // them), said in place of the context and the attention (storepolicy.h).
    QString notReleased;
};

// Reads one sample's row, mask and attention (and FullCache's); throws kvl::Error
// naming the file. Runs on a worker thread.
SampleDetail loadSampleDetail(const QString& path, const QString& sampleKey,
                              const QString& compressor, double ratio);

} // namespace kvl
