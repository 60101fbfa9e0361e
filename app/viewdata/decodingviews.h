#pragma once

#include "views/ratiocurvesdata.h"

#include <vector>

namespace kvl {

class RunReader;
struct DecodingConfigSteps;

// The Decoding page's curve (issue 17): for every decode-time configuration (decoding,
// compression_ratio_decoding, prefill_decoding, cam) the mean evidence kept (ERR) after
// each compression while the answer is decoded, step 0 being the prefill mask, with n
// (the rows that reached the step and have evidence) and a 95% interval; FullCache keeps
// all of it (the reference at 1). Empty when the run has no such rows with evidence.
RatioCurves decodingEvidenceCurves(const std::vector<DecodingConfigSteps>& configs);
RatioCurves loadDecodingEvidence(RunReader& reader);

} // namespace kvl
