#include "outcomegrids.h"

#include "viewdatashared.h"

#include "store/runreader.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace kvl {

namespace {

bool sameRatio(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}

int ratioIndex(const QVector<double>& ratios, double ratio)
{
    for (int i = 0; i < ratios.size(); ++i)
        if (sameRatio(ratios[i], ratio))
            return i;
    return -1;
}

double percent(qint64 part, qint64 whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : kNaN;
}

// Why a configuration without rows has none: the run's missing-rows table, else whether
// the run configured it at all.
std::pair<CellMissing, QString> whyMissing(const RunOutcomes& outcomes, const QString& compressor,
                                           double ratio)
{
    QStringList unsupported, failed;
    qint64 failedSamples = 0;
    for (const MissingCell& m : outcomes.missing) {
        if (m.compressor != compressor || !sameRatio(m.ratio, ratio))
            continue;
        if (m.unsupported) {
            unsupported << m.reason;
        } else {
            failed << m.reason;
            failedSamples += m.samples;
        }
    }
    if (!unsupported.isEmpty())
        return {CellMissing::Unsupported,
                tr("unsupported: %1").arg(unsupported.join(QStringLiteral("; ")))};
    if (!failed.isEmpty())
        return {CellMissing::Failed, tr("failed on %n sample(s): %1", int(failedSamples))
                                         .arg(failed.join(QStringLiteral("; ")))};
    for (const auto& [c, r] : outcomes.configurations)
        if (c == compressor && sameRatio(r, ratio))
            return {CellMissing::NoRows, tr("no rows")};
    return {CellMissing::NotInRun, tr("not in the run")};
}

qint64 intersectionSize(const std::set<qint64>& a, const std::set<qint64>& b)
{
    qint64 n = 0;
    for (qint64 id : a)
        n += b.count(id);
    return n;
}

QVector<qint64> counts(std::initializer_list<qint64> values)
{
    return QVector<qint64>(values);
}
} // namespace

RunOutcomes loadRunOutcomes(RunReader& reader)
{
    RunOutcomes out;
    for (const ConfigRecord& c : reader.configs()) {
        if (c.isFullCache())
            continue;
        if (!out.compressors.contains(c.compressor))
            out.compressors << c.compressor;
        if (ratioIndex(out.ratios, c.ratio) < 0)
            out.ratios << c.ratio;
        out.configurations.emplace_back(c.compressor, c.ratio);
    }
    std::sort(out.ratios.begin(), out.ratios.end());
    out.cells = reader.suiteOutcomes();
    out.missing = reader.missingRows();
    return out;
}

RunOutcomes loadRunOutcomes(const QString& runPath)
{
    RunReader reader(runPath);
    return loadRunOutcomes(reader);
}

OutcomeGrid outcomeGrid(const RunOutcomes& outcomes)
{
    OutcomeGrid grid;
    grid.compressors = outcomes.compressors;
    grid.ratios = outcomes.ratios;
    const int columns = int(grid.ratios.size());
    grid.cells.resize(grid.compressors.size() * columns);
    // Scores summed over the suites, divided below: the pooled mean weighs every row alike.
    QVector<double> scoreSums(grid.cells.size(), 0.0);
    for (const SuiteOutcomeCell& s : outcomes.cells) {
        const int row = int(grid.compressors.indexOf(s.compressor));
        const int column = ratioIndex(grid.ratios, s.ratio);
        if (row < 0 || column < 0)
            continue;
        OutcomeCell& cell = grid.cells[row * columns + column];
        cell.rows += s.rows;
        cell.scoredRows += s.scoredRows;
        cell.fullCacheCorrectPairs += s.fullCacheCorrect;
        cell.correctToWrongRows += qint64(s.correctToWrong.size());
        scoreSums[row * columns + column] += s.scoreSum;
    }
    for (int row = 0; row < grid.compressors.size(); ++row)
        for (int column = 0; column < columns; ++column) {
            OutcomeCell& cell = grid.cells[row * columns + column];
            cell.meanScorePercent =
                cell.scoredRows > 0
                    ? 100.0 * scoreSums[row * columns + column] / double(cell.scoredRows)
                    : kNaN;
            cell.correctToWrongPercent =
                percent(cell.correctToWrongRows, cell.fullCacheCorrectPairs);
            if (cell.rows == 0)
                std::tie(cell.missing, cell.missingReason) =
                    whyMissing(outcomes, grid.compressors[row], grid.ratios[column]);
        }
    return grid;
}

CompressorPair defaultFailurePair(const QStringList& compressors)
{
    const auto find = [&](const char* name) {
        for (const QString& c : compressors)
            if (c.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
                return c;
        return QString();
    };
    const CompressorPair paper{find("snapkv"), find("tova")};
    if (paper.isValid())
        return paper;
    if (compressors.size() >= 2)
        return {compressors[0], compressors[1]};
    return {};
}

SuiteFailureGrid suiteFailureGrid(const RunOutcomes& outcomes, CompressorPair pair)
{
    SuiteFailureGrid grid;
    grid.pair = pair.isValid() ? pair : defaultFailurePair(outcomes.compressors);
    grid.ratios = outcomes.ratios;
    std::set<QString> suites;
    // (suite, column, compressor) -> the cell of the run.
    std::map<std::tuple<QString, int, QString>, const SuiteOutcomeCell*> byKey;
    for (const SuiteOutcomeCell& s : outcomes.cells) {
        const int column = ratioIndex(grid.ratios, s.ratio);
        if (column < 0)
            continue;
        suites.insert(s.suite);
        byKey[{s.suite, column, s.compressor}] = &s;
    }
    grid.suites = QStringList(suites.begin(), suites.end());
    const int columns = int(grid.ratios.size());
    grid.cells.resize(grid.suites.size() * columns);
    for (int row = 0; row < grid.suites.size(); ++row)
        for (int column = 0; column < columns; ++column) {
            SuiteFailureCell& cell = grid.cells[row * columns + column];
            const auto find = [&](const QString& compressor) -> const SuiteOutcomeCell* {
                const auto it = byKey.find({grid.suites[row], column, compressor});
                return it == byKey.end() ? nullptr : it->second;
            };
            double rateSum = 0.0;
            bool anyRows = false;
            for (const QString& compressor : outcomes.compressors) {
                const SuiteOutcomeCell* s = find(compressor);
                if (!s)
                    continue;
                anyRows = true;
                if (s->fullCacheCorrect == 0)
                    continue;
                ++cell.compressorsRated;
                cell.fullCacheCorrectPairs += s->fullCacheCorrect;
                cell.correctToWrongRows += qint64(s->correctToWrong.size());
                rateSum += percent(qint64(s->correctToWrong.size()), s->fullCacheCorrect);
            }
            if (cell.compressorsRated > 0)
                cell.meanCorrectToWrongPercent = rateSum / cell.compressorsRated;
            else
                cell.rateMissing = anyRows ? tr("no FullCache-correct pairs") : tr("no rows");

            const SuiteOutcomeCell* a = grid.pair.isValid() ? find(grid.pair.a) : nullptr;
            const SuiteOutcomeCell* b = grid.pair.isValid() ? find(grid.pair.b) : nullptr;
            if (!grid.pair.isValid()) {
                cell.jaccardMissing = tr("needs two compressors");
                continue;
            }
            if (a) {
                cell.aFailures = qint64(a->correctToWrong.size());
                if (b)
                    cell.bothFailures = intersectionSize(a->correctToWrong, b->correctToWrong);
            }
            if (b)
                cell.bFailures = qint64(b->correctToWrong.size());
            const qint64 unionSize = cell.aFailures + cell.bFailures - cell.bothFailures;
            if (!a || !b)
                cell.jaccardMissing = tr("%1 has no rows here").arg(!a ? grid.pair.a : grid.pair.b);
            else if (unionSize == 0)
                cell.jaccardMissing =
                    tr("neither %1 nor %2 fails a sample here").arg(grid.pair.a, grid.pair.b);
            else
                cell.jaccard = double(cell.bothFailures) / double(unionSize);
        }
    return grid;
}

GridPanels outcomePanels(const OutcomeGrid& grid)
{
    GridPanels p;
    p.title = tr("Outcomes by compressor and compression ratio");
    p.rowLabel = tr("Compressor");
    p.rowColumn = QStringLiteral("compressor");
    p.rows = grid.compressors;
    p.ratios = grid.ratios;

    p.left.title = tr("Mean task score ↑");
    p.left.valueLabel = tr("Mean task score (× 100)");
    p.left.valueColumn = QStringLiteral("mean_score_percent");
    p.left.countColumns = {QStringLiteral("rows_scored")};
    p.left.countLabels = {tr("rows scored")};
    p.left.ramp = GridRamp::YellowGreenBlue;

    p.right.title = tr("C→W rate (%) ↓");
    p.right.valueLabel = tr("C→W rate");
    p.right.valueColumn = QStringLiteral("c_to_w_rate_percent");
    p.right.unit = QStringLiteral("%");
    p.right.countColumns = {QStringLiteral("c_to_w_rows"),
                            QStringLiteral("fullcache_correct_pairs")};
    p.right.countLabels = {tr("C→W rows"), tr("FullCache-correct pairs")};
    p.right.ramp = GridRamp::YellowOrangeRed;

    for (const OutcomeCell& c : grid.cells) {
        GridPanelCell score{c.meanScorePercent, counts({c.scoredRows}), c.missingReason};
        if (std::isnan(score.value) && score.missingReason.isEmpty())
            score.missingReason = tr("no scored rows");
        GridPanelCell rate{c.correctToWrongPercent,
                           counts({c.correctToWrongRows, c.fullCacheCorrectPairs}),
                           c.missingReason};
        if (std::isnan(rate.value) && rate.missingReason.isEmpty())
            rate.missingReason = tr("no FullCache-correct pairs");
        p.left.cells << score;
        p.right.cells << rate;
    }
    return p;
}

GridPanels suiteFailurePanels(const SuiteFailureGrid& grid)
{
    GridPanels p;
    p.title = tr("C→W failures by suite and compression ratio");
    p.rowLabel = tr("Suite");
    p.rowColumn = QStringLiteral("suite");
    for (const QString& suite : grid.suites)
        p.rows << (suite.isEmpty() ? tr("(no suite)") : suite);
    p.ratios = grid.ratios;

    p.left.title = tr("Mean C→W rate (%)");
    p.left.valueLabel = tr("Mean C→W rate over compressors");
    p.left.valueColumn = QStringLiteral("mean_c_to_w_rate_percent");
    p.left.unit = QStringLiteral("%");
    p.left.countColumns = {QStringLiteral("compressors_rated"), QStringLiteral("c_to_w_rows"),
                           QStringLiteral("fullcache_correct_pairs")};
    p.left.countLabels = {tr("compressors averaged"), tr("C→W rows of those"),
                          tr("their FullCache-correct pairs")};
    p.left.ramp = GridRamp::YellowOrangeRed;

    const QString a = grid.pair.a, b = grid.pair.b;
    p.right.title = grid.pair.isValid() ? tr("Failure-set Jaccard: %1 vs %2").arg(a, b)
                                        : tr("Failure-set Jaccard");
    if (grid.pair.isValid())
        p.right.shortTitle = tr("Jaccard: %1 vs %2").arg(a, b);
    p.right.valueLabel = tr("Jaccard of the C→W samples");
    p.right.valueColumn = QStringLiteral("jaccard");
    p.right.decimals = 2;
    p.right.maximum = 1.0;
    p.right.constants = {{QStringLiteral("a"), a}, {QStringLiteral("b"), b}};
    p.right.countColumns = {QStringLiteral("a_c_to_w_samples"), QStringLiteral("b_c_to_w_samples"),
                            QStringLiteral("both_c_to_w_samples")};
    p.right.countLabels = {tr("C→W samples of %1").arg(a), tr("C→W samples of %1").arg(b),
                           tr("C→W samples of both")};
    p.right.ramp = GridRamp::YellowGreenBlue;

    for (const SuiteFailureCell& c : grid.cells) {
        p.left.cells << GridPanelCell{
            c.meanCorrectToWrongPercent,
            counts({c.compressorsRated, c.correctToWrongRows, c.fullCacheCorrectPairs}),
            c.rateMissing};
        p.right.cells << GridPanelCell{
            c.jaccard, counts({c.aFailures, c.bFailures, c.bothFailures}), c.jaccardMissing};
    }
    return p;
}

} // namespace kvl
