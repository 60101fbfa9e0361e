#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace kvl {

// A result row of offloaded decoding (its extra_json has a "retrieval" object, issue
// 19), or the FullCache row of a sample that has one: what the offloading views
// aggregate, without reading the other columns of every row.
struct RetrievalRow
{
    QString sampleKey;
    QString suite;
    QString configKey;
    QString compressor;
    double ratio = 0.0;
    bool correct = false;
    std::optional<double> score;
    QJsonObject retrieval; // extra_json.retrieval; empty for the FullCache rows
    bool hasMap = false;   // a retrieval map is stored for the row

    bool isFullCache() const { return retrieval.isEmpty(); }
    // The row's task score: the score column, else correctness as 0/1.
    double taskScore() const { return score.value_or(correct ? 1.0 : 0.0); }
};

} // namespace kvl
