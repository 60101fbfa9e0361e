#pragma once

#include "views/ratiocurvesdata.h"
#include "views/retrievalmapdata.h"

#include <QJsonObject>
#include <QString>
#include <QVector>
#include <optional>
#include <vector>

namespace kvl {

class RunReader;
struct RetrievalMap;
struct RetrievalRow;
struct SampleInfo;

// A row of offloaded decoding with a stored retrieval map, as the map's chooser lists it.
struct RetrievalRowChoice
{
    QString sampleKey;
    QString configKey;
    QString label; // "s3 · shadowkv @ 0.5 (recall 0.42)"
    QString compressor;
    double ratio = 0.0;
    bool operator==(const RetrievalRowChoice&) const = default;
};

// What the Offloading pages show of a run (issue 19), from the rows whose extra_json has
// a "retrieval" object. Empty curves leave their view in the empty state.
struct OffloadViews
{
    // Mean evidence recall per offloading configuration (one line per compressor, the
    // landmark kind and chunk in its name) against the sweep ratio; budget share = 1 - r.
    RatioCurves recall;
    // Task score (score column, else correctness) per compressor against the sweep ratio,
    // colour = landmark kind, line style = chunk; FullCache's mean over the same samples
    // as the reference.
    RatioCurves score;
    QVector<RetrievalRowChoice> rows;

    bool isEmpty() const { return recall.isEmpty() && score.isEmpty() && rows.isEmpty(); }
};

OffloadViews offloadViewsOf(const std::vector<RetrievalRow>& rows);
OffloadViews loadOffloadViews(RunReader& reader);

// The map of one row with the evidence of each answer field: spans of kind "evidence"
// of the sample; a span labelled "<name>.<field>" gets the step and recall of the
// matching field_recall entry of extra_json.retrieval.
RetrievalMapData retrievalMapData(const RetrievalMap& map, const SampleInfo& sample,
                                  const QJsonObject& retrieval);
// Reads the row's map, sample and retrieval summary; an empty value when the row has no
// map. Throws kvl::Error (naming the file) for a damaged map.
RetrievalMapData loadRetrievalMap(RunReader& reader, const QString& sampleKey,
                                  const QString& configKey);

} // namespace kvl
