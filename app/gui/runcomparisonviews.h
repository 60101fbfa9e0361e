#pragma once

#include "store/runaggregates.h"
#include "store/runcomparison.h"
#include "views/accuracydeltadata.h"
#include "views/ratiocurvesdata.h"

#include <QStringList>

namespace kvl {

// What the Runs page of the Compare tab shows of two compared runs, built off the GUI
// thread from store/runcomparison: every figure stands on the matched samples only;
// runs that share no sample at all compare unpaired, each over its own samples.
struct RunComparisonViews
{
    bool paired = true;
    QString nameA; // "A: run-a (model)"
    QString nameB;
    QString summary;        // counts of matched / mismatched / only in A / only in B
    QStringList mismatches; // "p1: answer differs ('Zoe Pike' vs 'Zoe Hart'); ..."
    QStringList onlyA, onlyB;
    RatioCurves curves; // accuracy of both runs, a colour per compressor, a style per run
    AccuracyDeltaTable table;
};

// `name` of a run: its file's base name and model, prefixed "A: " or "B: ".
RunComparisonViews runComparisonViews(const RunComparison& comparison);
// Two runs without a shared sample (comparison.matching.matched empty): each
// configuration's accuracy over every sample of each run that has a row for it
// (`accuracyA`/`B`: RunReader::accuracy(), per suite), with Wilson intervals, said to be
// unpaired in the summary, the curves' note and the table.
RunComparisonViews unpairedComparisonViews(const RunComparison& comparison,
                                           const std::vector<AccuracyCell>& accuracyA,
                                           const std::vector<AccuracyCell>& accuracyB);

// Loads and compares two run files, paired where they share samples, else unpaired;
// throws kvl::Error naming a file that cannot be read.
RunComparisonViews loadRunComparison(const QString& pathA, const QString& pathB);

} // namespace kvl
