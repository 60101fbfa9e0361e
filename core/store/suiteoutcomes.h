#pragma once

#include <QString>
#include <set>

namespace kvl {

// One compressed configuration's outcomes in one suite (RunReader::suiteOutcomes): what
// the outcome grids (KVDiagnosis's pooled outcomes and failure views) are computed from,
// pooled or per suite, without reading each row twice.
struct SuiteOutcomeCell
{
    QString compressor;
    double ratio = 0.0;
    QString suite; // empty for samples without one
    qint64 rows = 0;
    // Rows with a task score (result.score), and the sum of their scores.
    qint64 scoredRows = 0;
    double scoreSum = 0.0;
    // Rows whose sample's FullCache row is correct: the denominator of the C→W rate.
    qint64 fullCacheCorrect = 0;
    // Sample ids of the C→W rows.
    std::set<qint64> correctToWrong;
};

} // namespace kvl
