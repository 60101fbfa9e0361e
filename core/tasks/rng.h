#pragma once

#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

namespace kvl {

// xoshiro256** seeded by splitmix64. The generators use it instead of std::
// distributions, whose output differs between standard libraries: the same seed must
// give the same samples on every platform.
class Rng
{
  public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t next();
    // Uniform in [0, n); n > 0. Rejection sampling keeps it unbiased.
    int below(int n);
    // Uniform in [lo, hi], inclusive.
    int range(int lo, int hi) { return lo + below(hi - lo + 1); }
    // True with probability p.
    bool chance(double p);

    template <typename T> const T& pick(const std::vector<T>& items)
    {
        return items[size_t(below(int(items.size())))];
    }
    template <typename T> void shuffle(std::vector<T>& items)
    {
        for (int i = int(items.size()) - 1; i > 0; --i)
            std::swap(items[size_t(i)], items[size_t(below(i + 1))]);
    }

    static std::uint64_t splitmix64(std::uint64_t& state);
    // A stable 64-bit hash of a string (FNV-1a over UTF-16), for deriving seeds from
    // names; qHash is salted per process and would break determinism.
    static std::uint64_t hashString(const QString& text);
    // Mixes a seed with an index into an independent seed (sample i of a run).
    static std::uint64_t derive(std::uint64_t seed, std::uint64_t index);

  private:
    std::uint64_t m_s[4];
};

} // namespace kvl
