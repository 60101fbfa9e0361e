#pragma once

#include <QString>

namespace kvl {

struct StoreWriteBenchmark
{
    qint64 samples = 0;
    qint64 rows = 0;      // result rows
    double seconds = 0.0; // wall time of the writes (file creation excluded)
    double rowsPerSecond = 0.0;
};

// Writes a synthetic run of `samples` samples × `configsPerSample` configurations
// (FullCache + compressed rows with every metric column, `layers` per-layer stats and
// two span keep rates per row, no blobs) to a new file at path, one transaction per
// sample as a sweep does, and times it. Target (issue 4): 60,000 rows in ≤ 5 s, e.g.
// benchmarkStoreWrite(path, 2600, 23). Throws kvl::Error when path exists.
StoreWriteBenchmark benchmarkStoreWrite(const QString& path, int samples, int configsPerSample,
                                        int layers = 8);

} // namespace kvl
