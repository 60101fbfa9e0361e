// The decode loop of offloading presses (issue 19): the context stays whole (offloaded)
// and every forward after it asks the index, layer by layer, which entries each query row
// of each kv-head reads (Transformer's context selector); the rest are masked out of that
// layer's attention. The loop counts what was retrieved per position for the run's
// retrieval map and times the selection.
#include "compressors/offloaddecoding.h"

#include "common/error.h"
#include "compressors/offloadindex.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <QElapsedTimer>

namespace kvl {

RetrievalMap OffloadedDecoding::retrievalMap() const
{
    RetrievalMap map;
    map.steps = steps();
    map.contextLength = selectedShare.defined() ? selectedShare.size(1) : 0;
    const at::Tensor shares = selectedShare.defined() ? selectedShare.to(at::kDouble).contiguous()
                                                      : at::zeros({0}, at::kDouble);
    const double* data = shares.data_ptr<double>();
    map.shares.resize(size_t(shares.numel()));
    for (size_t i = 0; i < map.shares.size(); ++i)
        map.shares[i] = RetrievalMap::quantize(data[i]);
    return map;
}

namespace {

// One forward's selections summed over layers, kv-heads and rows, per position.
class SelectionTally
{
  public:
    SelectionTally(const OffloadIndex& index, int64_t contextLength)
        : m_index(index), m_length(contextLength)
    {}

    // The context selector of one forward.
    std::function<at::Tensor(int, const at::Tensor&)> selector()
    {
        return [this](int layer, const at::Tensor& queries) {
            QElapsedTimer timer;
            timer.start();
            at::Tensor selected = m_index.select(layer, queries);
            m_seconds += double(timer.nsecsElapsed()) / 1e9;
            if (selected.defined() && selected.dim() == 3 && selected.size(2) == m_length) {
                const at::Tensor counts = selected.sum(at::IntArrayRef{0, 1}, false, at::kDouble);
                m_counts = m_counts.defined() ? m_counts.add_(counts) : counts;
                m_selections += selected.size(0) * selected.size(1);
            }
            return selected; // the model checks the shape and names the layer
        };
    }

    // The shares of the forward just run [T], and a fresh tally for the next one.
    at::Tensor take()
    {
        at::Tensor share = m_counts.defined()
                               ? m_counts.div(double(std::max<int64_t>(1, m_selections)))
                               : at::zeros({m_length}, at::kDouble);
        m_counts = at::Tensor();
        m_selections = 0;
        return share.to(at::kFloat);
    }

    double seconds() const { return m_seconds; }

  private:
    const OffloadIndex& m_index;
    int64_t m_length;
    at::Tensor m_counts; // double [T]
    int64_t m_selections = 0;
    double m_seconds = 0.0;
};

} // namespace

OffloadedDecoding generateOffloaded(const Transformer& model, const OffloadIndex& index,
                                    const std::vector<int>& question,
                                    const GenerateOptions& options,
                                    std::vector<at::Tensor>* stepLogits)
{
    const ContextCache& context = index.context();
    OffloadedDecoding out;
    SelectionTally tally(index, context.length);
    ExtendOptions extendOptions;
    extendOptions.contextSelector = tally.selector();
    Continuation continuation;
    std::vector<at::Tensor> shares;
    const int64_t limit = model.maxPositions();
    auto feed = [&](const std::vector<int>& ids) {
        const ExtendResult r = model.extend(context, CacheEdit{}, continuation, ids, extendOptions);
        shares.push_back(tally.take());
        out.rows.push_back(int64_t(ids.size()));
        at::Tensor next = r.logits.select(0, r.logits.size(0) - 1);
        if (stepLogits != nullptr)
            stepLogits->push_back(next);
        return next;
    };
    Generation& gen = out.generation;
    at::Tensor next = question.empty() ? context.lastLogits : feed(question);
    int token = greedyStep(next, gen, options, context.length + continuation.length, limit);
    while (token >= 0) {
        next = feed({token});
        token = greedyStep(next, gen, options, context.length + continuation.length, limit);
    }
    out.selectedShare =
        shares.empty() ? at::zeros({0, context.length}, at::kFloat) : at::stack(shares, 0);
    out.pressSeconds = tally.seconds();
    return out;
}

} // namespace kvl
