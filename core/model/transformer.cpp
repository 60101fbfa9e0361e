#include "model/transformer.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "model/attention.h"
#include "model/decodebatch.h"
#include "model/engineinfo.h"
#include "model/linear.h"

#include <torch/types.h>

#include <QDir>
#include <cmath>
#include <limits>

namespace kvl {

// What one layer call reads besides its input, and what it hands back.
struct Transformer::LayerIo
{
    at::Tensor pastK, pastV;        // [kv, P, hd] continuation before the new tokens
    at::Tensor ctxK, ctxV, ctxBias; // context segment (extend)
    bool captureContext = false;
    std::vector<int64_t> captureRows; // prefill rows whose attention is kept
    bool accumulateReceived = false;  // the attention each key receives (prefill)
    int64_t window = 0;               // last query rows kept (prefill)
    bool keep = false;                // hand back K/V (prefill, extend)
    bool keepInput = false;           // hand back the normed input (prefill)
    // ExtendOptions::contextSelector (extend), or null.
    const std::function<at::Tensor(int, const at::Tensor&)>* selector = nullptr;

    at::Tensor selfK, selfV, keysPreRope; // [B, kv, P + T, hd], pre-RoPE [B, kv, T, hd]
    at::Tensor windowQ, windowQPreRope;   // [heads, W, hd]
    at::Tensor ctxAttention, rowAttention;
    at::Tensor received; // [B, kv, P + T], summed over queries, mean over the group
    at::Tensor input;    // [B, T, hidden] after the input RMSNorm (keepInput)
};

namespace {

at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& weight, double eps)
{
    return weight * (x * at::rsqrt(x.pow(2).mean(-1, true) + eps));
}

// Last `window` rows of [1, T, heads, hd] as [heads, W, hd].
at::Tensor lastRows(const at::Tensor& q, int64_t window)
{
    const int64_t t = q.size(1);
    const int64_t w = std::min(window, t);
    return q.select(0, 0).narrow(0, t - w, w).permute({1, 0, 2}).contiguous();
}

} // namespace

Transformer::Transformer(ModelConfig config, ModelWeights weights, QString source)
    : m_config(std::move(config)), m_weights(std::move(weights)), m_source(std::move(source)),
      m_rope(m_config)
{
    initEngineThreads();
}

Transformer::~Transformer() = default;

std::unique_ptr<Transformer> Transformer::load(const QString& dir, at::ScalarType compute)
{
    std::unique_ptr<CheckpointDir> checkpoint = CheckpointDir::open(dir);
    ModelWeights weights = loadModelWeights(*checkpoint, {true, compute});
    auto model = std::make_unique<Transformer>(checkpoint->config(), std::move(weights),
                                               QDir(dir).filePath(QStringLiteral("config.json")));
    model->m_checkpoint = std::move(checkpoint);
    return model;
}

int64_t Transformer::maxPositions() const
{
    int64_t limit = m_config.maxPositionEmbeddings > 0 ? m_config.maxPositionEmbeddings
                                                       : std::numeric_limits<int64_t>::max();
    if (m_config.architecture == Architecture::Mistral && m_config.slidingWindow)
        limit = std::min<int64_t>(limit, *m_config.slidingWindow);
    return limit;
}

void Transformer::checkLength(int64_t positions, const QString& what) const
{
    if (m_config.maxPositionEmbeddings > 0 && positions > m_config.maxPositionEmbeddings)
        throw Error(m_source, QStringLiteral("%1 needs %2 positions but max_position_embeddings "
                                             "is %3")
                                  .arg(what)
                                  .arg(positions)
                                  .arg(m_config.maxPositionEmbeddings));
    if (positions > maxPositions())
        throw Error(m_source, QStringLiteral("%1 needs %2 positions but sliding_window is %3 "
                                             "(attention beyond the window is not modelled)")
                                  .arg(what)
                                  .arg(positions)
                                  .arg(maxPositions()));
}

at::Tensor Transformer::embed(const at::Tensor& ids) const
{
    const at::Tensor flat = ids.to(at::kLong);
    const int64_t vocab = m_weights.embed.size(0);
    if (flat.numel() > 0 && (flat.min().item<int64_t>() < 0 || flat.max().item<int64_t>() >= vocab))
        throw Error(m_source,
                    QStringLiteral("a token id is outside the vocabulary (size %1)").arg(vocab));
    return embeddingRows(m_weights.embed, flat);
}

at::Tensor Transformer::logits(const at::Tensor& hidden) const
{
    return linear(rmsNorm(hidden, m_weights.norm, m_config.rmsNormEps), m_weights.lmHead, {},
                  m_weights.compute);
}

namespace {

// One projection of attention inputs h [..., hidden] split into heads: [..., heads,
// head_dim], with the per-head RMSNorm when `norm` is given (Qwen3's q/k-norm).
at::Tensor projectHeads(const ModelConfig& config, const at::Tensor& h, const at::Tensor& weight,
                        const at::Tensor& bias, at::ScalarType compute, int64_t heads,
                        const at::Tensor& norm = {})
{
    std::vector<int64_t> shape = h.sizes().vec();
    shape.back() = heads;
    shape.push_back(config.headDim);
    const at::Tensor out = linear(h, weight, bias, compute).view(shape);
    return norm.defined() ? rmsNorm(out, norm, config.rmsNormEps) : out;
}

// Pre-RoPE keys and values of attention inputs h [..., hidden]: [..., kv_heads, head_dim]
// each, k-norm applied where the family has one.
std::pair<at::Tensor, at::Tensor> projectKeysValues(const ModelConfig& config,
                                                    const LayerWeights& w, const at::Tensor& h)
{
    return {projectHeads(config, h, w.k, w.kBias, w.compute, config.numKvHeads,
                         config.qkNorm ? w.kNorm : at::Tensor()),
            projectHeads(config, h, w.v, w.vBias, w.compute, config.numKvHeads)};
}

} // namespace

at::Tensor Transformer::projectQueries(const ModelConfig& config, const LayerWeights& w,
                                       const at::Tensor& h)
{
    return projectHeads(config, h, w.q, w.qBias, w.compute, config.numHeads,
                        config.qkNorm ? w.qNorm : at::Tensor());
}

namespace {

// The SwiGLU MLP of normed rows h2, added to the residual rows x1.
at::Tensor mlp(const LayerWeights& w, const at::Tensor& h2)
{
    at::Tensor gate = linear(h2, w.gate, {}, w.compute);
    const at::Tensor up = linear(h2, w.up, {}, w.compute);
    // In place where autograd needs nothing back: one [rows, intermediate] buffer less.
    const at::Tensor gated =
        at::GradMode::is_enabled() ? at::silu(gate) * up : at::silu_(gate).mul_(up);
    return linear(gated, w.down, {}, w.compute);
}

// Rows of the MLP at a time in inference: its [rows, intermediate] activations are the
// largest temporaries of a long prefill (three of 320 MiB at 16k tokens on the 0.5B
// shape); in blocks they stay a few tens of MiB, reused from block to block.
constexpr int64_t kMlpBlockRows = 2048;

// The rest of a layer once attention is done: the output projection into the residual
// stream, then the SwiGLU MLP.
at::Tensor outputAndMlp(const ModelConfig& config, const LayerWeights& w, const at::Tensor& x,
                        const at::Tensor& attention)
{
    const at::Tensor x1 = x + linear(attention, w.o, {}, w.compute);
    const int64_t hidden = x1.size(-1);
    const int64_t rows = x1.numel() / std::max<int64_t>(1, hidden);
    if (at::GradMode::is_enabled() || rows <= kMlpBlockRows)
        return x1 + mlp(w, rmsNorm(x1, w.postAttentionNorm, config.rmsNormEps));
    const at::Tensor flat = x1.reshape({rows, hidden});
    at::Tensor out = at::empty_like(flat);
    for (int64_t r0 = 0; r0 < rows; r0 += kMlpBlockRows) {
        const int64_t n = std::min(kMlpBlockRows, rows - r0);
        const at::Tensor block = flat.narrow(0, r0, n);
        at::Tensor rowsOut = out.narrow(0, r0, n);
        at::add_out(rowsOut, block, mlp(w, rmsNorm(block, w.postAttentionNorm, config.rmsNormEps)));
    }
    return out.view(x1.sizes());
}

} // namespace

at::Tensor Transformer::selectedContextBias(int layer, const at::Tensor& selected,
                                            const at::Tensor& editBias, int64_t rows,
                                            int64_t contextLength) const
{
    const int64_t kvHeads = m_config.numKvHeads;
    if (!selected.defined() || selected.scalar_type() != at::kBool || selected.dim() != 3 ||
        selected.size(0) != kvHeads || selected.size(1) != rows ||
        selected.size(2) != contextLength)
        throw Error(m_source, QStringLiteral("the context selector of layer %1 must return bool "
                                             "[%2, %3, %4] (kv-heads, query rows, context)")
                                  .arg(layer)
                                  .arg(kvHeads)
                                  .arg(rows)
                                  .arg(contextLength));
    at::Tensor bias =
        at::zeros({kvHeads, rows, contextLength}, at::kFloat)
            .masked_fill_(selected.logical_not(), -std::numeric_limits<float>::infinity());
    return editBias.defined() ? bias.add_(editBias) : bias; // edit: [kv, 1, Tc]
}

at::Tensor Transformer::layer(int index, const at::Tensor& x, const at::Tensor& cos,
                              const at::Tensor& sin, LayerIo& io) const
{
    const LayerWeights& w = m_weights.layers[size_t(index)];
    const int64_t batch = x.size(0);
    const int64_t t = x.size(1);
    const int64_t heads = m_config.numHeads;
    const int64_t kvHeads = m_config.numKvHeads;
    const int64_t hd = m_config.headDim;
    const double eps = m_config.rmsNormEps;

    const at::Tensor h = rmsNorm(x, w.inputNorm, eps);
    if (io.keepInput)
        io.input = h;
    const at::Tensor q = projectQueries(m_config, w, h);
    const auto [k, v] = projectKeysValues(m_config, w, h);
    const at::Tensor qr = Rope::apply(q, cos, sin);
    const at::Tensor kr = Rope::apply(k, cos, sin);
    if (io.window > 0) {
        io.windowQ = lastRows(qr, io.window);
        io.windowQPreRope = lastRows(q, io.window);
    }

    AttentionInputs in;
    in.q = (qr * (1.0 / std::sqrt(double(hd))))
               .view({batch, t, kvHeads, heads / kvHeads, hd})
               .permute({0, 2, 3, 1, 4});
    at::Tensor selfK = kr.permute({0, 2, 1, 3}).contiguous();
    at::Tensor selfV = v.permute({0, 2, 1, 3}).contiguous();
    if (io.keep)
        io.keysPreRope = k.permute({0, 2, 1, 3}).contiguous();
    if (io.pastK.defined() && io.pastK.size(1) > 0) {
        selfK = at::cat({io.pastK.unsqueeze(0), selfK}, 2);
        selfV = at::cat({io.pastV.unsqueeze(0), selfV}, 2);
    }
    in.selfK = selfK;
    in.selfV = selfV;
    in.ctxK = io.ctxK;
    in.ctxV = io.ctxV;
    in.ctxBias = io.ctxBias;
    if (io.selector != nullptr)
        in.ctxBias =
            selectedContextBias(index, (*io.selector)(index, qr.select(0, 0).transpose(0, 1)),
                                io.ctxBias, t, io.ctxK.size(1));
    in.blockRows = m_blockRows;
    in.blockKeys = m_blockKeys;
    in.captureContext = io.captureContext;
    in.captureRows = io.captureRows;
    in.accumulateReceived = io.accumulateReceived;
    AttentionOutput attn = blockAttention(in);
    if (io.keep) {
        io.selfK = selfK;
        io.selfV = selfV;
    }
    io.ctxAttention = attn.ctxAttention;
    io.rowAttention = attn.rowAttention;
    io.received = attn.received;

    return outputAndMlp(m_config, w, x, attn.out);
}

at::Tensor Transformer::forward(const std::vector<int>& ids) const
{
    return forward(at::tensor(std::vector<int64_t>(ids.begin(), ids.end()), at::kLong));
}

at::Tensor Transformer::forward(const at::Tensor& ids) const
{
    const bool single = ids.dim() == 1;
    const at::Tensor out = logits(finalHidden(single ? ids.unsqueeze(0) : ids));
    return single ? out.squeeze(0) : out;
}

at::Tensor Transformer::finalHidden(const at::Tensor& ids) const
{
    const int64_t t = ids.size(1);
    checkLength(t, QStringLiteral("the input"));
    auto [cos, sin] = m_rope.cosSin(at::arange(t, at::kLong));
    at::Tensor x = embed(ids);
    for (int i = 0; i < m_config.numLayers; ++i) {
        LayerIo io;
        x = layer(i, x, cos, sin, io);
    }
    return x;
}

ContextCache Transformer::prefill(const std::vector<int>& ids, const PrefillOptions& options) const
{
    const int64_t t = int64_t(ids.size());
    if (t == 0)
        throw Error(m_source, QStringLiteral("the context is empty"));
    checkLength(t, QStringLiteral("the context"));
    std::vector<int64_t> rows = options.attentionRows;
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    if (!rows.empty() && (rows.front() < 0 || rows.back() >= t))
        throw Error(m_source,
                    QStringLiteral("attention row outside the context of %1 tokens").arg(t));

    const at::Tensor idTensor =
        at::tensor(std::vector<int64_t>(ids.begin(), ids.end()), at::kLong).unsqueeze(0);
    auto [cos, sin] = m_rope.cosSin(at::arange(t, at::kLong));
    at::Tensor x = embed(idTensor);
    ContextCache cache;
    cache.length = t;
    cache.layers.resize(size_t(m_config.numLayers));
    // Key j is seen by the T - j queries at positions j..T-1.
    const at::Tensor seenBy =
        options.receivedAttention ? at::arange(t, 0, -1, at::kFloat) : at::Tensor();
    for (int i = 0; i < m_config.numLayers; ++i) {
        LayerIo io;
        io.keep = true;
        io.window = options.window;
        io.captureRows = rows;
        io.accumulateReceived = options.receivedAttention;
        io.keepInput = options.keepAttentionInputs;
        x = layer(i, x, cos, sin, io);
        LayerCache& l = cache.layers[size_t(i)];
        l.keys = io.selfK.select(0, 0);
        l.values = io.selfV.select(0, 0);
        l.keysPreRope = io.keysPreRope.select(0, 0);
        l.windowQueries = io.windowQ;
        l.windowQueriesPreRope = io.windowQPreRope;
        l.rowAttention = io.rowAttention;
        if (io.input.defined())
            l.attentionInputs = io.input.select(0, 0);
        if (seenBy.defined())
            l.receivedAttention = io.received.select(0, 0).div_(seenBy);
    }
    cache.lastLogits = logits(x.select(0, 0).narrow(0, t - 1, 1)).squeeze(0);
    return cache;
}

namespace {

void checkEdit(const at::Tensor& t, const char* what, at::ScalarType type,
               const ContextCache& context, int64_t kvHeads)
{
    if (!t.defined())
        return;
    const QString name = QString::fromLatin1(what);
    const int64_t layers = int64_t(context.layers.size());
    if (t.scalar_type() != type || t.dim() != 3 || t.size(0) != layers || t.size(1) != kvHeads)
        throw Error(
            QStringLiteral("%1 must be %2 [%3, %4, context] (got %5 dims)")
                .arg(name, type == at::kBool ? QStringLiteral("bool") : QStringLiteral("float"))
                .arg(layers)
                .arg(kvHeads)
                .arg(t.dim()));
    for (int64_t l = 0; l < layers; ++l)
        if (t.size(2) != context.layers[size_t(l)].keys.size(1))
            throw Error(QStringLiteral("%1 covers %2 context entries but layer %3 holds %4")
                            .arg(name)
                            .arg(t.size(2))
                            .arg(l)
                            .arg(context.layers[size_t(l)].keys.size(1)));
}

} // namespace

void Transformer::checkExtension(const ContextCache& context,
                                 const std::vector<const CacheEdit*>& edits, int64_t tokens,
                                 int64_t positions) const
{
    if (tokens == 0)
        throw Error(m_source, QStringLiteral("nothing to process after the context"));
    if (int64_t(context.layers.size()) != m_config.numLayers)
        throw Error(m_source, QStringLiteral("the context cache has %1 layers, the model %2")
                                  .arg(context.layers.size())
                                  .arg(m_config.numLayers));
    checkLength(positions, QStringLiteral("context + question + answer"));
    for (const CacheEdit* edit : edits) {
        checkEdit(edit->keptMask, "kept mask", at::kBool, context, m_config.numKvHeads);
        checkEdit(edit->logitBias, "logit bias", at::kFloat, context, m_config.numKvHeads);
    }
}

ExtendResult Transformer::extend(const ContextCache& context, const CacheEdit& edit,
                                 Continuation& continuation, const std::vector<int>& ids,
                                 const ExtendOptions& options) const
{
    const int64_t n = int64_t(ids.size());
    const int64_t start = context.length + continuation.length;
    checkExtension(context, {&edit}, n, start + n);
    if (continuation.keys.empty()) {
        continuation.keys.resize(size_t(m_config.numLayers));
        continuation.values.resize(size_t(m_config.numLayers));
    }

    const at::Tensor idTensor =
        at::tensor(std::vector<int64_t>(ids.begin(), ids.end()), at::kLong).unsqueeze(0);
    auto [cos, sin] = m_rope.cosSin(at::arange(start, start + n, at::kLong));
    at::Tensor x = embed(idTensor);
    std::vector<at::Tensor> captured, queries, queriesPreRope, keysPreRope;
    for (int i = 0; i < m_config.numLayers; ++i) {
        const LayerCache& l = context.layers[size_t(i)];
        LayerIo io;
        io.keep = true;
        io.ctxK = l.keys;
        io.ctxV = l.values;
        io.ctxBias = contextBiasOf(edit, i, m_config.numKvHeads, l.keys.size(1));
        io.pastK = continuation.keys[size_t(i)];
        io.pastV = continuation.values[size_t(i)];
        io.captureContext = options.captureAttention;
        io.window = options.keepQueries ? n : 0;
        if (options.contextSelector)
            io.selector = &options.contextSelector;
        x = layer(i, x, cos, sin, io);
        continuation.keys[size_t(i)] = io.selfK.select(0, 0);
        continuation.values[size_t(i)] = io.selfV.select(0, 0);
        if (options.captureAttention)
            captured.push_back(io.ctxAttention);
        if (options.keepQueries) {
            queries.push_back(io.windowQ);
            queriesPreRope.push_back(io.windowQPreRope);
            keysPreRope.push_back(io.keysPreRope.select(0, 0));
        }
    }
    continuation.length += n;

    ExtendResult result;
    result.queries = std::move(queries);
    result.queriesPreRope = std::move(queriesPreRope);
    result.keysPreRope = std::move(keysPreRope);
    const at::Tensor last = x.select(0, 0);
    result.logits = logits(options.allLogits ? last : last.narrow(0, n - 1, 1));
    if (options.captureAttention) {
        for (const at::Tensor& c : captured)
            if (c.sizes() != captured.front().sizes())
                throw Error(m_source, QStringLiteral("attention capture needs the same context "
                                                     "length in every layer"));
        result.contextAttention = at::stack(captured, 0);
    }
    return result;
}

std::vector<ExtendResult> Transformer::extendEach(const ContextCache& context,
                                                  const std::vector<const CacheEdit*>& edits,
                                                  std::vector<Continuation>& continuations,
                                                  const std::vector<int>& ids,
                                                  const ExtendOptions& options) const
{
    const int64_t n = int64_t(ids.size());
    const int64_t b = int64_t(edits.size());
    if (b == 0)
        throw Error(m_source, QStringLiteral("no edit to extend the context under"));
    if (options.contextSelector)
        throw Error(m_source, QStringLiteral("a context selector needs extend(), one edit at "
                                             "a time"));
    checkExtension(context, edits, n, context.length + n);
    const int64_t kvHeads = m_config.numKvHeads;
    auto [cos, sin] = m_rope.cosSin(at::arange(context.length, context.length + n, at::kLong));
    at::Tensor x =
        embed(at::tensor(std::vector<int64_t>(ids.begin(), ids.end()), at::kLong).unsqueeze(0))
            .expand({b, n, m_config.hiddenSize});
    continuations.assign(size_t(b), Continuation{});
    for (Continuation& c : continuations) {
        c.keys.resize(size_t(m_config.numLayers));
        c.values.resize(size_t(m_config.numLayers));
        c.length = n;
    }
    std::vector<at::Tensor> captured;
    for (int i = 0; i < m_config.numLayers; ++i) {
        const LayerCache& l = context.layers[size_t(i)];
        const int64_t tc = l.keys.size(1);
        const at::Tensor biases = contextBiasesOf(edits, i, kvHeads, tc); // [B, kv, 1, Tc]
        LayerIo io;
        io.keep = true;
        io.ctxK = l.keys;
        io.ctxV = l.values;
        if (biases.defined()) // [kv, 1, Tc] for one row, [B, kv, 1, Tc] for several
            io.ctxBias = b == 1 ? biases[0] : biases;
        io.captureContext = options.captureAttention;
        x = layer(i, x, cos, sin, io);
        for (int64_t r = 0; r < b; ++r) {
            continuations[size_t(r)].keys[size_t(i)] = io.selfK[r];
            continuations[size_t(r)].values[size_t(i)] = io.selfV[r];
        }
        if (options.captureAttention)
            captured.push_back(io.ctxAttention.view({b, kvHeads, n, tc}));
    }
    std::vector<ExtendResult> results(static_cast<size_t>(b));
    const at::Tensor all = logits(options.allLogits ? x : x.narrow(1, n - 1, 1)); // [B, n|1, vocab]
    for (int64_t r = 0; r < b; ++r) {
        ExtendResult& result = results[size_t(r)];
        result.logits = all[r];
        if (options.captureAttention) {
            std::vector<at::Tensor> layers;
            for (const at::Tensor& c : captured) {
                if (c.size(3) != captured.front().size(3))
                    throw Error(m_source, QStringLiteral("attention capture needs the same "
                                                         "context length in every layer"));
                layers.push_back(c[r]);
            }
            result.contextAttention = at::stack(layers, 0);
        }
    }
    return results;
}

at::Tensor Transformer::decodeStep(const ContextCache& context, DecodeBatch& batch,
                                   const std::vector<int>& tokens) const
{
    const int64_t b = batch.rows();
    if (int64_t(tokens.size()) != b || b == 0)
        throw Error(m_source, QStringLiteral("a decode step needs one token per row"));
    int64_t longest = 0;
    for (int64_t n : batch.lengths)
        longest = std::max(longest, n);
    if (longest + 1 > batch.capacity())
        throw Error(m_source, QStringLiteral("the decode batch is full"));
    checkLength(context.length + longest + 1, QStringLiteral("context + question + answer"));
    const int64_t heads = m_config.numHeads, kvHeads = m_config.numKvHeads;
    const int64_t hd = m_config.headDim;
    const double eps = m_config.rmsNormEps;

    // The B rows travel as the time axis of one [1, B, hidden] sequence through every
    // per-token op (projections, RoPE at each row's own position, MLP).
    const at::Tensor lengths = at::tensor(batch.lengths, at::kLong);
    auto [cos, sin] = m_rope.cosSin(lengths + context.length);
    at::Tensor x = embed(
        at::tensor(std::vector<int64_t>(tokens.begin(), tokens.end()), at::kLong).unsqueeze(0));
    const int64_t n = longest + 1; // self entries the step attends to
    const at::Tensor rowIndex = at::arange(b, at::kLong);
    // Entries at or past each row's new token's slot + 1 are padding.
    const at::Tensor hidden =
        (at::arange(n, at::kLong).unsqueeze(0) > lengths.unsqueeze(1)).view({b, 1, 1, n});
    for (int i = 0; i < m_config.numLayers; ++i) {
        const LayerWeights& w = m_weights.layers[size_t(i)];
        const at::Tensor h = rmsNorm(x, w.inputNorm, eps);
        const at::Tensor q = projectQueries(m_config, w, h);
        const auto [k, v] = projectKeysValues(m_config, w, h);
        const at::Tensor qr = Rope::apply(q, cos, sin);
        const at::Tensor kr = Rope::apply(k, cos, sin);
        // Row r's new entry goes to slot lengths[r] of its buffer.
        using at::indexing::Slice;
        batch.keys[size_t(i)].index_put_({rowIndex, Slice(), lengths}, kr.select(0, 0));
        batch.values[size_t(i)].index_put_({rowIndex, Slice(), lengths}, v.select(0, 0));

        const LayerCache& l = context.layers[size_t(i)];
        const at::Tensor attn = stepAttention((qr.select(0, 0) * (1.0 / std::sqrt(double(hd))))
                                                  .view({b, kvHeads, heads / kvHeads, hd}),
                                              batch.keys[size_t(i)].narrow(2, 0, n),
                                              batch.values[size_t(i)].narrow(2, 0, n), hidden,
                                              l.keys, l.values, batch.contextBias[size_t(i)]);
        x = outputAndMlp(m_config, w, x, attn.unsqueeze(0));
    }
    for (int64_t& length : batch.lengths)
        ++length;
    return logits(x.select(0, 0));
}

} // namespace kvl
