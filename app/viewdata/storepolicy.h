#pragma once

#include <QString>

namespace kvl {

class RunReader;
struct ResultRecord;

// Which rows of a run keep a blob, in words ("only for FullCache rows and rows answered
// wrong"), from the "store" part of its spec: blob is "attention" or "masks".
QString storePolicyText(RunReader& reader, const char* blob);

// Why a compressed row draws no attention of its own, and how to have it stored.
QString missingAttentionText(const QString& config, const QString& sampleKey,
                             const ResultRecord& row, const QString& attentionPolicy);

} // namespace kvl
