// QFilter: score = -<f, k>, f the per-(layer, kv-head) filter direction of the queries
// (kvpress QFilterPress); filters from a safetensors file, tensor `q_filters`
// [layers, kv_heads or heads, head_dim] (query-head filters are averaged per group).
#include "cache/pressparams.h"
#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "compressors/windowattention.h"

#include <torch/types.h>

namespace kvl {
namespace {

class QFilterScorer : public Scorer
{
  public:
    QFilterScorer(at::Tensor filters, QString file, QString spec)
        : m_filters(std::move(filters)), m_file(std::move(file)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    bool entryWise() const override { return true; }

    at::Tensor score(const CompressionInput& input, double) const override
    {
        const int64_t layers = input.layers(), d = input.headDim();
        if (m_filters.size(0) != layers || m_filters.size(2) != d ||
            (m_filters.size(1) != input.kvHeads() && m_filters.size(1) != input.heads()))
            throw Error(m_file, QStringLiteral("q_filters do not fit the model ([%1, %2, %3] "
                                               "expected)")
                                    .arg(layers)
                                    .arg(input.kvHeads())
                                    .arg(d));
        std::vector<at::Tensor> out;
        for (int64_t l = 0; l < layers; ++l) {
            at::Tensor f = m_filters[l];
            if (f.size(0) != input.kvHeads())
                f = groupMean(f, input.kvHeads());
            out.push_back(-(input.cache->layers[l].keys * f.unsqueeze(1)).sum(-1));
        }
        return torch::stack(out);
    }

  private:
    at::Tensor m_filters;
    QString m_file;
    QString m_spec;
};

std::unique_ptr<Scorer> makeQfilter(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const QString file = p.text(QStringLiteral("file"), {});
    p.finish();
    if (file.isEmpty())
        throw Error(p.canonical(), QStringLiteral("qfilter needs file=FILTERS.safetensors"));
    const auto st = SafetensorsFile::open(file);
    const TensorView& view = st->tensor(QStringLiteral("q_filters"));
    if (view.dtype != DType::F32 || view.shape.size() != 3)
        throw Error(file, QStringLiteral("q_filters must be F32 [layers, heads, head_dim]"));
    const at::Tensor filters =
        torch::from_blob(const_cast<void*>(view.data), view.shape, torch::kFloat).clone();
    return std::make_unique<QFilterScorer>(filters, file, p.canonical());
}

} // namespace

PressEntry qfilterEntry()
{
    return {.name = QStringLiteral("qfilter"),
            .kind = PressEntry::Kind::Scorer,
            .rule =
                QStringLiteral("score = -<f, k> with f the layer and head's query filter direction "
                               "(file=FILTERS.safetensors, tensor q_filters) (arXiv:2503.02812; "
                               "kvpress qfilter_press.py)"),
            .params = {{QStringLiteral("file"), QString(),
                        QStringLiteral("safetensors with q_filters")}},
            .makeScorer = &makeQfilter};
}

} // namespace kvl
