#include "train/recallsequences.h"

#include "common/error.h"

#include <algorithm>
#include <cmath>

namespace kvl {

RecallSequences::RecallSequences(std::vector<int> ids, int bosId, quint64 seed,
                                 std::vector<int> digits)
    : m_digits(std::move(digits)), m_bosId(bosId)
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

int RecallSequences::keyId(const RecallMix& mix, Rng& rng) const
{
    // With digit values a key is never a digit: the query would be ambiguous.
    int k = fromPool(m_keys, mix.pool, rng);
    while (mix.digitValues && std::find(m_digits.begin(), m_digits.end(), k) != m_digits.end())
        k = fromPool(m_keys, mix.pool, rng);
    return k;
}

std::vector<RecallSequences::Tokens> RecallSequences::drawKeys(const RecallMix& mix, int pairs,
                                                               Rng& rng) const
{
    // Distinct keys: a repeated key with two values would make the target ambiguous.
    std::vector<Tokens> keys;
    const int keyTokens =
        mix.maxKeyTokens > 1 ? rng.range(mix.minKeyTokens, mix.maxKeyTokens) : 1;
    if (keyTokens == 1) {
        while (int(keys.size()) < pairs) {
            const Tokens k{keyId(mix, rng)};
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
        }
        return keys;
    }
    // Look-alike keys: position j of every key is one of `choices` tokens, with
    // choices^keyTokens >= 2 * pairs so that the keys are distinct but share parts.
    int choices = 2;
    while (std::pow(double(choices), keyTokens) < 2.0 * pairs)
        ++choices;
    const size_t available =
        mix.pool > 0 ? std::min(m_keys.size(), size_t(mix.pool)) : m_keys.size();
    if (size_t(choices * keyTokens) > available)
        throw Error(QStringLiteral("recall.key_tokens"),
                    QStringLiteral("the key pool has %1 ids; %2-token look-alike keys for %3 "
                                   "pairs need %4")
                        .arg(available)
                        .arg(keyTokens)
                        .arg(pairs)
                        .arg(choices * keyTokens));
    Tokens used;
    std::vector<Tokens> parts(static_cast<size_t>(keyTokens));
    for (Tokens& part : parts)
        while (int(part.size()) < choices) {
            const int t = keyId(mix, rng);
            if (std::find(used.begin(), used.end(), t) == used.end()) {
                used.push_back(t);
                part.push_back(t);
            }
        }
    while (int(keys.size()) < pairs) {
        Tokens k;
        for (const Tokens& part : parts)
            k.push_back(part[size_t(rng.below(choices))]);
        if (std::find(keys.begin(), keys.end(), k) == keys.end())
            keys.push_back(k);
    }
    return keys;
}

RecallSequences::Tokens RecallSequences::drawValue(const RecallMix& mix, Rng& rng) const
{
    const int n =
        mix.maxValueTokens > 1 ? rng.range(mix.minValueTokens, mix.maxValueTokens) : 1;
    Tokens value;
    for (int i = 0; i < n; ++i)
        value.push_back(mix.digitValues ? m_digits[size_t(rng.below(int(m_digits.size())))]
                                        : fromPool(m_values, mix.pool, rng));
    return value;
}

TrainSequence RecallSequences::make(const RecallMix& mix, Rng& rng) const
{
    if (mix.digitValues && m_digits.empty())
        throw Error(QStringLiteral("recall.digit_values"),
                    QStringLiteral("the tokenizer has no single-digit tokens"));
    const int pairs = rng.range(mix.minPairs, mix.maxPairs);
    const std::vector<Tokens> keys = drawKeys(mix, pairs, rng);
    std::vector<Tokens> values;
    for (int i = 0; i < pairs; ++i)
        values.push_back(drawValue(mix, rng));
    // Gap runs from the value set (never a key, so the key stays unambiguous).
    Tokens listedGap, askedGap;
    if (mix.maxGapTokens > 0)
        for (Tokens* gap : {&listedGap, &askedGap}) {
            const int n = rng.range(mix.minGapTokens, mix.maxGapTokens);
            for (int i = 0; i < n; ++i)
                gap->push_back(fromPool(m_values, mix.pool, rng));
        }

    TrainSequence seq;
    seq.append(m_bosId, false);
    auto append = [&](const Tokens& tokens, bool supervise) {
        for (int t : tokens)
            seq.append(t, supervise);
    };
    auto filler = [&] {
        const int n = rng.range(mix.minFiller, mix.maxFiller);
        for (int i = 0; i < n; ++i)
            seq.append(fromPool(m_values, mix.pool, rng), false);
    };
    std::vector<int> listed;
    for (int r = 0; r < mix.repeats; ++r)
        for (int i = 0; i < pairs; ++i)
            listed.push_back(i);
    if (mix.repeats > 1)
        rng.shuffle(listed);
    for (int i : listed) {
        append(keys[size_t(i)], false);
        append(listedGap, false);
        append(values[size_t(i)], false);
        filler();
    }
    std::vector<int> order(static_cast<size_t>(pairs));
    for (int i = 0; i < pairs; ++i)
        order[size_t(i)] = i;
    rng.shuffle(order);
    for (int i : order) {
        append(keys[size_t(i)], false);
        append(askedGap, false);
        append(values[size_t(i)], true);
    }
    return seq;
}

} // namespace kvl
