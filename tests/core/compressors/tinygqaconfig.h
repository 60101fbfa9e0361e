#pragma once

#include "checkpoint/modelconfig.h"

namespace kvl::test {

// The random GQA model the press tests build (2 layers, 4 query heads over 2 kv-heads,
// head dimension 8): small enough to run every rule on a real prefill in milliseconds.
inline ModelConfig tinyGqaConfig()
{
    ModelConfig c;
    c.vocabSize = 50;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.maxPositionEmbeddings = 1024;
    c.ropeTheta = 10000.0;
    return c;
}

} // namespace kvl::test
