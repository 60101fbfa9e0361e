#pragma once

#include <cstdint>
#include <vector>

namespace kvl {

// One training sequence: token ids and, per position, whether the model is trained
// to predict that token from the ones before it.
struct TrainSequence
{
    std::vector<int> ids;
    std::vector<uint8_t> supervised;

    void append(int id, bool supervise)
    {
        ids.push_back(id);
        supervised.push_back(supervise ? 1 : 0);
    }
};

// Small deterministic generator (splitmix64): the same seed gives the same data on
// every machine and library, which std:: distributions do not promise.
class TrainRng
{
public:
    explicit TrainRng(uint64_t seed) : m_state(seed) {}
    uint64_t next()
    {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform integer in [lo, hi].
    int range(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

private:
    uint64_t m_state;
};

} // namespace kvl
