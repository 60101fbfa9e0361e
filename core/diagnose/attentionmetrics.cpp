#include "diagnose/attentionmetrics.h"

#include "common/error.h"

#include <set>

namespace kvl {

std::optional<double> evidenceAttentionMass(const AttentionSummary& attention,
                                            const Positions& evidence)
{
    const Positions e = unionOfSpans({evidence});
    if (e.empty() || attention.layers == 0 || attention.kvHeads == 0)
        return std::nullopt;
    if (e.front() < 0 || e.back() >= attention.contextLen)
        throw Error(QStringLiteral("evidence position %1 lies outside the context of %2 tokens")
                        .arg(e.front() < 0 ? e.front() : e.back())
                        .arg(attention.contextLen));
    double sum = 0.0;
    for (int l = 0; l < attention.layers; ++l)
        for (int h = 0; h < attention.kvHeads; ++h)
            for (int t : e)
                sum += double(attention.at(l, h, t));
    return sum / double(attention.layers * attention.kvHeads);
}

std::optional<double> evidenceAttentionRatio(std::optional<double> compressedMass,
                                             std::optional<double> fullMass)
{
    if (!compressedMass || !fullMass || *fullMass <= 0.0)
        return std::nullopt;
    return *compressedMass / *fullMass;
}

std::optional<double> evidenceAttentionRatio(const AttentionSummary& compressed,
                                             const AttentionSummary& full,
                                             const Positions& evidence)
{
    return evidenceAttentionRatio(evidenceAttentionMass(compressed, evidence),
                                  evidenceAttentionMass(full, evidence));
}

std::vector<double> headConsensusPerLayer(const AttentionSummary& attention)
{
    std::vector<double> consensus;
    if (attention.kvHeads == 0 || attention.contextLen == 0)
        return consensus;
    for (int l = 0; l < attention.layers; ++l) {
        std::set<int> argmaxes;
        for (int h = 0; h < attention.kvHeads; ++h) {
            int best = 0;
            for (int t = 1; t < attention.contextLen; ++t)
                if (attention.at(l, h, t) > attention.at(l, h, best))
                    best = t;
            argmaxes.insert(best);
        }
        consensus.push_back(double(argmaxes.size()) / double(attention.kvHeads));
    }
    return consensus;
}

} // namespace kvl
