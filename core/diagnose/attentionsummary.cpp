#include "diagnose/attentionsummary.h"

namespace kvl {

AttentionSummary::AttentionSummary(int layers_, int kvHeads_, int contextLen_)
    : layers(layers_), kvHeads(kvHeads_), contextLen(contextLen_),
      weights(std::size_t(layers_) * std::size_t(kvHeads_) * std::size_t(contextLen_), 0.0f)
{}

} // namespace kvl
