#pragma once

#include <QString>
#include <QVector>

#include <limits>

namespace kvl {

// One configuration (compressor × ratio) of two compared runs: its accuracy in each
// over the n samples they share by content, and the paired difference B − A. Runs that
// share no sample compare unpaired: each accuracy over its own run's samples (n and nB),
// B − A a difference of two independent estimates, no "correct only in" counts.
struct AccuracyDeltaRow
{
    QString compressor;
    double ratio = 0.0; // 0 for FullCache
    int n = 0;          // matched samples with a row in both runs; 0 = not in both
                        // (unpaired: A's samples with a row)
    double accuracyA = std::numeric_limits<double>::quiet_NaN();
    double accuracyB = std::numeric_limits<double>::quiet_NaN();
    double delta = std::numeric_limits<double>::quiet_NaN(); // B − A
    int onlyACorrect = 0;                                    // samples correct in A and wrong in B
    int onlyBCorrect = 0;
    QString missingFrom; // "A", "B" or empty: the run without this configuration
    int nB = 0;          // unpaired only: B's samples with a row
};

struct AccuracyDeltaTable
{
    QString nameA; // "A: run-a (model)"
    QString nameB;
    bool paired = true; // false: the runs share no sample (see AccuracyDeltaRow)
    QVector<AccuracyDeltaRow> rows;
};

} // namespace kvl
