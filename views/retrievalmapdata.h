#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace kvl {

// The evidence span of one answer field ("alice.city"), and the decoding step that
// wrote the field's value with the share of its evidence that step retrieved.
struct RetrievalField
{
    int begin = 0; // first context position
    int end = 0;   // one past the last
    QString label; // "<name>.<field>", or the span's label / "evidence"
    int step = -1; // the step that generated the value; -1 = unknown
    double recall = std::numeric_limits<double>::quiet_NaN();
};

// Offloaded decoding of one row: per decoding step (0 = the question, then each token
// fed back) and context position, the share of (layer, kv-head, query row) selections
// that retrieved the position; the evidence of each answer field under the map.
struct RetrievalMapData
{
    int steps = 0;
    int positions = 0;
    QVector<double> shares; // steps × positions, row-major (step-major), 0..1
    QVector<RetrievalField> fields;
    // Optional: the evidence recall of each step (steps entries, NaN = unknown).
    QVector<double> stepRecall;
    QStringList tokens; // optional token text per position, for the hover read-out

    bool isEmpty() const { return steps <= 0 || positions <= 0; }
    bool isValid() const { return shares.size() == qsizetype(steps) * positions; }
};

} // namespace kvl
