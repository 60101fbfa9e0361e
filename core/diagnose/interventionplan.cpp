#include "diagnose/interventionplan.h"

#include <algorithm>
#include <random>

namespace kvl {

Positions shamPositions(int contextLen, const Positions& evidence, quint64 seed)
{
    const Positions e = unionOfSpans({evidence});
    Positions candidates;
    for (int t = 0; t < contextLen; ++t)
        if (!std::binary_search(e.begin(), e.end(), t))
            candidates.push_back(t);
    const std::size_t n = std::min(e.size(), candidates.size());
    // Partial Fisher-Yates with mt19937_64, whose output is fixed by the standard
    // (std::uniform_int_distribution is not, so the index is drawn by hand).
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t span = candidates.size() - i;
        const std::size_t j = i + std::size_t(rng() % span);
        std::swap(candidates[i], candidates[j]);
    }
    candidates.resize(n);
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

} // namespace kvl
