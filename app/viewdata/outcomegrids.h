#pragma once

#include "store/runaggregates.h"
#include "store/suiteoutcomes.h"
#include "views/gridpanelsdata.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <utility>
#include <vector>

namespace kvl {

class RunReader;

// The outcome grids of a run, as the KVDiagnosis paper's figures draw them
// (scripts/regenerate_paper_artifacts.py: pooled_population_outcomes.csv and
// failure_views.csv), for any run: per compressor × ratio, pooled over suites, the mean
// task score and the C→W rate; per suite × ratio, the mean C→W rate over compressors and
// the failure-set Jaccard of two compressors. Rates are in percent: C→W rows over the
// FullCache-correct pairs (rows whose sample's FullCache row is correct). A value
// without rows behind it is NaN with the reason, never 0.

// What both grids are computed from, read once (one pass over the rows): cheap to keep,
// so that choosing another compressor pair recomputes the suite grid without the store.
struct RunOutcomes
{
    QStringList compressors; // compressed ones, in the run's order (RunReader::configs)
    QVector<double> ratios;  // of the compressed configurations, ascending
    // The (compressor, ratio) configurations of the run, with rows or not.
    std::vector<std::pair<QString, double>> configurations;
    std::vector<SuiteOutcomeCell> cells; // RunReader::suiteOutcomes
    std::vector<MissingCell> missing;    // RunReader::missingRows
};

// Throws kvl::Error (naming the file) when the run cannot be read.
RunOutcomes loadRunOutcomes(RunReader& reader);
RunOutcomes loadRunOutcomes(const QString& runPath);

// Why a configuration has no value at all.
enum class CellMissing
{
    None,
    Unsupported, // the source could not run it (an import's kUnsupportedConfigs)
    Failed,      // it failed on every sample it was tried on
    NoRows,      // configured, but no row was written (yet)
    NotInRun     // the run never configured this compressor at this ratio
};

// One compressor at one ratio, pooled over suites.
struct OutcomeCell
{
    qint64 rows = 0;
    qint64 scoredRows = 0;            // n behind the mean score
    qint64 fullCacheCorrectPairs = 0; // n behind the C→W rate
    qint64 correctToWrongRows = 0;
    double meanScorePercent = std::numeric_limits<double>::quiet_NaN(); // 100 × mean score
    double correctToWrongPercent = std::numeric_limits<double>::quiet_NaN();
    CellMissing missing = CellMissing::None;
    QString missingReason; // the source's words for an unsupported or failed cell
};

// Compressor × ratio (the paper's pooled population outcomes).
struct OutcomeGrid
{
    QStringList compressors;    // rows, in the run's order
    QVector<double> ratios;     // columns, ascending
    QVector<OutcomeCell> cells; // row-major

    bool isEmpty() const { return compressors.isEmpty() || ratios.isEmpty(); }
    const OutcomeCell& at(int row, int column) const
    {
        return cells[row * int(ratios.size()) + column];
    }
};

OutcomeGrid outcomeGrid(const RunOutcomes& outcomes);

// The two compressors whose failure sets the suite grid compares.
struct CompressorPair
{
    QString a;
    QString b;
    bool isValid() const { return !a.isEmpty() && !b.isEmpty() && a != b; }
    bool operator==(const CompressorPair&) const = default;
};

// SnapKV and TOVA (any case) when the run has both, as the paper compares them; else the
// first two compressors in the run's order; invalid with fewer than two.
CompressorPair defaultFailurePair(const QStringList& compressors);

// One suite at one ratio.
struct SuiteFailureCell
{
    // Unweighted mean over the compressors with a C→W rate here (FullCache-correct pairs
    // in the suite), in percent; with how many, and their summed counts.
    double meanCorrectToWrongPercent = std::numeric_limits<double>::quiet_NaN();
    int compressorsRated = 0;
    qint64 fullCacheCorrectPairs = 0;
    qint64 correctToWrongRows = 0;
    // |A ∩ B| / |A ∪ B| of the pair's C→W samples; NaN when the union is empty or either
    // compressor has no rows here.
    double jaccard = std::numeric_limits<double>::quiet_NaN();
    qint64 aFailures = 0;
    qint64 bFailures = 0;
    qint64 bothFailures = 0;
    QString rateMissing;    // why the mean is NaN
    QString jaccardMissing; // why the Jaccard is NaN
};

// Suite × ratio (the paper's failure views).
struct SuiteFailureGrid
{
    QStringList suites;     // rows, sorted; an empty name for samples without a suite
    QVector<double> ratios; // columns, ascending
    CompressorPair pair;
    QVector<SuiteFailureCell> cells; // row-major

    bool isEmpty() const { return suites.isEmpty() || ratios.isEmpty(); }
    const SuiteFailureCell& at(int row, int column) const
    {
        return cells[row * int(ratios.size()) + column];
    }
};

// An invalid pair (the default argument) takes defaultFailurePair(); a pair naming a
// compressor the run lacks gives NaN Jaccards saying so.
SuiteFailureGrid suiteFailureGrid(const RunOutcomes& outcomes, CompressorPair pair = {});

// The grids as OutcomeGridView draws them: titles, fixed colour ranges (0–100 for percents,
// 0–1 for the Jaccard), the n's behind each value with their CSV columns, and the reason
// of each missing value.
GridPanels outcomePanels(const OutcomeGrid& grid);
GridPanels suiteFailurePanels(const SuiteFailureGrid& grid);

} // namespace kvl
