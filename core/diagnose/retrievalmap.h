#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kvl {

// What offloaded decoding fetched (issue 19): for each forward after the context
// (step 0 = the question, then each generated token fed back) and each context
// position, the share of (layer, kv-head, query row) selections that included the
// position, quantised to a byte (round(255 * share)). Step-major so one step's row
// is contiguous, which is what the per-sample map draws.
struct RetrievalMap
{
    std::int64_t steps = 0;
    std::int64_t contextLength = 0;
    std::vector<std::uint8_t> shares; // [steps * contextLength]

    std::size_t index(std::int64_t step, std::int64_t position) const
    {
        return std::size_t(step) * std::size_t(contextLength) + std::size_t(position);
    }
    // The share in [0, 1] of selections at (step, position).
    double share(std::int64_t step, std::int64_t position) const
    {
        return double(shares[index(step, position)]) / 255.0;
    }
    // The stored byte for a share in [0, 1] (clamped).
    static std::uint8_t quantize(double share)
    {
        const double clamped = share < 0.0 ? 0.0 : (share > 1.0 ? 1.0 : share);
        return std::uint8_t(clamped * 255.0 + 0.5);
    }
    bool isConsistent() const
    {
        return steps >= 0 && contextLength >= 0 &&
               shares.size() == std::size_t(steps) * std::size_t(contextLength);
    }
    bool operator==(const RetrievalMap&) const = default;
};

} // namespace kvl
