#pragma once

#include "diagnose/retrievalmap.h"
#include "model/answerdecoder.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <vector>

namespace kvl {

class OffloadIndex;
class Transformer;

// Greedy decoding under offloading, and what each forward retrieved.
struct OffloadedDecoding
{
    Generation generation;
    // float [steps, T]: for every forward after the context (step 0 = the question, then
    // each generated token fed back) and every context position, the share of (layer,
    // kv-head, query row) selections that included the position. Exact; the RetrievalMap
    // stores it quantised.
    at::Tensor selectedShare;
    std::vector<int64_t> rows; // query rows of each forward (the question's tokens, then 1)
    double pressSeconds = 0.0; // time spent in index.select (landmark scoring, top-k)

    int64_t steps() const { return int64_t(rows.size()); }
    // selectedShare quantised to bytes (RetrievalMap::quantize).
    RetrievalMap retrievalMap() const;
};

// Greedy decoding after the question (as generateAnswer) where every forward after the
// context attends, in each layer, only to the context entries index.select retrieves for
// its queries (each question row for itself), over index.context() (the context as the
// method stores it). Ends as generateAnswer does (greedyStep). When `stepLogits` is given,
// the next-token logits [vocab] of every forward are appended to it (tests).
OffloadedDecoding generateOffloaded(const Transformer& model, const OffloadIndex& index,
                                    const std::vector<int>& question,
                                    const GenerateOptions& options,
                                    std::vector<at::Tensor>* stepLogits = nullptr);

} // namespace kvl
