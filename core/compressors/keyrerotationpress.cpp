// KeyRerotation: after the inner press, each head's kept keys, in position order, are
// re-rotated to consecutive positions 0..n-1 (RoPE by rank - position), as if the
// cache had been rebuilt without the evicted entries (kvpress KeyRerotationPress).
#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"
#include "model/rope.h"

#include <torch/types.h>

namespace kvl {
namespace {

class KeyRerotationPress : public Press
{
  public:
    KeyRerotationPress(std::unique_ptr<Press> inner, QString spec)
        : m_inner(std::move(inner)), m_spec(std::move(spec))
    {}
    QString spec() const override { return m_spec; }
    int64_t queryWindow(int64_t length) const override { return m_inner->queryWindow(length); }
    bool needsReceivedAttention() const override { return m_inner->needsReceivedAttention(); }
    bool needsAttentionInputs() const override { return m_inner->needsAttentionInputs(); }

    CompressionResult compress(const CompressionInput& input, double ratio) const override
    {
        CompressionResult r = m_inner->compress(input, ratio);
        const ContextCache& source = r.context(*input.cache);
        const Rope own(*input.config);
        const Rope& rope = input.rope ? *input.rope : own;
        const int64_t length = input.length();
        ContextCache out = source;
        for (size_t l = 0; l < out.layers.size(); ++l) {
            const at::Tensor kept = r.kept[int64_t(l)]; // [H, T]
            const at::Tensor rank = kept.to(torch::kLong).cumsum(-1) - 1;
            const at::Tensor shift = torch::where(kept, rank - torch::arange(length, torch::kLong),
                                                  torch::zeros_like(rank));
            const auto [cos, sin] = rope.cosSin(shift.reshape(-1));
            const at::Tensor& k = out.layers[l].keys; // [H, T, d]
            const int64_t h = k.size(2) / 2;
            const at::Tensor c = cos.reshape(k.sizes()), s = sin.reshape(k.sizes());
            const at::Tensor rotated = torch::cat({-k.narrow(2, h, h), k.narrow(2, 0, h)}, 2);
            out.layers[l].keys = k * c + rotated * s;
        }
        r.rewritten = out;
        return r;
    }

  private:
    std::unique_ptr<Press> m_inner;
    QString m_spec;
};

std::unique_ptr<Press> makeKeyRerotation(const PressSpec& spec, const PressCatalog& catalog)
{
    if (spec.inner.size() != 1)
        throw Error(QStringLiteral("press spec '%1'").arg(spec.toString()),
                    QStringLiteral("keyrerotation wraps one press: keyrerotation(snapkv)"));
    PressParams p(spec);
    p.finish();
    auto inner = catalog.press(spec.inner[0]);
    const QString canonical = p.canonical(inner->spec());
    return std::make_unique<KeyRerotationPress>(std::move(inner), canonical);
}

} // namespace

PressEntry keyRerotationEntry()
{
    return {.name = QStringLiteral("keyrerotation"),
            .kind = PressEntry::Kind::Wrapper,
            .rule = QStringLiteral("kept keys re-rotated (RoPE) to consecutive positions 0..n-1 in "
                                   "position order (kvpress key_rerotation_press.py)"),
            .inner = QStringLiteral("press"),
            .makePress = &makeKeyRerotation};
}

} // namespace kvl
