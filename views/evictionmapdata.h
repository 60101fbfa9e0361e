#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace kvl {

// An instruction span (system rule, format rule, request, defense, ...).
struct RoleSpan
{
    int begin = 0; // first position
    int end = 0;   // one past the last position
    QString role;  // "system", "format", "request", "defense", ...
    QString label; // optional text shown on the band; defaults to the role
};

// Token keep rate (fraction of kv-heads keeping the position) per layer and
// context position, with the instruction spans of the prompt.
struct EvictionMap
{
    int layers = 0;
    int positions = 0;
    QVector<double> keep; // layers × positions, row-major (layer-major), 0..1
    QVector<RoleSpan> spans;
    // Optional: each position's token text (positions entries), for the hover read-out;
    // left empty when the map averages samples of different texts.
    QStringList tokens;

    bool isEmpty() const { return layers <= 0 || positions <= 0; }
    bool isValid() const { return keep.size() == qsizetype(layers) * positions; }
};

} // namespace kvl
