#pragma once

#include <QString>

namespace kvl {

class RunReader;
struct ResultRecord;

// Which rows of a run keep a blob, in words ("only for FullCache rows and rows answered
// wrong"), from the "store" part of its spec: blob is "attention" or "masks".
QString storePolicyText(RunReader& reader, const char* blob);

// What a run imported from elsewhere (kvlens-cli import-run) cannot show, in words: "Imported
// from KVDiagnosis release: no masks, attention or contexts were released."; empty for a
// run KVLens made (an empty `importedFrom`). `notReleased` is the source's own statement.
QString notReleasedText(const QString& importedFrom, const QString& notReleased);

// Why a compressed row draws no attention of its own, and how to have it stored.
QString missingAttentionText(const QString& config, const QString& sampleKey,
                             const ResultRecord& row, const QString& attentionPolicy);

} // namespace kvl
