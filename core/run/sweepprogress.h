#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace kvl {

// Where a sweep stands after each finished sample: the line `kvlens-cli run` prints on
// stdout for the GUI. The keys are the protocol's (common/runprogress.h), which the app's
// RunProgress::parse reads; tests/core/run/tst_progressprotocol ties the two ends.
struct SweepProgress
{
    int done = 0;  // samples of this shard finished (resumed ones included)
    int total = 0; // samples of this shard
    int ran = 0;   // samples run by this invocation
    int skipped = 0;
    double elapsedS = 0.0;
    std::optional<double> etaS;
    // Running accuracy over the shard's finished samples: the rows of samples resumed
    // from the run file count too, so a resumed sweep reports the run's totals.
    std::optional<double> fullAccuracy;       // FullCache rows
    std::optional<double> compressedAccuracy; // every compressed row
    QString sampleKey;                        // the sample just finished
    QString skipReason;                       // set when that sample was skipped

    // {"done", "total", "elapsed_s", "eta_s", "accuracy" (compressed, else FullCache),
    //  "accuracy_full", "accuracy_compressed", "sample", "skipped"}; unknowns as null.
    QJsonObject toJson() const;
    // "[#####-----] 12/40  acc 0.81/0.63  eta 1m20s" for a terminal.
    QString toBar(int width = 30) const;
};

} // namespace kvl
