#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace kvl {

// Failure-set overlap between compressors (or configurations): for each pair
// (a, b), the rows that fail only under a, only under b, and under both.
// All matrices are n × n, row-major, n = names.size(); entry [a * n + b].
struct OverlapMatrix
{
    double ratio = std::numeric_limits<double>::quiet_NaN(); // where the sets were taken
    QStringList names;
    QVector<double> jaccard; // both / (aOnly + bOnly + both); NaN when both sets are empty
    QVector<int> aOnly;
    QVector<int> bOnly;
    QVector<int> both;

    int size() const { return int(names.size()); }
    bool isEmpty() const { return names.isEmpty(); }
    int index(int a, int b) const { return a * int(names.size()) + b; }
};

struct OverlapSelection
{
    QString a;
    QString b;
    double jaccard = 0.0;
    int aOnly = 0;
    int bOnly = 0;
    int both = 0;
};

} // namespace kvl
