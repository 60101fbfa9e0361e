#pragma once

#include <QString>
#include <QVector>

namespace kvl {

// How a bin of context positions is reduced to one value.
enum class PoolMode
{
    Max, // attention: a single bright position must stay visible when zoomed out
    Mean // keep rates: the bin shows the share of entries kept
};

// A rows × cols matrix reduced along its columns to at most `bins` columns.
struct PooledGrid
{
    int rows = 0;
    int bins = 0;
    QVector<int> edges;     // bins + 1 column boundaries; bin b covers [edges[b], edges[b+1])
    QVector<double> values; // rows × bins, row-major; NaN when a bin holds only NaN
    QVector<double> flaggedFraction; // rows × bins share of flagged (e.g. evicted) entries,
                                     // empty when no flags were given

    double value(int row, int bin) const { return values.at(row * bins + bin); }
};

// Pools columns so that a context of any length is drawn with at most one
// cell per pixel column: cost O(rows × cols), output O(rows × bins), never N².
// Bin b covers columns [floor(b·cols/bins), floor((b+1)·cols/bins)). When
// cols ≤ maxBins every column is its own bin. NaN inputs are skipped.
// `flags`, if not empty, is rows × cols; its per-bin mean is returned alongside.
PooledGrid poolColumns(const QVector<double>& values, int rows, int cols, int maxBins,
                       PoolMode mode, const QVector<bool>& flags = {});

// The same over the columns [begin, end) only (a zoomed view): the bins split that
// range, and their edges stay in the matrix's columns (edges.front() == begin,
// edges.back() == end), so the cost follows the visible range, not the context.
// The range is clamped to [0, cols); an empty range gives an empty grid.
PooledGrid poolColumnRange(const QVector<double>& values, int rows, int cols, int begin, int end,
                           int maxBins, PoolMode mode, const QVector<bool>& flags = {});

// The bin that holds column `col` (edges as returned in PooledGrid).
int binOfColumn(const QVector<int>& edges, int col);

// How many columns a bin holds, for an axis label: "4" when every bin holds four, "1-2"
// when the floor-divided edges give bins of one and two (a mean over "~1.0" columns
// would hide that some bins merge two positions).
QString binWidthText(const PooledGrid& grid);

} // namespace kvl
