#include "store/runcomparison.h"

#include "store/runreader.h"

#include <cmath>
#include <map>
#include <tuple>

namespace kvl {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Configurations are told apart by compressor and ratio; ratios from two files are
// compared after rounding (0.75 written by two runs may differ in the last bit).
using ConfigId = std::pair<QString, qint64>;

ConfigId configId(const QString& compressor, double ratio)
{
    return {compressor, std::llround(ratio * 1e9)};
}

} // namespace

double AccuracyDelta::accuracyA() const
{
    return n > 0 ? double(correctA) / double(n) : kNaN;
}

double AccuracyDelta::accuracyB() const
{
    return n > 0 ? double(correctB) / double(n) : kNaN;
}

double AccuracyDelta::delta() const
{
    return n > 0 ? accuracyB() - accuracyA() : kNaN;
}

std::vector<AccuracyDelta> accuracyDeltas(const std::vector<StoredResult>& a,
                                          const std::vector<StoredResult>& b,
                                          const SampleMatching& matching)
{
    std::map<QString, QString> keyInB;
    for (const SamplePair& p : matching.matched)
        keyInB.emplace(p.keyA, p.keyB);
    std::map<ConfigId, AccuracyDelta> cells;
    std::map<ConfigId, double> ratios;
    // (config, sample key of B) -> correct in B
    std::map<std::pair<ConfigId, QString>, bool> correctB;
    for (const StoredResult& r : b) {
        const ConfigId id = configId(r.compressor, r.ratio);
        AccuracyDelta& d = cells[id];
        d.compressor = r.compressor;
        d.ratio = r.ratio;
        d.inB = true;
        correctB[{id, r.sampleKey}] = r.record.correct;
    }
    for (const StoredResult& r : a) {
        const ConfigId id = configId(r.compressor, r.ratio);
        AccuracyDelta& d = cells[id];
        if (!d.inB) {
            d.compressor = r.compressor;
            d.ratio = r.ratio;
        }
        d.inA = true;
        const auto keyB = keyInB.find(r.sampleKey);
        if (keyB == keyInB.end())
            continue;
        const auto other = correctB.find({id, keyB->second});
        if (other == correctB.end())
            continue;
        ++d.n;
        d.correctA += r.record.correct ? 1 : 0;
        d.correctB += other->second ? 1 : 0;
        d.onlyACorrect += r.record.correct && !other->second ? 1 : 0;
        d.onlyBCorrect += !r.record.correct && other->second ? 1 : 0;
    }
    std::vector<AccuracyDelta> out;
    for (auto& [id, d] : cells)
        if (d.compressor == kFullCacheCompressor)
            out.push_back(d);
    for (auto& [id, d] : cells)
        if (d.compressor != kFullCacheCompressor)
            out.push_back(d);
    return out;
}

RunComparison compareRuns(const QString& pathA, const QString& pathB)
{
    RunComparison c;
    c.pathA = pathA;
    c.pathB = pathB;
    RunReader a(pathA);
    RunReader b(pathB);
    c.infoA = a.runInfo();
    c.infoB = b.runInfo();
    c.matching = matchSamples(a.samples(), b.samples());
    c.deltas = accuracyDeltas(a.results(), b.results(), c.matching);
    return c;
}

} // namespace kvl
