#include "columnpooling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvl {

PooledGrid poolColumns(const QVector<double>& values, int rows, int cols, int maxBins,
                       PoolMode mode, const QVector<bool>& flags)
{
    return poolColumnRange(values, rows, cols, 0, cols, maxBins, mode, flags);
}

PooledGrid poolColumnRange(const QVector<double>& values, int rows, int cols, int begin, int end,
                           int maxBins, PoolMode mode, const QVector<bool>& flags)
{
    PooledGrid grid;
    begin = std::clamp(begin, 0, std::max(0, cols));
    end = std::clamp(end, begin, std::max(0, cols));
    if (rows <= 0 || cols <= 0 || end <= begin || values.size() < qsizetype(rows) * cols)
        return grid;
    const bool withFlags = flags.size() >= qsizetype(rows) * cols;
    const int span = end - begin;
    grid.rows = rows;
    grid.bins = std::clamp(maxBins, 1, span);
    grid.edges.resize(grid.bins + 1);
    for (int b = 0; b <= grid.bins; ++b)
        grid.edges[b] = begin + int(qint64(b) * span / grid.bins);
    grid.values.resize(qsizetype(rows) * grid.bins);
    if (withFlags)
        grid.flaggedFraction.resize(grid.values.size());

    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int r = 0; r < rows; ++r) {
        const double* row = values.constData() + qsizetype(r) * cols;
        for (int b = 0; b < grid.bins; ++b) {
            const int from = grid.edges[b];
            const int to = grid.edges[b + 1];
            double acc = mode == PoolMode::Max ? -std::numeric_limits<double>::infinity() : 0.0;
            int counted = 0;
            for (int c = from; c < to; ++c) {
                const double v = row[c];
                if (std::isnan(v))
                    continue;
                acc = mode == PoolMode::Max ? std::max(acc, v) : acc + v;
                ++counted;
            }
            double out = nan;
            if (counted > 0)
                out = mode == PoolMode::Max ? acc : acc / counted;
            grid.values[qsizetype(r) * grid.bins + b] = out;
            if (withFlags) {
                int flagged = 0;
                for (int c = from; c < to; ++c)
                    flagged += flags[qsizetype(r) * cols + c] ? 1 : 0;
                grid.flaggedFraction[qsizetype(r) * grid.bins + b] =
                    double(flagged) / double(to - from);
            }
        }
    }
    return grid;
}

int binOfColumn(const QVector<int>& edges, int col)
{
    // upper_bound finds the first edge past col; its predecessor opens col's bin.
    const auto it = std::upper_bound(edges.cbegin(), edges.cend(), col);
    const int bin = int(it - edges.cbegin()) - 1;
    return std::clamp(bin, 0, std::max(0, int(edges.size()) - 2));
}

QString binWidthText(const PooledGrid& grid)
{
    int narrowest = 0;
    int widest = 0;
    for (int b = 0; b < grid.bins; ++b) {
        const int width = grid.edges[b + 1] - grid.edges[b];
        narrowest = b == 0 ? width : std::min(narrowest, width);
        widest = std::max(widest, width);
    }
    return narrowest == widest ? QString::number(widest)
                               : QStringLiteral("%1-%2").arg(narrowest).arg(widest);
}

} // namespace kvl
