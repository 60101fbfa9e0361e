#include "cache/keptselection.h"

#include "cache/compressionresult.h"
#include "common/error.h"

#include <torch/types.h>

namespace kvl {

void checkRatio(double ratio, const QString& what)
{
    if (!(ratio >= 0.0 && ratio < 1.0))
        throw Error(what, QStringLiteral("compression ratio must be in [0, 1) (fraction of "
                                         "context entries removed), got %1")
                              .arg(ratio));
}

int64_t keptPerHead(int64_t length, double ratio)
{
    return int64_t(double(length) * (1.0 - ratio));
}

at::Tensor protectedEntries(const at::Tensor& scores)
{
    return scores.isposinf();
}

at::Tensor bestK(const at::Tensor& scores, int64_t k)
{
    const int64_t length = scores.size(-1);
    k = std::clamp<int64_t>(k, 0, length);
    if (k == 0)
        return torch::zeros(scores.sizes(), torch::kBool);
    // NaN scores (a degenerate scorer) rank last instead of poisoning the selection.
    const at::Tensor clean = torch::nan_to_num(scores.to(torch::kFloat), -INFINITY);
    // The k-th best value per row splits the row: everything above it is in, and the
    // earliest of the entries equal to it fill the rest. A partial selection (topk)
    // instead of a full stable sort: several times faster, the same set.
    const at::Tensor kth =
        std::get<0>(clean.topk(k, -1, /*largest=*/true, /*sorted=*/false)).amin(-1, true);
    const at::Tensor above = clean > kth;
    const at::Tensor tied = clean == kth;
    const at::Tensor missing = k - above.sum(-1, true);
    return above | (tied & (tied.cumsum(-1) <= missing));
}

at::Tensor topKMask(const at::Tensor& scores, int64_t k)
{
    return bestK(scores, k) | protectedEntries(scores);
}

at::Tensor topKMaskPerRow(const at::Tensor& scores, const at::Tensor& budgets)
{
    const int64_t length = scores.size(-1);
    const at::Tensor clean = torch::nan_to_num(scores.to(torch::kFloat), -INFINITY);
    const at::Tensor order = std::get<1>(clean.sort(/*stable=*/true, -1, /*descending=*/true));
    // rank[i] < budget  <=>  entry i is among the row's best `budget`.
    const at::Tensor rank = torch::empty_like(order).scatter_(
        -1, order, torch::arange(length, torch::kLong).expand_as(order).contiguous());
    const at::Tensor mask = rank < budgets.to(torch::kLong).unsqueeze(-1);
    return mask | protectedEntries(scores);
}

double keptKvBytes(const at::Tensor& kept, int headDim)
{
    return double(kept.sum().item<int64_t>()) * 2.0 * headDim * kCacheBytesPerElement;
}

CompressionResult evictionResult(const at::Tensor& kept, const at::Tensor& scores, int headDim)
{
    CompressionResult result;
    result.kept = kept.to(torch::kBool);
    if (scores.defined())
        result.scores = scores.to(torch::kFloat).contiguous();
    result.coverage = CoverageType::MeasuredTokenCoverage;
    result.keptBytes = keptKvBytes(result.kept, headDim);
    result.fullBytes = double(kept.numel()) * 2.0 * headDim * kCacheBytesPerElement;
    return result;
}

} // namespace kvl
