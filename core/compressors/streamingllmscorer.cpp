// StreamingLLM: keep the n_sink first entries and the most recent ones (kvpress
// StreamingLLMPress); scored by position, sinks above everything.
#include "cache/pressparams.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {
namespace {

constexpr int kStreamingLlmSinks = 4; // kvpress n_sink

class StreamingLlmScorer : public Scorer
{
  public:
    StreamingLlmScorer(int sinks, QString spec) : m_sinks(sinks), m_spec(std::move(spec)) {}
    QString spec() const override { return m_spec; }
    at::Tensor score(const CompressionInput& input, double) const override
    {
        // Position t scores t (recency); sinks score T + t, above any recent entry.
        const int64_t length = input.length();
        at::Tensor s = torch::arange(length, torch::kFloat);
        s.narrow(0, 0, std::min<int64_t>(m_sinks, length)).add_(double(length));
        return s.expand({input.layers(), input.kvHeads(), length}).contiguous();
    }

  private:
    int m_sinks;
    QString m_spec;
};

std::unique_ptr<Scorer> makeStreamingLlm(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    const int sinks = p.integer(QStringLiteral("n_sink"), kStreamingLlmSinks, 0, 1 << 20);
    p.finish();
    return std::make_unique<StreamingLlmScorer>(sinks, p.canonical());
}

} // namespace

PressEntry streamingLlmEntry()
{
    return {.name = QStringLiteral("streamingllm"),
            .kind = PressEntry::Kind::Scorer,
            .rule = QStringLiteral(
                "keep the first n_sink entries (attention sinks) and the most recent "
                "ones (arXiv:2309.17453; kvpress streaming_llm_press.py)"),
            .params = {{QStringLiteral("n_sink"), QString::number(kStreamingLlmSinks),
                        QStringLiteral("sink entries")}},
            .makeScorer = &makeStreamingLlm};
}

} // namespace kvl
