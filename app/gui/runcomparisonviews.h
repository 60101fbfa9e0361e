#pragma once

#include "store/runcomparison.h"
#include "views/accuracydeltadata.h"
#include "views/ratiocurvesdata.h"

#include <QStringList>

namespace kvl {

// What the Runs page of the Compare tab shows of two compared runs, built off the GUI
// thread from store/runcomparison: every figure stands on the matched samples only.
struct RunComparisonViews
{
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

// Loads and compares two run files; throws kvl::Error naming a file that cannot be read.
RunComparisonViews loadRunComparison(const QString& pathA, const QString& pathB);

} // namespace kvl
