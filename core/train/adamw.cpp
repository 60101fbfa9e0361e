#include "train/adamw.h"

#include "checkpoint/safetensorsfile.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <torch/types.h>

namespace kvl {

AdamW::AdamW(std::map<QString, torch::Tensor> params, std::map<QString, bool> decays,
             Options options)
    : m_params(std::move(params)), m_decays(std::move(decays)), m_options(options)
{
    for (const auto& [name, p] : m_params) {
        m_m[name] = torch::zeros_like(p, torch::MemoryFormat::Contiguous).detach();
        m_v[name] = torch::zeros_like(p, torch::MemoryFormat::Contiguous).detach();
    }
}

void AdamW::zeroGrad()
{
    for (auto& [name, p] : m_params)
        if (p.grad().defined())
            p.mutable_grad().zero_();
}

double AdamW::clipGradNorm(double maxNorm)
{
    at::NoGradGuard noGrad;
    double sumSquares = 0;
    for (const auto& [name, p] : m_params)
        if (p.grad().defined())
            sumSquares += p.grad().pow(2).sum().item<double>();
    const double norm = std::sqrt(sumSquares);
    if (maxNorm > 0 && norm > maxNorm) {
        const double scale = maxNorm / (norm + 1e-6);
        for (auto& [name, p] : m_params)
            if (p.grad().defined())
                p.mutable_grad().mul_(scale);
    }
    return norm;
}

void AdamW::step(double lr, const std::vector<QString>& frozen)
{
    at::NoGradGuard noGrad;
    ++m_step;
    const double c1 = 1.0 - std::pow(m_options.beta1, double(m_step));
    const double c2 = 1.0 - std::pow(m_options.beta2, double(m_step));
    for (auto& [name, p] : m_params) {
        if (!p.grad().defined() || std::find(frozen.begin(), frozen.end(), name) != frozen.end())
            continue;
        const auto& g = p.grad();
        auto& m = m_m[name];
        auto& v = m_v[name];
        m.mul_(m_options.beta1).add_(g, 1.0 - m_options.beta1);
        v.mul_(m_options.beta2).addcmul_(g, g, 1.0 - m_options.beta2);
        if (m_decays[name] && m_options.weightDecay > 0)
            p.mul_(1.0 - lr * m_options.weightDecay);
        const auto denom = (v / c2).sqrt_().add_(m_options.eps);
        p.addcdiv_(m, denom, -lr / c1);
    }
}

void AdamW::save(const QString& path) const
{
    SafetensorsWriter writer;
    auto add = [&writer](const QString& name, const torch::Tensor& t) {
        const auto c = t.contiguous();
        writer.add(name, DType::F32, c.sizes().vec(),
                   QByteArray(reinterpret_cast<const char*>(c.data_ptr<float>()),
                              qsizetype(c.numel() * 4)));
    };
    for (const auto& [name, t] : m_m)
        add(QStringLiteral("m.") + name, t);
    for (const auto& [name, t] : m_v)
        add(QStringLiteral("v.") + name, t);
    const int64_t step = m_step;
    writer.add(QStringLiteral("step"), DType::I64, {1},
               QByteArray(reinterpret_cast<const char*>(&step), sizeof step));
    writer.write(path);
}

void AdamW::load(const QString& path)
{
    const auto file = SafetensorsFile::open(path);
    auto restore = [&](const QString& name, torch::Tensor& into) {
        const TensorView& view = file->tensor(name);
        if (view.dtype != DType::F32 || view.shape != into.sizes().vec())
            throw Error(path, QStringLiteral("tensor %1 does not match the model").arg(name));
        into.copy_(torch::from_blob(const_cast<void*>(view.data), view.shape, torch::kFloat32));
    };
    for (auto& [name, t] : m_m)
        restore(QStringLiteral("m.") + name, t);
    for (auto& [name, t] : m_v)
        restore(QStringLiteral("v.") + name, t);
    const TensorView& step = file->tensor(QStringLiteral("step"));
    if (step.dtype != DType::I64 || step.byteSize != 8)
        throw Error(path, QStringLiteral("tensor step must be one I64"));
    m_step = *static_cast<const int64_t*>(step.data);
}

} // namespace kvl
