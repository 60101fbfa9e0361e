#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace kvl {

// The fields of a sample's kSampleInputs record (store/runmetakeys.h), in the order a
// difference is reported: the sample's own texts first, then what it was run with.
const QStringList& sampleInputFields();

// The first field of sampleInputFields() whose hash differs between two records, or an
// empty string when none does. A field either record lacks is not compared, so a run
// written before a field was recorded still resumes.
QString firstDifferingInput(const QJsonObject& recorded, const QJsonObject& current);

// A short hash of one input (32 hex digits of its SHA-256): enough to tell an edited
// text from the one recorded, at a fixed cost per sample in the run file.
QString inputHash(const QByteArray& bytes);

} // namespace kvl
