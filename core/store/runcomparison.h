#pragma once

#include "store/runrecords.h"
#include "store/samplematching.h"

#include <QString>
#include <vector>

namespace kvl {

// Accuracy of one configuration (compressor × ratio) in two runs over the samples
// the runs share by content (samplematching.h): only pairs with a row in both runs
// count, so A and B stand on the same samples and Δ is a paired difference.
struct AccuracyDelta
{
    QString compressor;
    double ratio = 0.0;
    bool inA = false; // the run has this configuration
    bool inB = false;
    qint64 n = 0;        // matched samples with a row in both runs
    qint64 correctA = 0; // of them, correct in A
    qint64 correctB = 0;
    qint64 onlyACorrect = 0; // correct in A, wrong in B
    qint64 onlyBCorrect = 0;

    double accuracyA() const; // NaN when n = 0
    double accuracyB() const;
    double delta() const; // B − A; NaN when n = 0
};

// Every configuration of either run, FullCache first, then by compressor and ratio.
std::vector<AccuracyDelta> accuracyDeltas(const std::vector<StoredResult>& a,
                                          const std::vector<StoredResult>& b,
                                          const SampleMatching& matching);

// Two run files compared: their samples matched by content and the paired accuracy
// of each configuration. Throws kvl::Error naming the file that cannot be read.
struct RunComparison
{
    QString pathA, pathB;
    RunInfo infoA, infoB;
    SampleMatching matching;
    std::vector<AccuracyDelta> deltas;
};

RunComparison compareRuns(const QString& pathA, const QString& pathB);

} // namespace kvl
