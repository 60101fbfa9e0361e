#include "cache/compressionresult.h"

#include <torch/types.h>

namespace kvl {

double CompressionResult::keptFraction() const
{
    if (!kept.defined() || kept.numel() == 0)
        return 1.0;
    return kept.to(torch::kDouble).mean().item<double>();
}

CacheEdit CompressionResult::edit() const
{
    CacheEdit e;
    e.keptMask = kept;
    return e;
}

QJsonObject CompressionResult::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("coverage_type")] = coverageTypeName(coverage);
    o[QStringLiteral("kept_fraction")] = keptFraction();
    o[QStringLiteral("kv_bytes_kept")] = keptBytes;
    o[QStringLiteral("kv_bytes_full")] = fullBytes;
    o[QStringLiteral("key_error")] = keyError ? QJsonValue(*keyError) : QJsonValue();
    o[QStringLiteral("value_error")] = valueError ? QJsonValue(*valueError) : QJsonValue();
    if (!details.isEmpty())
        o[QStringLiteral("details")] = details;
    return o;
}

} // namespace kvl
