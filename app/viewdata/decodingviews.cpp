#include "decodingviews.h"

#include "viewdatashared.h"

#include "meanpoint.h"
#include "store/decodingsteps.h"

#include <QCoreApplication>

namespace kvl {

RatioCurves decodingEvidenceCurves(const std::vector<DecodingConfigSteps>& configs)
{
    RatioCurves out;
    out.valueLabel = tr("Evidence kept (ERR), mean over rows");
    out.ratioLabel = tr("Compression while decoding (0 = the prefill's mask, k = after the k-th)");
    out.pointKeyName = tr("step");
    for (const DecodingConfigSteps& c : configs) {
        RatioCurve curve;
        curve.name = QStringLiteral("%1 @ %2").arg(c.compressor).arg(c.ratio);
        bool any = false;
        for (const auto& [step, values] : c.steps) {
            MeanCell cell;
            for (double e : values.evidence)
                cell.add(e);
            cell.binary = false; // a share per row, not a rate: mean ± 1.96 SE
            any = any || !values.evidence.empty();
            appendMeanPoint(curve, double(step), cell);
        }
        if (any)
            out.curves << curve;
    }
    if (!out.curves.isEmpty()) {
        out.reference = 1.0;
        out.referenceLabel = tr("FullCache (keeps every entry)");
        out.intervalNote = tr("intervals: mean ± 1.96 standard errors; n = the rows whose "
                              "answer reached the step");
    }
    return out;
}

RatioCurves loadDecodingEvidence(RunReader& reader)
{
    return decodingEvidenceCurves(decodingSteps(reader));
}

} // namespace kvl
