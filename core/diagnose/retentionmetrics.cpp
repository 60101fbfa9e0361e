#include "diagnose/retentionmetrics.h"

#include "common/error.h"

#include <algorithm>

namespace kvl {

namespace {
Positions uniqueChecked(const KeptMask& mask, Positions positions)
{
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    if (!positions.empty() && (positions.front() < 0 || positions.back() >= mask.contextLen))
        throw Error(QStringLiteral("position %1 lies outside the context of %2 tokens")
                        .arg(positions.front() < 0 ? positions.front() : positions.back())
                        .arg(mask.contextLen));
    return positions;
}

int keptInSlot(const KeptMask& mask, int layer, int head, const Positions& positions)
{
    int n = 0;
    for (int t : positions)
        n += mask.at(layer, head, t) ? 1 : 0;
    return n;
}
} // namespace

std::optional<double> evidenceRetentionRate(const KeptMask& mask, const Positions& evidence)
{
    const Positions e = uniqueChecked(mask, evidence);
    if (e.empty() || mask.slotCount() == 0)
        return std::nullopt;
    double sum = 0.0;
    for (int l = 0; l < mask.layers; ++l)
        for (int h = 0; h < mask.kvHeads; ++h)
            sum += double(keptInSlot(mask, l, h, e)) / double(e.size());
    return sum / double(mask.slotCount());
}

std::optional<double> evidenceCoverage(const KeptMask& mask, const std::vector<Positions>& spans)
{
    std::vector<Positions> cleaned;
    for (const Positions& span : spans) {
        Positions s = uniqueChecked(mask, span);
        if (!s.empty())
            cleaned.push_back(std::move(s));
    }
    if (cleaned.empty() || mask.slotCount() == 0)
        return std::nullopt;
    int covered = 0;
    for (int l = 0; l < mask.layers; ++l)
        for (int h = 0; h < mask.kvHeads; ++h)
            for (const Positions& s : cleaned)
                covered +=
                    double(keptInSlot(mask, l, h, s)) / double(s.size()) >= kCoverageSpanThreshold
                        ? 1
                        : 0;
    return double(covered) / double(std::size_t(mask.slotCount()) * cleaned.size());
}

std::optional<double> distractorRetentionRatio(std::optional<double> distractorRate,
                                               std::optional<double> evidenceRate)
{
    if (!distractorRate || !evidenceRate || *distractorRate + *evidenceRate <= 0.0)
        return std::nullopt;
    return *distractorRate / (*distractorRate + *evidenceRate);
}

std::optional<double> distractorRetentionRatio(const KeptMask& mask, const Positions& evidence,
                                               const Positions& distractors)
{
    return distractorRetentionRatio(evidenceRetentionRate(mask, distractors),
                                    evidenceRetentionRate(mask, evidence));
}

double tokenKeepRate(const KeptMask& mask, int t)
{
    uniqueChecked(mask, {t});
    if (mask.layers == 0 || mask.kvHeads == 0)
        return 0.0;
    double sum = 0.0;
    for (int l = 0; l < mask.layers; ++l) {
        int kept = 0;
        for (int h = 0; h < mask.kvHeads; ++h)
            kept += mask.at(l, h, t) ? 1 : 0;
        sum += double(kept) / double(mask.kvHeads);
    }
    return sum / double(mask.layers);
}

std::optional<double> spanKeepRate(const KeptMask& mask, const Positions& span)
{
    const Positions s = uniqueChecked(mask, span);
    if (s.empty())
        return std::nullopt;
    double sum = 0.0;
    for (int t : s)
        sum += tokenKeepRate(mask, t);
    return sum / double(s.size());
}

Positions unionOfSpans(const std::vector<Positions>& spans)
{
    Positions all;
    for (const Positions& s : spans)
        all.insert(all.end(), s.begin(), s.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

} // namespace kvl
