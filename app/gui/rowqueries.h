#pragma once

#include "resultrowsmodel.h"

namespace kvl {

// Drill-down queries behind the clickable views. Each opens its own RunReader,
// so they run on a worker thread; they throw kvl::Error naming the file.

// The C→W rows of one configuration with one failure signature (a taxonomy segment).
QVector<ResultRow> taxonomyRows(const QString& path, const QString& compressor, double ratio,
                                const QString& signature);

// The multihop C→W rows of one configuration whose written chain broke in one
// chain-break category (a segment of the chain-break view).
QVector<ResultRow> chainBreakRows(const QString& path, const QString& compressor, double ratio,
                                  const QString& category);

// The C→W rows of compressors a and b at one ratio, grouped "<a> only", "<b> only"
// and "both" (an overlap cell): a-only rows first, as "the rows SnapKV alone fails".
QVector<ResultRow> overlapRows(const QString& path, double ratio, const QString& a,
                               const QString& b);

// The C→W rows at one ratio of the samples that every compressor of `members` fails and
// no compressor of `others` does (an UpSet column), grouped by sample: the members' rows
// of the first sample, then of the next.
QVector<ResultRow> intersectionRows(const QString& path, double ratio, const QStringList& members,
                                    const QStringList& others);

} // namespace kvl
