#pragma once

#include "tasks/rng.h"
#include "train/trainsequence.h"
#include "train/trainspec.h"

#include <vector>

namespace kvl {

// Dense associative recall sequences (TRAINING-NOTES.md, trial 3): the warm-up that
// gets a small model through the plateau before content-matching attention appears.
// Keys and values come from two disjoint id sets so that a value never looks like a
// key; every value after a repeated key is supervised.
class RecallSequences
{
  public:
    // `ordinary` ids are split into keys and values by a seeded shuffle; `digits` (the
    // single-digit tokens, if any) spell values when a mix asks for digit values.
    RecallSequences(std::vector<int> ordinary, int bosId, quint64 seed,
                    std::vector<int> digits = {});

    TrainSequence make(const RecallMix& mix, Rng& rng) const;
    // Echo triples "k v k" (as many as the mix's pairs, keys and values from the same
    // pools), the repeated key supervised: what a previous-token head solves alone.
    TrainSequence makeEcho(const RecallMix& mix, Rng& rng) const;

    const std::vector<int>& keys() const { return m_keys; }
    const std::vector<int>& values() const { return m_values; }

  private:
    using Tokens = std::vector<int>;
    int keyId(const RecallMix& mix, Rng& rng) const;
    std::vector<Tokens> drawKeys(const RecallMix& mix, int pairs, Rng& rng) const;
    Tokens drawValue(const RecallMix& mix, Rng& rng) const;

    std::vector<int> m_keys;
    std::vector<int> m_values;
    std::vector<int> m_digits;
    int m_bosId;
};

} // namespace kvl
