#pragma once

#include <QStringList>
#include <QVector>

#include <limits>

namespace kvl {

// One column of an UpSet plot: the samples that fail under exactly `members` (indices
// into FailureSets::names, ascending) and under no other compressor at that ratio.
struct FailureIntersection
{
    QVector<int> members;
    int count = 0;
};

// The failure sets (C→W samples) of every compressor at one ratio, as an UpSet plot
// draws them: each set's size, and the exclusive intersections, largest first. Two
// compressors make three columns (A only, B only, both); more make the overlap
// matrix's pairs too coarse, and this view takes over.
struct FailureSets
{
    double ratio = std::numeric_limits<double>::quiet_NaN();
    QStringList names;
    QVector<int> setSizes; // same order as names
    QVector<FailureIntersection> intersections;

    // No compressor fails a sample here (or none ran): nothing to draw.
    bool isEmpty() const { return names.isEmpty() || intersections.isEmpty(); }
};

} // namespace kvl
