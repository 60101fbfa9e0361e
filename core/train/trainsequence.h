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

} // namespace kvl
