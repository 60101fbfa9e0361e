#pragma once

#include "checkpoint/modelconfig.h"
#include "model/contextcache.h"
#include "model/modelweights.h"
#include "model/rope.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <memory>
#include <vector>

namespace kvl {

class CheckpointDir;
struct DecodeBatch;

// A decoder-only transformer of the Llama family (Llama, Mistral, Qwen2, Qwen3):
// RMSNorm, RoPE, GQA attention, SwiGLU. All math is plain differentiable torch ops on
// float32 [B, T, hidden] tensors (projections through kvl::linear, which widens 16-bit
// weights); inference callers wrap calls in c10::InferenceMode.
class Transformer
{
  public:
    // `source` names the model in errors (the config.json path, or "random-0.5b").
    Transformer(ModelConfig config, ModelWeights weights, QString source);
    ~Transformer();
    // Opens a Hugging Face directory; the memory map stays open as long as the model.
    // F16/BF16 matrices stay 16-bit over it (WeightLoadOptions::resident); products run
    // in `compute` (float32, or BF16/F16 where the machine can: kvl::Error otherwise).
    static std::unique_ptr<Transformer> load(const QString& dir,
                                             at::ScalarType compute = at::kFloat);

    const ModelConfig& config() const { return m_config; }
    const QString& source() const { return m_source; }
    ModelWeights& weights() { return m_weights; }
    const ModelWeights& weights() const { return m_weights; }
    const Rope& rope() const { return m_rope; }
    // The directory the weights came from (null for in-memory models).
    const CheckpointDir* checkpoint() const { return m_checkpoint.get(); }

    // Logits for every position: ids int64 [T] -> [T, vocab], [B, T] -> [B, T, vocab].
    at::Tensor forward(const at::Tensor& ids) const;
    at::Tensor forward(const std::vector<int>& ids) const;
    // What forward() feeds the final norm and LM head: [B, T] -> [B, T, hidden]. The
    // trainer applies logits() to the supervised positions only (the LM head is a third
    // of a small model's FLOPs).
    at::Tensor finalHidden(const at::Tensor& ids) const;
    // Final norm and LM head: [..., hidden] -> [..., vocab].
    at::Tensor logits(const at::Tensor& hidden) const;

    // Runs the context once under the full cache and keeps what the analysis needs.
    ContextCache prefill(const std::vector<int>& ids, const PrefillOptions& options = {}) const;

    // Processes `ids` after the context and the continuation so far, at positions
    // context.length + continuation.length + i, seeing the context through `edit`;
    // appends their K/V to `continuation`.
    ExtendResult extend(const ContextCache& context, const CacheEdit& edit,
                        Continuation& continuation, const std::vector<int>& ids,
                        const ExtendOptions& options = {}) const;

    // extend() of the same `ids` right after the context (empty continuations) for
    // several edits at once, one batched pass (the sweep's gold passes): result and
    // continuation b are what extend(context, *edits[b], ...) gives.
    std::vector<ExtendResult> extendEach(const ContextCache& context,
                                         const std::vector<const CacheEdit*>& edits,
                                         std::vector<Continuation>& continuations,
                                         const std::vector<int>& ids,
                                         const ExtendOptions& options = {}) const;

    // One greedy-decoding step of every row of `batch` in lockstep: feeds tokens[b] to
    // row b at position context.length + batch.lengths[b], appends its K/V to the row and
    // returns the next-token logits [B, vocab]. Same math as extend() with one token.
    at::Tensor decodeStep(const ContextCache& context, DecodeBatch& batch,
                          const std::vector<int>& tokens) const;

    // Pre-RoPE query states of layer `layer` for attention inputs h [n, hidden] (after
    // the input RMSNorm): q projection with its bias, then q-norm where the family has
    // one: [n, heads, head_dim]. What prefill computes for the same rows.
    static at::Tensor projectQueries(const ModelConfig& config, const LayerWeights& weights,
                                     const at::Tensor& h);

    // Throws kvl::Error naming config.json when `positions` tokens exceed what the
    // model allows (max_position_embeddings, Mistral's sliding_window).
    void checkLength(int64_t positions, const QString& what = QStringLiteral("context")) const;
    int64_t maxPositions() const;

    // The attention's tile: query rows and keys per block (blockAttention).
    int64_t blockRows() const { return m_blockRows; }
    void setBlockRows(int64_t rows) { m_blockRows = rows; }
    int64_t blockKeys() const { return m_blockKeys; }
    void setBlockKeys(int64_t keys) { m_blockKeys = keys; }

  private:
    struct LayerIo;
    at::Tensor embed(const at::Tensor& ids) const;
    at::Tensor layer(int index, const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin,
                     LayerIo& io) const;
    // The per-row context bias [kv, rows, Tc] of a selector's answer `selected` (0 where
    // true, -inf elsewhere) plus the edit's bias [kv, 1, Tc]; throws kvl::Error naming the
    // model when `selected` is not bool [kv, rows, Tc].
    at::Tensor selectedContextBias(int layer, const at::Tensor& selected,
                                   const at::Tensor& editBias, int64_t rows,
                                   int64_t contextLength) const;
    // What extend() and extendEach() check first: `tokens` to feed, the cache's layers,
    // `positions` within the model's limit, and every edit's shape.
    void checkExtension(const ContextCache& context, const std::vector<const CacheEdit*>& edits,
                        int64_t tokens, int64_t positions) const;

    ModelConfig m_config;
    ModelWeights m_weights;
    QString m_source;
    Rope m_rope;
    int64_t m_blockRows = 512;
    int64_t m_blockKeys = 2048;
    std::unique_ptr<CheckpointDir> m_checkpoint; // owns the memory map of loaded weights
};

} // namespace kvl
