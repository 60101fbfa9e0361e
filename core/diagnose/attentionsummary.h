#pragma once

#include <vector>

namespace kvl {

// Attention of the question (and answer) queries over the context, per layer and
// kv-head: the mean over queries and over the query heads of the kv-head's group.
// Enough to draw heatmaps and to compute EAR and head consensus without a replay.
// Evicted entries carry 0 in a compressed run.
struct AttentionSummary
{
    int layers = 0;
    int kvHeads = 0;
    int contextLen = 0;
    std::vector<float> weights; // index = (layer * kvHeads + head) * contextLen + t

    AttentionSummary() = default;
    AttentionSummary(int layers, int kvHeads, int contextLen);

    std::size_t index(int layer, int head, int t) const
    {
        return (std::size_t(layer) * std::size_t(kvHeads) + std::size_t(head)) *
                   std::size_t(contextLen) +
               std::size_t(t);
    }
    float at(int layer, int head, int t) const { return weights[index(layer, head, t)]; }
    float& at(int layer, int head, int t) { return weights[index(layer, head, t)]; }
    bool operator==(const AttentionSummary&) const = default;
};

} // namespace kvl
