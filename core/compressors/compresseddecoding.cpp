// The decode loop of decode-time presses (kvpress DecodingPress.forward_hook): after every
// forward past the context the step count grows and the forward's queries join a
// buffer; when the count reaches the interval (or one forward fed at least the target)
// the whole cache, context survivors and continuation alike, is scored from its keys
// and the buffered queries and every head is cut to the target. The cut entries are
// dropped from the tensors (a gather), so later forwards and scorings never see them.
// A merging press (CaM, kvpress cam_press.py) also keeps each entry's running attention
// and folds evicted values into kept neighbours before the gather (cammerge.h).
#include "compressors/compresseddecoding.h"

#include "cache/compressioninput.h"
#include "cache/keptselection.h"
#include "common/error.h"
#include "compressors/cammerge.h"
#include "compressors/decodingpress.h"
#include "compressors/subcache.h"
#include "model/answerdecoder.h"
#include "model/goldscore.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <ATen/CPUGeneratorImpl.h>
#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <deque>

namespace kvl {

namespace {

// What one forward adds to the scorer's buffer: per layer queries [heads, n, hd].
struct BufferedForward
{
    std::vector<at::Tensor> queries, queriesPreRope;
};

class DecodeState
{
  public:
    DecodeState(const Transformer& model, const ContextCache& context, const at::Tensor& kept,
                const DecodingPress& press, double ratio, uint64_t seed)
        : m_model(model), m_press(press), m_ratio(ratio), m_contextLength(context.length),
          m_generator(at::detail::createCPUGenerator(seed))
    {
        const auto& cfg = model.config();
        m_cache = context;
        at::Tensor positions = torch::arange(context.length, torch::kLong)
                                   .expand({cfg.numLayers, cfg.numKvHeads, context.length})
                                   .contiguous();
        if (kept.defined() && !kept.all().item<bool>()) {
            // Evicted at prefill: dropped now, as kvpress's cache holds only the survivors.
            const at::Tensor index = keptPositions(kept);
            if (!index.defined())
                throw Error(press.spec(), QStringLiteral("the prefill press keeps different "
                                                         "numbers of entries per head; decoding "
                                                         "compression needs the same number"));
            m_cache = gatherEntries(context, index);
            m_cache.length = context.length;
            m_cache.lastLogits = context.lastLogits;
            positions = index;
        }
        m_positions = positions;
        for (LayerCache& l : m_cache.layers) {
            // Scorers read window queries from the buffer, not from the prefill.
            l.windowQueries = at::Tensor();
            l.windowQueriesPreRope = at::Tensor();
            l.receivedAttention = at::Tensor();
            l.rowAttention = at::Tensor();
            l.attentionInputs = at::Tensor();
        }
        m_continuationPreRope.assign(m_cache.layers.size(), at::Tensor());
        m_peak = entries();
    }

    // Keep every forward's attention over the context positions (the gold replay).
    void captureAttention() { m_capture = true; }
    // [layers, kv_heads, rows, T] per forward captured: each row's attention on the
    // context positions its head still holds (0 on the evicted ones), mean over the GQA
    // group; attention on the question and answer entries is left out, as in the gold
    // pass over a fixed cache.
    const std::vector<at::Tensor>& attention() const { return m_captured; }

    int64_t positionsInUse() const { return m_cache.length + m_continuation.length; }
    int64_t entries() const { return m_positions.size(2) + m_continuation.length; }
    int64_t peak() const { return m_peak; }
    double pressSeconds() const { return m_pressSeconds; }
    std::vector<DecodeCompressionStep>& steps() { return m_steps; }

    // One forward of `ids`; compresses when the rule says so. Returns the last row's
    // next-token logits.
    at::Tensor feed(const std::vector<int>& ids, int64_t generated)
    {
        ExtendOptions options;
        options.keepQueries = true;
        options.captureAttention = m_capture;
        ExtendResult r = m_model.extend(m_cache, CacheEdit{}, m_continuation, ids, options);
        if (m_capture)
            m_captured.push_back(onContextPositions(r.contextAttention));
        for (size_t l = 0; l < r.keysPreRope.size(); ++l)
            m_continuationPreRope[l] =
                m_continuationPreRope[l].defined()
                    ? torch::cat({m_continuationPreRope[l], r.keysPreRope[l]}, 1)
                    : r.keysPreRope[l];
        if (merging())
            accumulateAttention(r.queries);
        m_buffer.push_back({std::move(r.queries), std::move(r.queriesPreRope)});
        ++m_forwards;
        ++m_sinceCompression;
        m_peak = std::max(m_peak, entries());
        const int64_t target = m_press.targetSize(positionsInUse(), m_contextLength, m_ratio);
        // CaM's interval fires only over the target; until then its count (the number of
        // entries it will merge) runs on and the buffer keeps its last forwards.
        const bool due =
            m_sinceCompression >= m_press.interval() && (!merging() || entries() > target);
        if (due || int64_t(ids.size()) >= target) {
            QElapsedTimer timer;
            timer.start();
            compress(target, generated);
            m_pressSeconds += double(timer.nsecsElapsed()) / 1e9;
            m_sinceCompression = 0;
            m_buffer.clear();
        }
        const int keep = m_press.bufferSize();
        while (int(m_buffer.size()) > keep)
            m_buffer.pop_front();
        return r.logits.select(0, r.logits.size(0) - 1);
    }

    // bool [layers, kv_heads, positionsInUse()]: the positions the cache holds.
    at::Tensor keptNow() const
    {
        const int64_t total = positionsInUse();
        at::Tensor kept =
            torch::zeros({m_positions.size(0), m_positions.size(1), total}, torch::kBool);
        kept.scatter_(2, m_positions, true);
        if (m_continuation.length > 0)
            kept.narrow(2, m_cache.length, m_continuation.length).fill_(true);
        return kept;
    }

  private:
    bool merging() const { return m_press.mergeBudget() > 0; }

    // Each layer's keys: the survivors, then the continuation.
    at::Tensor keysOf(size_t layer) const
    {
        const at::Tensor& k = m_cache.layers[layer].keys;
        return m_continuation.length > 0 ? torch::cat({k, m_continuation.keys[layer]}, 1) : k;
    }

    // CaM's running attention: the softmax of this forward's last query over every entry
    // (its own included), scaled as the engine's attention, mean over the GQA group, added
    // to each entry's sum (a new entry starts at 0).
    void accumulateAttention(const std::vector<at::Tensor>& queries)
    {
        if (m_attention.empty())
            m_attention.assign(m_cache.layers.size(), at::Tensor());
        for (size_t l = 0; l < m_cache.layers.size(); ++l) {
            const at::Tensor keys = keysOf(l); // [kv, N, d]
            const int64_t kvHeads = keys.size(0), length = keys.size(1), d = keys.size(2);
            const at::Tensor& q = queries[l]; // [heads, n, d]
            const int64_t heads = q.size(0);
            const at::Tensor last = q.narrow(1, q.size(1) - 1, 1)
                                        .mul(1.0 / std::sqrt(double(d)))
                                        .reshape({kvHeads, heads / kvHeads, d});
            const at::Tensor attention =
                torch::softmax(torch::bmm(last, keys.transpose(1, 2)), -1).mean(1); // [kv, N]
            at::Tensor& sum = m_attention[l];
            if (!sum.defined())
                sum = attention.clone();
            else
                sum = torch::cat(
                          {sum, torch::zeros({kvHeads, length - sum.size(1)}, attention.options())},
                          1) +
                      attention;
        }
    }

    // The survivors and the continuation as one cache of `entries()` entries per head,
    // with the buffered queries as its window queries.
    ContextCache folded() const
    {
        ContextCache all;
        all.length = entries();
        all.lastLogits = m_cache.lastLogits;
        for (size_t l = 0; l < m_cache.layers.size(); ++l) {
            const LayerCache& in = m_cache.layers[l];
            LayerCache layer;
            if (m_continuation.length > 0) {
                layer.keys = torch::cat({in.keys, m_continuation.keys[l]}, 1);
                layer.values = torch::cat({in.values, m_continuation.values[l]}, 1);
                layer.keysPreRope = torch::cat({in.keysPreRope, m_continuationPreRope[l]}, 1);
            } else {
                layer = in;
            }
            std::vector<at::Tensor> q, qPre;
            for (const BufferedForward& f : m_buffer) {
                q.push_back(f.queries[l]);
                qPre.push_back(f.queriesPreRope[l]);
            }
            layer.windowQueries = torch::cat(q, 1);
            layer.windowQueriesPreRope = torch::cat(qPre, 1);
            all.layers.push_back(std::move(layer));
        }
        return all;
    }

    void compress(int64_t target, int64_t generated)
    {
        const int64_t before = entries();
        DecodeCompressionStep step;
        step.forward = m_forwards;
        step.generated = generated;
        step.positions = positionsInUse();
        step.target = target;
        step.entriesBefore = before;
        const double ratio = decodingRatioFor(before, target);
        if (ratio > 0.0) {
            ContextCache all = folded();
            const int64_t layers = m_positions.size(0), heads = m_positions.size(1);
            const at::Tensor fed = torch::arange(m_cache.length, positionsInUse(), torch::kLong)
                                       .expand({layers, heads, m_continuation.length});
            const at::Tensor positions = torch::cat({m_positions, fed}, 2);
            CompressionInput input = compressionInputFor(m_model, all);
            const at::Tensor scores = m_press.scorer().score(input, ratio);
            at::Tensor index;
            if (merging()) {
                // CaM: exactly `target` entries per layer, the evicted values merged into
                // the kept ones first; the running attention follows the survivors.
                std::vector<at::Tensor> perLayer;
                for (size_t l = 0; l < all.layers.size(); ++l) {
                    CamMerge m =
                        camMerge(scores[int64_t(l)], m_attention[l], all.layers[l].values, target,
                                 m_sinceCompression, m_press.mergeBudget(), m_generator);
                    all.layers[l].values = m.values;
                    m_attention[l] = m_attention[l].index_select(1, m.kept);
                    step.mergeCandidates += m.candidates;
                    step.merged += m.merged;
                    perLayer.push_back(m.kept.expand({heads, m.kept.numel()}));
                }
                index = torch::stack(perLayer);
            } else {
                index = keptPositions(topKMask(scores, keptPerHead(before, ratio)));
            }
            if (!index.defined())
                throw Error(m_press.spec(),
                            QStringLiteral("the decoding scorer protected more entries than the "
                                           "target in some heads (scores of +inf); the cache "
                                           "must keep the same number per head"));
            const int64_t length = positionsInUse();
            ContextCache cut = gatherEntries(all, index);
            cut.length = length;
            cut.lastLogits = m_cache.lastLogits;
            for (LayerCache& l : cut.layers) {
                l.windowQueries = at::Tensor();
                l.windowQueriesPreRope = at::Tensor();
            }
            m_cache = std::move(cut);
            m_positions = positions.gather(2, index);
            m_continuation = Continuation{};
            std::fill(m_continuationPreRope.begin(), m_continuationPreRope.end(), at::Tensor());
        }
        step.entriesAfter = entries();
        step.kept = keptNow();
        m_steps.push_back(std::move(step));
    }

    // Attention over the cache's entries [layers, kv_heads, n, m] moved to the positions
    // they hold, then cut to the context's.
    at::Tensor onContextPositions(const at::Tensor& overEntries) const
    {
        const int64_t n = overEntries.size(2);
        at::Tensor out = torch::zeros({overEntries.size(0), overEntries.size(1), n, m_cache.length},
                                      overEntries.options());
        out.scatter_(3, m_positions.unsqueeze(2).expand({-1, -1, n, -1}), overEntries);
        return out.narrow(3, 0, m_contextLength);
    }

    static CompressionInput compressionInputFor(const Transformer& model, const ContextCache& cache)
    {
        CompressionInput input;
        input.cache = &cache;
        input.config = &model.config();
        input.weights = &model.weights();
        input.rope = &model.rope();
        return input;
    }

    const Transformer& m_model;
    const DecodingPress& m_press;
    double m_ratio;
    int64_t m_contextLength;
    at::Generator m_generator;           // CaM's Bernoulli draws
    std::vector<at::Tensor> m_attention; // CaM: per layer [kv_heads, entries()] running sums
    ContextCache m_cache;   // the survivors; length = positions before the continuation
    at::Tensor m_positions; // int64 [layers, kv_heads, m]: their positions
    Continuation m_continuation;
    std::vector<at::Tensor> m_continuationPreRope; // per layer [kv_heads, n, hd]
    std::deque<BufferedForward> m_buffer;
    int m_forwards = 0;
    int m_sinceCompression = 0;
    int64_t m_peak = 0;
    double m_pressSeconds = 0.0;
    std::vector<DecodeCompressionStep> m_steps;
    bool m_capture = false;
    std::vector<at::Tensor> m_captured;
};

// FNV-1a over the press's seed, the context length and the question: a sample's CaM
// draws depend on the sample alone, not on what ran before it (and the gold replay
// draws as the greedy answer did).
uint64_t drawSeed(const DecodingPress& press, const ContextCache& context,
                  const std::vector<int>& question)
{
    uint64_t seed = 1469598103934665603ull;
    const auto mix = [&seed](int64_t x) {
        seed ^= uint64_t(x);
        seed *= 1099511628211ull;
    };
    mix(press.mergeSeed());
    mix(context.length);
    for (int id : question)
        mix(id);
    return seed;
}

} // namespace

CompressedDecoding generateCompressed(const Transformer& model, const ContextCache& context,
                                      const at::Tensor& prefillKept, const DecodingPress& press,
                                      double ratio, const std::vector<int>& question,
                                      const GenerateOptions& options)
{
    checkRatio(ratio, press.spec());
    CompressedDecoding out;
    DecodeState state(model, context, prefillKept, press, ratio,
                      drawSeed(press, context, question));
    const int64_t limit = model.maxPositions();
    Generation& gen = out.generation;
    at::Tensor next = question.empty() ? context.lastLogits : state.feed(question, 0);
    int token = greedyStep(next, gen, options, state.positionsInUse(), limit);
    while (token >= 0) {
        next = state.feed({token}, int64_t(gen.ids.size()));
        token = greedyStep(next, gen, options, state.positionsInUse(), limit);
    }
    out.steps = std::move(state.steps());
    out.finalKept = state.keptNow();
    out.finalEntries = state.entries();
    out.peakEntries = state.peak();
    out.pressSeconds = state.pressSeconds();
    return out;
}

CompressedGoldPass scoreCompressed(const Transformer& model, const ContextCache& context,
                                   const at::Tensor& prefillKept, const DecodingPress& press,
                                   double ratio, const std::vector<int>& question,
                                   const std::vector<int>& answer, const ScoreOptions& options)
{
    checkRatio(ratio, press.spec());
    if (answer.empty())
        throw Error(model.source(), QStringLiteral("the gold answer has no tokens"));
    DecodeState state(model, context, prefillKept, press, ratio,
                      drawSeed(press, context, question));
    if (options.captureAttention)
        state.captureAttention();
    // Row i predicts answer[i]: the question's forward, then answer[i - 1] fed back with
    // i answer tokens written, as generateCompressed feeds its own tokens.
    std::vector<at::Tensor> rows;
    rows.push_back(question.empty() ? context.lastLogits : state.feed(question, 0));
    for (size_t i = 1; i < answer.size(); ++i)
        rows.push_back(state.feed({answer[i - 1]}, int64_t(i)));
    CompressedGoldPass out;
    out.gold = scoreFromLogits(torch::stack(rows), answer, options);
    if (options.captureAttention && !state.attention().empty())
        out.gold.contextAttention = torch::cat(state.attention(), 2);
    out.steps = std::move(state.steps());
    return out;
}

} // namespace kvl
