#pragma once

#include <QJsonObject>
#include <QString>

namespace kvl {

// Whether a run file holds the experiment a run is about to write into it: the first
// top-level key (in sorted order) where the file's recorded spec and the new run's spec
// differ, empty when they are the same experiment. Keys that name the shard, the output
// or the threads do not count (specForComparison), nor how the model and the chat
// template were named: a resume compares the model by its identity hash and the template
// by what it resolved to, each with its own message. `kvlens-cli run` refuses a resume
// and the New run dialog offers one by this one function.
QString runSpecDifference(const QJsonObject& recorded, const QJsonObject& wanted);

} // namespace kvl
