#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// Failure-signature counts of the C→W rows of one (compressor, ratio) cell.
struct TaxonomyBar
{
    QString compressor;
    double ratio = 0.0;
    QVector<int> counts; // one per TaxonomyCounts::signatures entry
};

struct TaxonomyCounts
{
    QStringList signatures; // e.g. "low_mapped_coverage", ... in stacking order
    QVector<TaxonomyBar> bars;

    bool isEmpty() const { return bars.isEmpty() || signatures.isEmpty(); }
};

// What a click on one stacked segment selects: the rows of this cell with this signature.
struct TaxonomySelection
{
    QString compressor;
    double ratio = 0.0;
    QString signature;
    int count = 0;
};

} // namespace kvl
