#pragma once

#include "run/suiteevaluation.h"

#include <QString>
#include <vector>

namespace kvl {

// `kvlens-cli eval --markdown`: the evaluations as a model card's table, one row per
// suite and one column per length bucket (every bucket any suite has, shortest first),
// each cell "score (n)" with two decimals, then the whole suite's score. Below it, each
// suite's variants (when it drew several) and other scorer fields (instruction rules,
// leakage, ...) as a bullet line, so the card's breakdowns come from the same run.
QString evaluationTableMarkdown(const std::vector<SuiteEvaluation>& evaluations);

// `kvlens-cli heads --markdown`: one row per layer, one column per kv-head, each cell
// "lift (share)": the share of the question's context attention on evidence and its
// ratio to the uniform share |E|/T; a line under it gives that uniform share.
// evidenceShare[layer][kvHead].
QString headLiftTableMarkdown(const std::vector<std::vector<double>>& evidenceShare,
                              double uniformShare, int samples);

} // namespace kvl
