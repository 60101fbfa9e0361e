#pragma once

#include "diagnose/coveragetype.h"
#include "model/contextcache.h"

#include <ATen/core/Tensor.h>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace kvl {

// What one press made of one prefill at one ratio.
struct CompressionResult
{
    at::Tensor kept;   // bool [layers, kv_heads, T]
    at::Tensor scores; // float [layers, kv_heads, T]; undefined when the press has none
    // Transforms (quantization, ThinK, key re-rotation): the context with rewritten K/V.
    std::optional<ContextCache> rewritten;
    CoverageType coverage = CoverageType::MeasuredTokenCoverage;
    // KV bytes as if the evicted entries were removed (fp16 storage, K and V), and
    // those of the full cache, so memory figures compare across presses.
    double keptBytes = 0.0;
    double fullBytes = 0.0;
    // Relative Frobenius error of rewritten keys / values (transforms), else unset.
    std::optional<double> keyError;
    std::optional<double> valueError;
    QJsonObject details; // press-specific figures (bits, chunks kept, ...)

    // The kept fraction of context entries over all slots.
    double keptFraction() const;
    // The attention mask the engine answers under (keptMask only).
    CacheEdit edit() const;
    // The context the answer should see: rewritten when the press rewrote it.
    const ContextCache& context(const ContextCache& original) const
    {
        return rewritten ? *rewritten : original;
    }
    // Summary for the CLI and the store: coverage type, bytes, errors, details.
    QJsonObject toJson() const;
};

} // namespace kvl
