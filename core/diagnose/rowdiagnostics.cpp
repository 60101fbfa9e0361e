#include "diagnose/rowdiagnostics.h"

#include "diagnose/attentionmetrics.h"

#include <algorithm>

namespace kvl {

DiagnosticRow computeDiagnosticRow(const RowDiagnosticInputs& in)
{
    DiagnosticRow row;
    row.coverageType = in.coverageType;
    const Positions evidence = unionOfSpans(in.evidenceSpans);
    if (in.mask && isMappedCoverage(in.coverageType)) {
        row.errSlot = evidenceRetentionRate(*in.mask, evidence);
        row.ecovSlot = evidenceCoverage(*in.mask, in.evidenceSpans);
        row.drr = distractorRetentionRatio(*in.mask, evidence, in.distractors);
    }
    if (in.nllFull && in.nllCompressed) {
        row.deltaNll = deltaNll(*in.nllCompressed, *in.nllFull);
        row.gpr = goldProbabilityRatio(*row.deltaNll);
    }
    if (in.fullLogits && in.compressedLogits) {
        const std::size_t steps = std::min(in.fullLogits->size(), in.compressedLogits->size());
        double kl = 0.0, topK = 0.0, shift = 0.0;
        int topKSteps = 0, shiftSteps = 0;
        for (std::size_t i = 0; i < steps; ++i) {
            const auto& f = (*in.fullLogits)[i];
            const auto& c = (*in.compressedLogits)[i];
            kl += nextTokenKl(f, c);
            if (const std::optional<double> o = topKOverlap(f, c, in.topK)) {
                topK += *o;
                ++topKSteps;
            }
            if (i < in.goldTokens.size()) {
                shift += goldRankShift(f, c, in.goldTokens[i]);
                ++shiftSteps;
            }
        }
        if (steps > 0)
            row.kl = kl / double(steps);
        if (topKSteps > 0)
            row.topK = topK / topKSteps;
        if (shiftSteps > 0)
            row.goldRankShift = shift / shiftSteps;
    }
    if (in.fullAttention && in.compressedAttention)
        row.ear = evidenceAttentionRatio(*in.compressedAttention, *in.fullAttention, evidence);
    return row;
}

} // namespace kvl
