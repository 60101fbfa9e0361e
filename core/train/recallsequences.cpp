#include "train/recallsequences.h"

#include <algorithm>

namespace kvl {

RecallSequences::RecallSequences(std::vector<int> ids, int bosId, quint64 seed) : m_bosId(bosId)
{
    Rng rng(seed ^ 0x5EC0DEull);
    rng.shuffle(ids);
    const size_t half = ids.size() / 2;
    m_keys.assign(ids.begin(), ids.begin() + long(half));
    m_values.assign(ids.begin() + long(half), ids.end());
}

namespace {
// One of the first `pool` ids (all when pool is 0).
int fromPool(const std::vector<int>& ids, int pool, Rng& rng)
{
    const size_t n = pool > 0 ? std::min(ids.size(), size_t(pool)) : ids.size();
    return ids[size_t(rng.below(int(n)))];
}
} // namespace

TrainSequence RecallSequences::makeEcho(const RecallMix& mix, Rng& rng) const
{
    const int triples = rng.range(mix.minPairs, mix.maxPairs);
    TrainSequence seq;
    seq.append(m_bosId, false);
    for (int i = 0; i < triples; ++i) {
        const int key = fromPool(m_keys, mix.pool, rng);
        seq.append(key, false);
        seq.append(fromPool(m_values, mix.pool, rng), false);
        seq.append(key, true);
    }
    return seq;
}

TrainSequence RecallSequences::make(const RecallMix& mix, Rng& rng) const
{
    const int pairs = rng.range(mix.minPairs, mix.maxPairs);
    auto pool = [&](const std::vector<int>& ids) { return fromPool(ids, mix.pool, rng); };
    // Distinct keys: a repeated key with two values would make the target ambiguous.
    std::vector<int> keys;
    while (int(keys.size()) < pairs) {
        const int k = pool(m_keys);
        if (std::find(keys.begin(), keys.end(), k) == keys.end())
            keys.push_back(k);
    }
    std::vector<int> values(static_cast<size_t>(pairs));
    for (int& v : values)
        v = pool(m_values);

    TrainSequence seq;
    seq.append(m_bosId, false);
    auto filler = [&] {
        const int n = rng.range(mix.minFiller, mix.maxFiller);
        for (int i = 0; i < n; ++i)
            seq.append(pool(m_values), false);
    };
    if (mix.repeats <= 1) {
        for (int i = 0; i < pairs; ++i) {
            seq.append(keys[size_t(i)], false);
            seq.append(values[size_t(i)], false);
            filler();
        }
    } else {
        std::vector<int> listed;
        for (int r = 0; r < mix.repeats; ++r)
            for (int i = 0; i < pairs; ++i)
                listed.push_back(i);
        rng.shuffle(listed);
        for (int i : listed) {
            seq.append(keys[size_t(i)], false);
            seq.append(values[size_t(i)], false);
            filler();
        }
    }
    std::vector<int> order(static_cast<size_t>(pairs));
    for (int i = 0; i < pairs; ++i)
        order[size_t(i)] = i;
    rng.shuffle(order);
    for (int i : order) {
        seq.append(keys[size_t(i)], false);
        seq.append(values[size_t(i)], true);
    }
    return seq;
}

} // namespace kvl
