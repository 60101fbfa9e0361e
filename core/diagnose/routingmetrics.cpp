#include "diagnose/routingmetrics.h"

#include <numeric>

namespace kvl {

std::vector<double> globalEvictionRatePerLayer(const KeptMask& mask, const Positions& answerTokens)
{
    // unionOfSpans sorts and dedups; spanKeepRate validates the range.
    const Positions tokens = unionOfSpans({answerTokens});
    if (tokens.empty())
        return {};
    spanKeepRate(mask, tokens);
    std::vector<double> rates;
    for (int l = 0; l < mask.layers; ++l) {
        int evicted = 0;
        for (int t : tokens) {
            bool anyKeeps = false;
            for (int h = 0; h < mask.kvHeads && !anyKeeps; ++h)
                anyKeeps = mask.at(l, h, t);
            evicted += anyKeeps ? 0 : 1;
        }
        rates.push_back(double(evicted) / double(tokens.size()));
    }
    return rates;
}

std::optional<double> globalEvictionRate(const KeptMask& mask, const Positions& answerTokens)
{
    const std::vector<double> perLayer = globalEvictionRatePerLayer(mask, answerTokens);
    if (perLayer.empty())
        return std::nullopt;
    return std::accumulate(perLayer.begin(), perLayer.end(), 0.0) / double(perLayer.size());
}

} // namespace kvl
