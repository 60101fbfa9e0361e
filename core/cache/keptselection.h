#pragma once

#include <ATen/core/Tensor.h>
#include <QString>
#include <cstdint>

namespace kvl {

struct CompressionResult;

// fp16 K and V, as kvpress models store their cache: the unit of every memory figure.
constexpr int kCacheBytesPerElement = 2;

// Throws kvl::Error(what, ...) unless 0 <= r < 1.
void checkRatio(double ratio, const QString& what);

// Entries one head keeps under a uniform budget: int(T * (1 - r)), as kvpress's
// ScorerPress computes it (same double arithmetic, truncated).
int64_t keptPerHead(int64_t length, double ratio);

// Bool [..., T] marking exactly the k best scores of every row (NaN ranks last); ties go
// to the earlier position, as the first k of a stable descending sort, so masks are
// reproducible. No protection: see topKMask.
at::Tensor bestK(const at::Tensor& scores, int64_t k);
// Kept mask bool [..., T]: bestK, plus every entry scored +inf even beyond k (protected
// spans).
at::Tensor topKMask(const at::Tensor& scores, int64_t k);
// Same with a budget per row: budgets int64 [...] (the leading dims of scores).
at::Tensor topKMaskPerRow(const at::Tensor& scores, const at::Tensor& budgets);

// Entries scored +inf (whitelisted): bool, same shape.
at::Tensor protectedEntries(const at::Tensor& scores);

// A result for an eviction press: the mask, its scores, byte counts, measured coverage.
CompressionResult evictionResult(const at::Tensor& kept, const at::Tensor& scores, int headDim);
// K+V bytes of the entries of `kept` (as if evicted).
double keptKvBytes(const at::Tensor& kept, int headDim);

} // namespace kvl
