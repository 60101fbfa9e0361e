#pragma once

#include <QJsonObject>
#include <QStringList>

namespace kvl {

// Merges run files of the same experiment (shards of one sweep, or a resumed run
// split across machines) into a new file. The inputs must agree on the spec (keys
// that name the shard or the output are ignored: "shard", "out", "threads"), the
// model hash and the configurations; otherwise kvl::Error names the file that
// differs and what differs. A sample present in several inputs is taken from the
// first; it must have been read and run with the same inputs in each (the hashes of
// kSampleInputs, store/runmetakeys.h), or the merge is refused naming the sample and
// the field. The output must not exist yet. The merged run is "finished" when every input
// is.
void mergeRuns(const QStringList& inputs, const QString& output);

// The spec without the keys that legitimately differ between shards; a spec without
// "chat_template_used" (written before chat templates) gets {"template": "none"}.
QJsonObject specForComparison(const QJsonObject& spec);

} // namespace kvl
