#pragma once

#include <QString>

namespace kvl {

// One part of a sweep split over machines: shard K of N (1-based, as `--shard K/N`)
// runs the samples whose index in the spec's order is K-1 modulo N, so the shards
// are disjoint, cover every sample, and do not depend on what any shard has done.
struct Shard
{
    int index = 1;
    int count = 1;

    // "K/N" with 1 <= K <= N; throws kvl::Error quoting the text otherwise.
    static Shard parse(const QString& text);
    bool contains(int sampleIndex) const { return sampleIndex % count == index - 1; }
    bool isWhole() const { return count == 1; }
    QString toString() const { return QStringLiteral("%1/%2").arg(index).arg(count); }
};

} // namespace kvl
