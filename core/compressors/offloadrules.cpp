#include "compressors/offloadrules.h"

#include "cache/keptselection.h"

#include <algorithm>
#include <cmath>
#include <torch/types.h>

namespace kvl::offload {

ChunkGrid chunkGrid(int64_t length, int64_t span, int64_t chunk)
{
    ChunkGrid grid;
    grid.chunk = std::max<int64_t>(1, chunk);
    grid.span = std::clamp<int64_t>(span, 0, length);
    grid.count = (grid.span + grid.chunk - 1) / grid.chunk;
    grid.tokenChunk = torch::arange(length, torch::kLong).div(grid.chunk, "floor");
    if (grid.span < length)
        grid.tokenChunk.narrow(0, grid.span, length - grid.span).fill_(grid.count);
    return grid;
}

at::Tensor chunkMeans(const at::Tensor& keys, const ChunkGrid& grid)
{
    const int64_t kv = keys.size(0), d = keys.size(2);
    const at::Tensor index = grid.tokenChunk.narrow(0, 0, grid.span);
    const at::Tensor sums = torch::zeros({kv, grid.count, d}, keys.options())
                                .index_add_(1, index, keys.narrow(1, 0, grid.span));
    const at::Tensor counts =
        torch::bincount(index, {}, grid.count).to(keys.scalar_type()).clamp_min(1);
    return sums / counts.view({1, -1, 1});
}

std::pair<at::Tensor, at::Tensor> chunkBounds(const at::Tensor& keys, const ChunkGrid& grid)
{
    const int64_t kv = keys.size(0), d = keys.size(2);
    at::Tensor inside = keys.narrow(1, 0, grid.span);
    // A short last chunk is padded with its own last key: min and max are unchanged.
    const int64_t padded = grid.count * grid.chunk;
    if (padded > grid.span)
        inside = torch::cat(
            {inside, inside.narrow(1, grid.span - 1, 1).expand({kv, padded - grid.span, d})}, 1);
    const at::Tensor pages = inside.reshape({kv, grid.count, grid.chunk, d});
    return {pages.amin(2), pages.amax(2)};
}

at::Tensor outlierChunks(const at::Tensor& keys, const ChunkGrid& grid, int64_t count)
{
    const int64_t kv = keys.size(0);
    count = std::clamp<int64_t>(count, 0, grid.count);
    if (grid.chunk == 1) {
        at::Tensor first = torch::zeros({kv, grid.count}, torch::kBool);
        first.narrow(1, 0, count).fill_(true);
        return first;
    }
    const at::Tensor index = grid.tokenChunk.narrow(0, 0, grid.span);
    const at::Tensor means = chunkMeans(keys, grid).index_select(1, index);
    const at::Tensor cosine =
        torch::cosine_similarity(keys.narrow(1, 0, grid.span), means, -1).to(torch::kFloat);
    // Chunks are contiguous runs of grid.chunk tokens: the lowest cosine of each is a min
    // over a reshape, the last chunk padded with +inf (scatter_reduce would do the same
    // but prints libtorch's one-time "beta" warning into every first offloading run).
    const int64_t padded = grid.count * grid.chunk;
    at::Tensor all = cosine;
    if (padded > grid.span)
        all =
            torch::cat({cosine, torch::full({kv, padded - grid.span}, INFINITY, torch::kFloat)}, 1);
    const at::Tensor lowest = all.reshape({kv, grid.count, grid.chunk}).amin(2);
    return bestK(-lowest, count);
}

at::Tensor lowRankKeys(const at::Tensor& keysPreRope, int rank, bool perHead)
{
    const int64_t kv = keysPreRope.size(0), length = keysPreRope.size(1), d = keysPreRope.size(2);
    const at::Tensor x =
        perHead ? keysPreRope.to(torch::kFloat)
                : keysPreRope.to(torch::kFloat).permute({1, 0, 2}).reshape({1, length, kv * d});
    const auto [u, s, vh] = torch::linalg_svd(x, /*full_matrices=*/false);
    const int64_t r = std::min<int64_t>(rank, s.size(-1));
    const at::Tensor approx =
        torch::matmul(u.narrow(-1, 0, r) * s.narrow(-1, 0, r).unsqueeze(-2), vh.narrow(-2, 0, r));
    if (perHead)
        return approx.to(keysPreRope.scalar_type());
    return approx.reshape({length, kv, d})
        .permute({1, 0, 2})
        .contiguous()
        .to(keysPreRope.scalar_type());
}

at::Tensor quantizeTokens(const at::Tensor& x, int bits)
{
    if (bits <= 0)
        return x;
    const at::Tensor lo = x.amin(-1, true);
    const at::Tensor hi = x.amax(-1, true);
    const double levels = std::pow(2.0, bits) - 1.0;
    const at::Tensor scale = ((hi - lo) / levels).clamp_min(1e-12);
    return ((x - lo) / scale).round().clamp(0.0, levels) * scale + lo;
}

namespace {

// queries [heads, n, d] as [kv, group, n, d].
at::Tensor grouped(const at::Tensor& queries, int64_t kv)
{
    return queries.to(torch::kFloat).reshape({kv, -1, queries.size(1), queries.size(2)});
}

at::Tensor maskOut(const at::Tensor& scores, const at::Tensor& candidates)
{
    return scores.masked_fill(candidates.logical_not().unsqueeze(1), -INFINITY);
}

} // namespace

at::Tensor landmarkScores(const at::Tensor& queries, const at::Tensor& landmarks,
                          const at::Tensor& candidates)
{
    const int64_t kv = landmarks.size(0);
    const double scale = 1.0 / std::sqrt(double(landmarks.size(2)));
    const at::Tensor logits =
        torch::matmul(grouped(queries, kv),
                      landmarks.to(torch::kFloat).transpose(1, 2).unsqueeze(1)) *
        scale;
    const at::Tensor masked =
        logits.masked_fill(candidates.logical_not().view({kv, 1, 1, -1}), -INFINITY);
    // All chunks masked (everything local or outlier) gives NaN rows: maskOut clears them.
    return maskOut(torch::softmax(masked, -1).amax(1), candidates);
}

at::Tensor pageScores(const at::Tensor& queries, const at::Tensor& lo, const at::Tensor& hi,
                      const at::Tensor& candidates)
{
    const int64_t kv = lo.size(0);
    const at::Tensor q = grouped(queries, kv);
    // max(q lo, q hi) = hi where q > 0, lo where q < 0.
    const at::Tensor bound =
        torch::matmul(q.clamp_min(0.0), hi.to(torch::kFloat).transpose(1, 2).unsqueeze(1)) +
        torch::matmul(q.clamp_max(0.0), lo.to(torch::kFloat).transpose(1, 2).unsqueeze(1));
    return maskOut(bound.amax(1), candidates);
}

at::Tensor selectTokens(const at::Tensor& scores, int64_t chunks, const ChunkGrid& grid,
                        const at::Tensor& always)
{
    const int64_t kv = scores.size(0), n = scores.size(1);
    // Non-candidates (-inf) never fill a budget larger than the candidates.
    const at::Tensor best =
        bestK(scores, std::clamp<int64_t>(chunks, 0, grid.count)) & scores.ne(-INFINITY);
    const at::Tensor padded = torch::cat({best, torch::zeros({kv, n, 1}, torch::kBool)}, 2);
    return padded.index_select(2, grid.tokenChunk) | always.unsqueeze(1);
}

} // namespace kvl::offload
