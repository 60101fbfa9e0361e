#pragma once

#include "model/answerdecoder.h"

#include <ATen/core/Tensor.h>
#include <vector>

namespace kvl {

// The gold answer's log-likelihood, ranks and distributions from the rows that predict
// it (logits [A, vocab], row i predicting answer[i]). Every gold pass ends here: the
// batched one of scoreAnswer and the token-by-token replay of a decode-time press
// (compressors/compresseddecoding.h), so their figures mean the same.
AnswerScore scoreFromLogits(const at::Tensor& logits, const std::vector<int>& answer,
                            const ScoreOptions& options);

} // namespace kvl
