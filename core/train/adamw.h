#pragma once

#include <QString>
#include <map>
#include <vector>
#include <torch/types.h>

namespace kvl {

// AdamW (Loshchilov & Hutter) with decoupled weight decay and bias correction.
// Written out rather than taken from torch::optim so that its state is plain named
// tensors: a checkpoint stores them in safetensors (no pickle) and a resumed run
// continues bit-identically.
class AdamW
{
  public:
    struct Options
    {
        double beta1 = 0.9;
        double beta2 = 0.95;
        double eps = 1e-8;
        double weightDecay = 0.1;
    };

    AdamW(std::map<QString, torch::Tensor> params, std::map<QString, bool> decays, Options options);

    void zeroGrad();
    // Clips the global gradient norm to maxNorm (when > 0); returns the norm before.
    double clipGradNorm(double maxNorm);
    // Parameters named in `frozen` are left as they are (no update, no decay, moments
    // untouched).
    void step(double lr, const std::vector<QString>& frozen = {});

    int64_t steps() const { return m_step; }
    void save(const QString& path) const; // safetensors: m.<name>, v.<name>, step
    void load(const QString& path);       // throws kvl::Error naming the file

  private:
    std::map<QString, torch::Tensor> m_params;
    std::map<QString, bool> m_decays;
    std::map<QString, torch::Tensor> m_m;
    std::map<QString, torch::Tensor> m_v;
    Options m_options;
    int64_t m_step = 0;
};

} // namespace kvl
