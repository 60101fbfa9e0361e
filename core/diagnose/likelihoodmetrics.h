#pragma once

#include <optional>
#include <vector>

namespace kvl {

// Likelihood metrics of KVDiagnosis (SCIENCE.md §1), comparing a compressed run
// with FullCache on the same teacher-forced gold answer. Logits are one decoding
// step's next-token scores over the vocabulary; a caller with several steps averages
// the per-step values. Mismatched vocabulary sizes throw kvl::Error.

// ΔNLL = NLL_compressed(gold) − NLL_full(gold) (positive: the gold got less likely).
double deltaNll(double nllCompressed, double nllFull);
// GPR = p_comp / p_full = exp(−ΔNLL).
double goldProbabilityRatio(double deltaNll);

// log softmax, computed stably (max subtracted).
std::vector<double> logSoftmax(const std::vector<float>& logits);

// KL(P_full ‖ P_comp) = Σ_v p_full(v) (log p_full(v) − log p_comp(v)), in nats.
double nextTokenKl(const std::vector<float>& fullLogits, const std::vector<float>& compLogits);

// |top-k(full) ∩ top-k(comp)| / k. Ties are broken by the lower token id; k is
// clamped to the vocabulary size; nullopt for k ≤ 0 or an empty vocabulary.
std::optional<double> topKOverlap(const std::vector<float>& fullLogits,
                                  const std::vector<float>& compLogits, int k);
inline constexpr int kDefaultTopK = 10;

// Rank of the gold token: the number of tokens scored strictly higher (0 = top).
int goldRank(const std::vector<float>& logits, int goldToken);
// rank_comp − rank_full (positive: the gold fell in the ranking).
int goldRankShift(const std::vector<float>& fullLogits, const std::vector<float>& compLogits,
                  int goldToken);

} // namespace kvl
