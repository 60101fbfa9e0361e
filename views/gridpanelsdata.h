#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <utility>

namespace kvl {

// One value of a grid panel and the counts behind it.
struct GridPanelCell
{
    double value = std::numeric_limits<double>::quiet_NaN(); // NaN: missing, never 0
    QVector<qint64> counts;                                  // named by GridPanel::countColumns
    QString missingReason; // why the value is missing ("unsupported: ...", "no rows")
};

// The colour ramp of a panel, light at the minimum: ColorBrewer's YlGnBu (scores, overlap)
// and YlOrRd (failure rates), as the KVDiagnosis paper draws them. Both are sequential and
// colour-blind safe.
enum class GridRamp
{
    YellowGreenBlue,
    YellowOrangeRed
};

// One annotated heatmap panel: rows × ratios values on a fixed colour range.
struct GridPanel
{
    QString title;       // above the panel ("Mean task score ↑")
    QString shortTitle;  // for a narrow print where the title does not fit; empty: none
    QString valueLabel;  // the value in tooltips ("Mean task score")
    QString valueColumn; // the value's CSV column ("mean_score_percent")
    QString unit;        // after the value in cells' tooltips ("%"; empty: none)
    int decimals = 1;    // in the cells and tooltips
    double minimum = 0.0;
    double maximum = 100.0;
    GridRamp ramp = GridRamp::YellowGreenBlue;
    // Columns with one value for the whole panel ({"a", "snapkv"}), in the CSV after the value.
    QVector<std::pair<QString, QString>> constants;
    QStringList countColumns;     // CSV columns of GridPanelCell::counts ("rows_scored")
    QStringList countLabels;      // the same in tooltips ("rows scored")
    QVector<GridPanelCell> cells; // row-major: cells[row * ratios + column]
};

// Two panels side by side over the same rows (compressors or suites) and columns
// (compression ratios, ascending), sharing the row axis: the outcome grids of
// app/viewdata/outcomegrids.h, drawn by OutcomeGridView.
struct GridPanels
{
    QString title;     // of the view ("Outcomes by compressor and ratio")
    QString rowLabel;  // what a row is, in tooltips ("Compressor")
    QString rowColumn; // its CSV column ("compressor")
    QStringList rows;
    QVector<double> ratios;
    GridPanel left;
    GridPanel right;

    int rowCount() const { return int(rows.size()); }
    int columnCount() const { return int(ratios.size()); }
    int index(int row, int column) const { return row * columnCount() + column; }
    bool isEmpty() const { return rows.isEmpty() || ratios.isEmpty(); }
    // Both panels hold one cell per row and ratio.
    bool isValid() const
    {
        const qsizetype n = qsizetype(rowCount()) * columnCount();
        return left.cells.size() == n && right.cells.size() == n;
    }
};

} // namespace kvl
