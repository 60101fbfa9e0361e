#pragma once

#include <QString>
#include <QVector>

namespace kvl {

// Global eviction rate of answer-critical tokens and head consensus, per layer,
// for one configuration (e.g. "SnapKV @ 0.75").
struct GerByLayer
{
    QString label;
    QVector<double> ger;       // per layer, 0..1 (NaN = undefined)
    QVector<double> consensus; // per layer, distinct argmax positions / heads, 0..1
};

struct GerData
{
    QVector<GerByLayer> series;
    bool isEmpty() const { return series.isEmpty(); }
};

} // namespace kvl
