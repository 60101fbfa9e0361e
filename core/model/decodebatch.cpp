#include "model/decodebatch.h"

#include "common/error.h"

#include <torch/types.h>

#include <limits>

namespace kvl {

at::Tensor contextBiasOf(const CacheEdit& edit, int layer, int64_t kvHeads, int64_t tc)
{
    if (!edit.keptMask.defined() && !edit.logitBias.defined())
        return {};
    at::Tensor bias = edit.logitBias.defined() ? edit.logitBias[layer].to(at::kFloat)
                                               : at::zeros({kvHeads, tc}, at::kFloat);
    if (edit.keptMask.defined())
        bias = at::where(edit.keptMask[layer], bias,
                         at::full({}, -std::numeric_limits<float>::infinity(), at::kFloat));
    return bias.unsqueeze(1);
}

at::Tensor contextBiasesOf(const std::vector<const CacheEdit*>& edits, int layer, int64_t kvHeads,
                           int64_t tc)
{
    std::vector<at::Tensor> biases;
    bool any = false;
    for (const CacheEdit* edit : edits) {
        const at::Tensor bias = contextBiasOf(*edit, layer, kvHeads, tc);
        any = any || bias.defined();
        biases.push_back(bias.defined() ? bias : at::zeros({kvHeads, 1, tc}, at::kFloat));
    }
    return any ? at::stack(biases, 0) : at::Tensor();
}

DecodeBatch DecodeBatch::build(const ContextCache& context,
                               const std::vector<const CacheEdit*>& edits,
                               const std::vector<const Continuation*>& continuations,
                               int64_t extra)
{
    if (edits.size() != continuations.size() || edits.empty())
        throw Error(QStringLiteral("a decode batch needs one edit per continuation"));
    const int64_t b = int64_t(edits.size());
    const size_t layers = context.layers.size();
    DecodeBatch batch;
    int64_t longest = 0;
    for (const Continuation* c : continuations) {
        batch.lengths.push_back(c->length);
        longest = std::max(longest, c->length);
    }
    const int64_t capacity = longest + std::max<int64_t>(extra, 1);
    for (size_t l = 0; l < layers; ++l) {
        const at::Tensor& ctxK = context.layers[l].keys; // [kv, Tc, hd]
        const int64_t kv = ctxK.size(0), tc = ctxK.size(1), hd = ctxK.size(2);
        at::Tensor k = at::zeros({b, kv, capacity, hd}, ctxK.options());
        at::Tensor v = at::zeros({b, kv, capacity, hd}, ctxK.options());
        for (int64_t r = 0; r < b; ++r) {
            const Continuation& c = *continuations[size_t(r)];
            if (c.length > 0) {
                k[r].narrow(1, 0, c.length).copy_(c.keys[l]);
                v[r].narrow(1, 0, c.length).copy_(c.values[l]);
            }
        }
        batch.keys.push_back(k);
        batch.values.push_back(v);
        // [kv, B, 1, Tc]; undefined when every row sees the whole context (adding zeros
        // cost a pass over a step's scores per layer and changed no probability).
        const at::Tensor biases = contextBiasesOf(edits, int(l), kv, tc);
        batch.contextBias.push_back(biases.defined() ? biases.transpose(0, 1).contiguous()
                                                     : at::Tensor());
    }
    return batch;
}

void DecodeBatch::keepRows(const std::vector<int64_t>& rows)
{
    const at::Tensor index = at::tensor(rows, at::kLong);
    for (size_t l = 0; l < keys.size(); ++l) {
        keys[l] = keys[l].index_select(0, index);
        values[l] = values[l].index_select(0, index);
        if (contextBias[l].defined())
            contextBias[l] = contextBias[l].index_select(1, index);
    }
    std::vector<int64_t> kept;
    for (int64_t r : rows)
        kept.push_back(lengths[size_t(r)]);
    lengths = std::move(kept);
}

} // namespace kvl
