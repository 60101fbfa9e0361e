#pragma once

#include "diagnose/attentionsummary.h"
#include "diagnose/diagnosticrow.h"
#include "diagnose/keptmask.h"
#include "diagnose/likelihoodmetrics.h"
#include "diagnose/retentionmetrics.h"

#include <optional>
#include <vector>

namespace kvl {

// What the engine knows about one row (a sample under one compressed configuration)
// and its FullCache twin. Pointers may be null and optionals empty: the metrics that
// need them stay null.
struct RowDiagnosticInputs
{
    CoverageType coverageType = CoverageType::NotApplicable;
    const KeptMask* mask = nullptr; // kept mask of the compressed run (eviction presses)
    std::vector<Positions> evidenceSpans;
    Positions distractors;
    std::optional<double> nllFull; // teacher-forced NLL of the gold answer
    std::optional<double> nllCompressed;
    // Next-token logits at each teacher-forced gold step, and the gold token of each.
    const std::vector<std::vector<float>>* fullLogits = nullptr;
    const std::vector<std::vector<float>>* compressedLogits = nullptr;
    std::vector<int> goldTokens;
    int topK = kDefaultTopK;
    // Question/answer attention summaries for EAR (a valid replay has both).
    const AttentionSummary* fullAttention = nullptr;
    const AttentionSummary* compressedAttention = nullptr;
};

// The KVDiagnosis row: ERR_slot, ECov_slot and DRR from the mask (only for measured
// or projected coverage: structural rows have them null by definition), delta_NLL
// and GPR from the NLLs, KL / TopK / gold_rank_shift as the mean over gold steps, EAR
// from the attention summaries over the union of the evidence spans.
DiagnosticRow computeDiagnosticRow(const RowDiagnosticInputs& in);

} // namespace kvl
